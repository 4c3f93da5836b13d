// GET /portfolios (portfolios:read): published public portfolio assets only (lib/directory/records.ts
// publicMediaWhere). Writes on /portfolios and /portfolios/{id}: 405.
import { z } from 'zod';
import { blockedWrites, defineRoute, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { PUBLIC_BASE } from '../../routing/bases';
import { listPublicPortfolios } from '../../../lib/directory/media';
import { boolParam, limitParam, pageParam, slugListParam, textParam } from '../../../lib/directory/params';
import { mediaPagination } from './envelopes';
import { readSource, shadowAfter } from './cutover-source';
import { legacyListMedia } from '../../../lib/cutover/legacy-reads';
import { mediaMismatches } from '../../../lib/cutover/reads';

export const mediaQueryShape = {
  page: pageParam,
  limit: limitParam(20, 100),
  artist_id: textParam().optional(),
  style_id: textParam(100).transform((v) => v.toLowerCase()).optional(),
  featured: boolParam.optional(),
  tags: slugListParam().optional().describe('comma-separated; any of them'),
};

export const portfoliosQuery = z.object(mediaQueryShape).strict();
export type PortfoliosQuery = z.infer<typeof portfoliosQuery>;

/** The shared media filters, in the query functions' names. */
export function mediaFiltersOf(q: PortfoliosQuery) {
  return { page: q.page, limit: q.limit, artistId: q.artist_id, styleId: q.style_id, featured: q.featured, tags: q.tags };
}

export function portfoliosRoutes(): Route[] {
  return [
    ...blockedWrites(`${PUBLIC_BASE}/portfolios`, 'GET, HEAD'),
    // No item route is served: an empty Allow says the resource answers no method here.
    ...blockedWrites(`${PUBLIC_BASE}/portfolios/{id}`, ''),
    defineRoute({
      doc: 'public', method: 'get', path: `${PUBLIC_BASE}/portfolios`, operationId: 'listPortfolios', tag: 'portfolios', auth: 'any', permission: 'portfolios:read',
      summary: 'Public portfolio assets', query: portfoliosQuery, ok: { 200: ['a page of assets', C.PortfoliosPage] },
      async handler({ deps, query: q, res }) {
        const source = await readSource(deps, res, true);
        const f = mediaFiltersOf(q);
        const { rows, total } = source.legacy ? await legacyListMedia(source.legacy, 'portfolio', f, deps.publicBaseUrl) : await listPublicPortfolios(deps.sql, f, deps.publicBaseUrl);
        if (source.shadow) shadowAfter(deps, 'GET /portfolios', () => mediaMismatches(source.shadow!, 'portfolio', rows, deps.publicBaseUrl));
        return { data: rows, pagination: mediaPagination(q, total) };
      },
    }),
  ];
}
