export { portfolioIntake } from './portfolio-intake';
export { artistResolution } from './artist-resolution';
export { webhookLane } from './webhook-delivery';
