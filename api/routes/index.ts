// Every route the API serves, in one list: Express routing, both OpenAPI documents, the auth
// cases and the 405 table are derived from it. A new endpoint is one definition in its family.
import type { Route } from '../http/route';
import { openApiRoutes } from '../openapi/router';
import { directoryRoutes } from './directory';
import { healthRoutes } from './health';
import { identityRoutes } from './identity';
import { artistResolutionRoutes } from './intake/artist-resolution';
import { evidenceReviewRoutes } from './intake/evidence-review';
import { previewRoutes } from './intake/previews';
import { publishingRoutes } from './intake/publishing';
import { reviewQueueRoutes } from './intake/review-queue';
import { signalRoutes } from './intake/signals';
import { similarRoutes } from './intake/similar';
import { submissionRoutes } from './intake/submissions';
import { uploadRoutes } from './intake/uploads';
import { webhookRoutes } from './intake/webhooks';
import { portalPageRoutes } from '../portal/page';
import { portalRoutes } from '../portal/routes';
import { consoleRoutes } from '../console/routes';
import { consolePageRoutes } from '../console/page';

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
    ...portalRoutes(),
    ...portalPageRoutes(),
    ...consoleRoutes(),
    ...consolePageRoutes(),
    ...openApiRoutes(),
  ];
}
