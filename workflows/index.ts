export { portfolioIntake } from './portfolio-intake';
export { artistResolution } from './artist-resolution';
export { webhookEndpoint } from './webhook-delivery';
