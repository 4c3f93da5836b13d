// GET /review-queue: what operators decide on, oldest first. The row holds every state the
// workflow passes through, so an item leaves the queue as soon as its promotion starts.
import { reviewQueue } from '../../../lib/intake/submissions';
import { defineRoute, type Route } from '../../http/route';
import * as C from '../../openapi/components';
import { INTAKE_BASE } from '../bases';
import { reviewQueueQuery } from './schemas';

export function reviewQueueRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'intake', method: 'get', path: `${INTAKE_BASE}/review-queue`, operationId: 'reviewQueue', tag: 'review', auth: 'operator', permission: 'portfolio_intake:review',
      summary: 'Submissions awaiting review, oldest first', query: reviewQueueQuery,
      ok: { 200: ['one page of the queue', C.ReviewQueue] },
      async handler({ deps, query: q, res }) {
        const { items, total } = await reviewQueue(deps.sql, q);
        res.json({ success: true, data: items, pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) } });
      },
    }),
  ];
}
