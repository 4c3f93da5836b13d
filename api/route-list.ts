// Every route the API serves, in one list: Express routing, both OpenAPI documents, the auth
// cases, the 405 table and the request metrics are derived from it. A new endpoint is one definition in its family.
import type { Route } from './routing/route';
import { docsRoutes, openApiRoutes } from './openapi/router';
import { metricsRoutes } from './routes/metrics';
import { directoryRoutes } from './routes/directory';
import { healthRoutes } from './routes/health';
import { identityRoutes } from './routes/identity';
import { artistResolutionRoutes } from './routes/intake/artist-resolution';
import { evidenceReviewRoutes } from './routes/intake/evidence-review';
import { previewRoutes } from './routes/intake/previews';
import { publishingRoutes } from './routes/intake/publishing';
import { reviewQueueRoutes } from './routes/intake/review-queue';
import { signalRoutes } from './routes/intake/signals';
import { similarRoutes } from './routes/intake/similar';
import { submissionRoutes } from './routes/intake/submissions';
import { uploadRoutes } from './routes/intake/uploads';
import { webhookRoutes } from './routes/intake/webhooks';
import { agentRoutes } from './routes/intake/agents';
import { compatibilityRoutes } from './routes/compatibility';
import { temporalCodecRoutes } from './routes/temporal-codec';
import { portalPageRoutes } from './portal/page';
import { portalRoutes } from './portal/routes';
import { consoleRoutes } from './console/routes';
import { consolePageRoutes } from './console/page';

export interface RouteOptions {
  /** The largest sizeBytes a create accepts (MAX_MEDIA_BYTES); part of the create schema. */
  maxMediaBytes: number;
}

export function allRoutes(o: RouteOptions): Route[] {
  return [
    // Health first: probes are the most frequent request. Never rate limited (orchestrators).
    ...healthRoutes().map((r) => (r.kind === 'operation' ? { ...r, limit: 'none' as const } : r)),
    ...identityRoutes(),
    ...directoryRoutes(),
    ...uploadRoutes(),
    ...submissionRoutes(o),
    ...signalRoutes(),
    ...reviewQueueRoutes(),
    ...previewRoutes(),
    ...similarRoutes(),
    ...artistResolutionRoutes(),
    ...evidenceReviewRoutes(),
    ...publishingRoutes(),
    ...webhookRoutes(),
    ...agentRoutes(),
    ...compatibilityRoutes(),
    ...temporalCodecRoutes(),
    ...portalRoutes(),
    ...portalPageRoutes(),
    ...consoleRoutes(),
    ...consolePageRoutes(),
    ...openApiRoutes(),
    ...docsRoutes(),
    ...metricsRoutes(),
  ];
}
