// GET /submissions/{id}/preview: the private review preview of a verified submission, for human
// operators only (bearer, portfolio_intake:review), never cached, never to an API key.
import { defineRoute, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { previewBytes, previewQuery } from '../../operations/previews';
import { INTAKE_BASE } from '../../routing/bases';
import { submissionIdParams } from './schemas';

export function previewRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'intake', method: 'get', path: `${INTAKE_BASE}/submissions/{submissionId}/preview`, operationId: 'getPreview', tag: 'review',
      auth: 'operator', permission: 'portfolio_intake:review',
      summary: 'The review preview of a verified submission (WebP, upright, every metadata block stripped)',
      params: submissionIdParams, query: previewQuery, okContentType: 'image/webp',
      ok: { 200: ['the preview', C.PreviewImage] }, problems: [404, 503],
      async handler({ deps, params, query, res }) {
        const bytes = await previewBytes(deps, params.submissionId, query.size);
        res.set('cache-control', 'private, no-store').set('x-content-type-options', 'nosniff').type('image/webp').send(bytes);
      },
    }),
  ];
}
