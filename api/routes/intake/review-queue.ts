// GET /review-queue: what operators decide on, oldest first. The row holds every state the
// workflow passes through, so an item leaves the queue as soon as its promotion starts. The same
// query as the console's queue (lib/console/review.ts), answered with the contract's fields.
import { reviewQueue } from '../../../lib/console/review';
import { defineRoute, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { INTAKE_BASE } from '../../routing/bases';
import { reviewQueueQuery } from './schemas';

export function reviewQueueRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'intake', method: 'get', path: `${INTAKE_BASE}/review-queue`, operationId: 'reviewQueue', tag: 'review', auth: 'operator', permission: 'portfolio_intake:review',
      summary: 'Submissions awaiting review, oldest first', query: reviewQueueQuery,
      ok: { 200: ['one page of the queue', C.ReviewQueue] },
      async handler({ deps, query: q }) {
        const { items, total } = await reviewQueue(deps.sql, q);
        const data = items.map((i) => ({
          submissionId: i.submissionId, tenantId: i.tenantId, artistCanonicalId: i.artistCanonicalId, mimeType: i.mimeType, sizeBytes: i.sizeBytes,
          rightsPosture: i.rightsPosture, consentPosture: i.consentPosture, awaitingSince: i.awaitingSince, ageSeconds: i.ageSeconds, secondReview: i.secondReview,
        }));
        return { data, pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) } };
      },
    }),
  ];
}
