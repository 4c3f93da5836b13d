export { portfolioIntake } from './portfolio-intake';
export { artistResolution } from './artist-resolution';
export { webhookEndpoint, webhookLane } from './webhook-delivery';
