// The governed projection: the only path from the private media store into the public runtime
// store, and its inverse, the takedown. The operator routes (api/routes/intake/publishing.ts, which
// `npm run project` and the console call with a verified bearer) run them; no worker does. Both
// have a dry run (planProjection, planTakedown) and check the operator mapping (portfolios:publish);
// the projection also checks the draft's rights / consent posture, the artist's runtime profile
// and that the draft still holds the approved bytes, makes the public renditions
// (lib/media/renditions.ts), then writes the published asset, its renditions and an audit row in
// one transaction. Refusals are audited too.
export { audited, requireOperator } from './checks';
export { planProjection, planTakedown } from './plan';
export { projectDraft } from './publish';
export { unpublishAsset } from './takedown';
export { assetIdOf, ProjectionRefusedError, type ProjectionRefusal } from './types';
