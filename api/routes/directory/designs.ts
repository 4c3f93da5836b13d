// GET /designs (designs:read): published public designs only; public=false answers no records.
// Writes on /designs and /designs/{id}: 405.
import { z } from 'zod';
import { blockedWrites, defineRoute, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { PUBLIC_BASE } from '../../routing/bases';
import { listPublicDesigns } from '../../../lib/directory/media';
import { boolParam, numParam, textParam } from '../../../lib/directory/params';
import { mediaPagination } from './envelopes';
import { readSource, shadowAfter } from './cutover-source';
import { legacyListMedia } from '../../../lib/cutover/legacy-reads';
import { mediaMismatches } from '../../../lib/cutover/reads';
import { mediaFiltersOf, mediaQueryShape } from './portfolios';

export const designsQuery = z
  .object({
    ...mediaQueryShape,
    public: boolParam.optional().describe('false answers no records: this route lists public designs only'),
    search: textParam().optional().describe('word prefixes in title and description'),
    min_price: numParam(0, 1_000_000).optional().describe('only designs with a price'),
    max_price: numParam(0, 1_000_000).optional().describe('only designs with a price'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.min_price !== undefined && v.max_price !== undefined && v.min_price > v.max_price)
      ctx.addIssue({ code: 'custom', path: ['max_price'], message: 'must not be below min_price' });
  });

export function designsRoutes(): Route[] {
  return [
    ...blockedWrites(`${PUBLIC_BASE}/designs`, 'GET, HEAD'),
    ...blockedWrites(`${PUBLIC_BASE}/designs/{id}`, ''),
    defineRoute({
      doc: 'public', method: 'get', path: `${PUBLIC_BASE}/designs`, operationId: 'listDesigns', tag: 'designs', auth: 'any', permission: 'designs:read',
      summary: 'Public designs', query: designsQuery, ok: { 200: ['a page of designs', C.DesignsPage] },
      async handler({ deps, query: q, res }) {
        const source = await readSource(deps, res, true);
        const f = { ...mediaFiltersOf(q), public: q.public, search: q.search, minPrice: q.min_price, maxPrice: q.max_price };
        const { rows, total } = source.legacy ? await legacyListMedia(source.legacy, 'design', f, deps.publicBaseUrl) : await listPublicDesigns(deps.sql, f, deps.publicBaseUrl);
        if (source.shadow) shadowAfter(deps, 'GET /designs', () => mediaMismatches(source.shadow!, 'design', rows, deps.publicBaseUrl));
        return { data: rows, pagination: mediaPagination(q, total) };
      },
    }),
  ];
}
