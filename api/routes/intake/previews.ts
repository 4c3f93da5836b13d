// GET /submissions/{id}/preview: the private review preview of a verified submission, for human
// operators only (bearer, portfolio_intake:review), never cached, never to an API key.
import { z } from 'zod';
import { findSubmission } from '../../../lib/intake/submissions';
import { AppError } from '../../http/errors';
import { defineRoute, type Route } from '../../http/route';
import * as C from '../../openapi/components';
import { INTAKE_BASE } from '../bases';
import { submissionIdParams } from './schemas';

export const previewQuery = z.object({ size: z.enum(['thumb', 'large']).default('large').describe('thumb: 320 px long edge; large: 1600 px') }).strict();

export function previewRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'intake', method: 'get', path: `${INTAKE_BASE}/submissions/{submissionId}/preview`, operationId: 'getPreview', tag: 'review',
      auth: 'operator', permission: 'portfolio_intake:review',
      summary: 'The review preview of a verified submission (WebP, upright, every metadata block stripped)',
      params: submissionIdParams, query: previewQuery, okContentType: 'image/webp',
      ok: { 200: ['the preview', C.PreviewImage] }, problems: [404],
      async handler({ deps, params, query, res }) {
        const row = await findSubmission(deps.sql, params.submissionId);
        if (!row) throw new AppError('not_found', 'No such submission.');
        const bytes = await deps.store.readPreview(row.stagingKey, query.size);
        if (!bytes) throw new AppError('not_found', 'This submission has no preview (it was not verified).');
        res.set('cache-control', 'private, no-store').set('x-content-type-options', 'nosniff').type('image/webp').send(bytes);
      },
    }),
  ];
}
