// The webhook tables' SQL, one import for the routes, the activities and the dispatcher: endpoints
// and secrets, the event feed, fan-out and dispatch, the deliverers' claims, and each delivery.
export * from './endpoints';
export { eventsAfter, type PartnerEvent } from './feed';
export * from './dispatch';
export * from './claims';
export * from './deliveries';
