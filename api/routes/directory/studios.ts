// GET /studios (public): studio discovery in the legacy wrapper {data, pagination, error: null}, with
// totalRelation beside the pagination block: its total is exact up to SEARCH_TOTAL_CAP, then the
// cap with totalRelation "gte" (as /search counts).
import { z } from 'zod';
import { defineRoute, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { PUBLIC_BASE } from '../../routing/bases';
import { boolParam, checkGeo, geoOf, geoParams, limitParam, numParam, pageParam, textParam } from '../../../lib/directory/params';
import { listStudios, PRICE_RANGES, STUDIO_SORTS } from '../../../lib/directory/studios';
import { legacyPagination } from './envelopes';
import { legacyCanListStudios, legacyListStudios } from '../../../lib/cutover/legacy-reads';
import { studioMismatches } from '../../../lib/cutover/reads';
import { readSource, shadowAfter } from './cutover-source';

export const studiosQuery = z
  .object({
    page: pageParam,
    limit: limitParam(20, 50),
    search: textParam().optional().describe('substring of name, description or city'),
    city: textParam().optional().describe('exact city'),
    state: textParam().optional().describe('exact state'),
    price_range: z
      .string()
      .max(100)
      .regex(/^ *\${1,4} *(?:, *\${1,4} *)*$/, 'comma-separated values of $, $$, $$$, $$$$')
      .transform((v) => [...new Set(v.split(',').map((s) => s.trim()))] as (typeof PRICE_RANGES)[number][])
      .optional()
      .describe('comma-separated: $, $$, $$$, $$$$'),
    rating: numParam(0, 5).optional().describe('minimum rating'),
    verified: boolParam.optional(),
    featured: boolParam.optional(),
    ...geoParams,
    sort: z.enum(STUDIO_SORTS).default('rating').describe('distance needs latitude and longitude'),
    order: z.enum(['asc', 'desc']).optional().describe('default: asc for name and distance, desc otherwise'),
  })
  .strict()
  .superRefine((v, ctx) => {
    checkGeo(v, ctx);
    if (v.sort === 'distance' && v.latitude === undefined) ctx.addIssue({ code: 'custom', path: ['sort'], message: 'distance needs latitude and longitude' });
  });

export function studiosRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'public', method: 'get', path: `${PUBLIC_BASE}/studios`, operationId: 'listStudios', tag: 'studios', auth: 'public',
      summary: 'Studio discovery (legacy wrapper)', query: studiosQuery, ok: { 200: ['a page of studios', C.StudiosPage] },
      async handler({ deps, query: q, res }) {
        const filters = {
          page: q.page,
          limit: q.limit,
          search: q.search,
          city: q.city,
          state: q.state,
          priceRange: q.price_range,
          rating: q.rating,
          verified: q.verified,
          featured: q.featured,
          geo: geoOf(q),
          sort: q.sort,
          order: q.order ?? (q.sort === 'name' || q.sort === 'distance' ? 'asc' : 'desc'),
          totalCap: deps.cfg.SEARCH_TOTAL_CAP,
        } as const;
        const source = await readSource(deps, res, legacyCanListStudios(filters));
        const { rows, total, totalRelation, hasNext } = source.legacy ? await legacyListStudios(source.legacy, filters) : await listStudios(deps.sql, filters);
        if (source.shadow) shadowAfter(deps, 'GET /studios', () => studioMismatches(deps.sql, source.shadow!, rows));
        return { data: rows, pagination: legacyPagination(q, { total, relation: totalRelation, hasNext }), totalRelation, error: null };
      },
    }),
  ];
}
