export { portfolioIntake } from './portfolio-intake';
