// GET /search (search:read): ranked results over studios, artists and public designs.
// Defaults chosen here (the contract leaves them open): page 1, limit 20, maximum limit 50,
// type all; sort_by relevance when q is given, distance when only a point is, rating otherwise.
// `total` is exact up to SEARCH_TOTAL_CAP (default 10,000), beyond it the cap with
// `total_relation: "gte"` (lib/directory/search/index.ts says how the ranking and the facets stay bounded).
import { z } from 'zod';
import { defineRoute, type OkHeader, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { PUBLIC_BASE } from '../../routing/bases';
import { boolParam, checkGeo, geoOf, geoParams, limitParam, numParam, pageParam, slugListParam, textParam } from '../../../lib/directory/params';
import { search, SEARCH_SORTS, SEARCH_TYPES, type SearchSort } from '../../../lib/directory/search';
import { searchPagination } from './envelopes';
import type { Response } from 'express';
import type { AppDeps } from '../../deps';
import { searchEngine } from '../../../lib/search-engine/backend';
import { EngineUnavailable } from '../../../lib/search-engine/client';
import type { SearchFilters } from '../../../lib/directory/search';

export const SEARCH_BACKEND_HEADER = 'X-Search-Backend';
/** The header's values; on the default backend (SEARCH_BACKEND=postgres) it is absent. */
export const SEARCH_BACKENDS = ['opensearch', 'postgres-fallback'] as const;
const SEARCH_BACKEND_DOC: OkHeader = {
  description:
    'Which backend answered, when the service runs with SEARCH_BACKEND=opensearch: `opensearch` (the engine), or `postgres-fallback` ' +
    '(the engine did not answer: down, timed out, or no index yet; PostgreSQL answered the same request, with the same contract: docs/read-clients.md, "Search backends"). ' +
    'Absent on the default backend (PostgreSQL alone).',
  required: false,
  schema: { type: 'string', enum: SEARCH_BACKENDS },
};

/**
 * SEARCH_BACKEND=opensearch: the engine answers, and `X-Search-Backend` says which backend did.
 * When the engine fails (refused, timed out, no index, an error), PostgreSQL answers the same
 * request (`X-Search-Backend: postgres-fallback`, search_backend_answers_total) and the engine is
 * left alone for SEARCH_OPENSEARCH_RETRY_MS; never a 500 for the engine's sake.
 */
async function answer(deps: AppDeps, res: Response, f: SearchFilters) {
  const se = deps.searchEngine;
  if (!se) return search(deps.sql, f);
  if (Date.now() >= se.downUntil) {
    try {
      const r = await searchEngine(deps.sql, se.engine, f);
      se.lastError = undefined;
      res.setHeader(SEARCH_BACKEND_HEADER, 'opensearch' satisfies (typeof SEARCH_BACKENDS)[number]);
      deps.metrics.searchAnswered('opensearch');
      return r;
    } catch (err) {
      if (!(err instanceof EngineUnavailable)) throw err;
      se.downUntil = Date.now() + se.retryMs;
      se.lastError = err.message;
      deps.log.warn({ reason: err.message }, 'search engine failed; answering from PostgreSQL');
    }
  }
  res.setHeader(SEARCH_BACKEND_HEADER, 'postgres-fallback' satisfies (typeof SEARCH_BACKENDS)[number]);
  deps.metrics.searchAnswered('postgres-fallback');
  return search(deps.sql, f);
}

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;

export const searchQuery = z
  .object({
    q: textParam(200).optional().describe('words (full text) or a name (similarity)'),
    type: z.enum(SEARCH_TYPES).default('all'),
    city: textParam().optional(),
    state: textParam().optional(),
    country: textParam().optional(),
    ...geoParams,
    styles: slugListParam().optional().describe('comma-separated style ids; any of them'),
    specialties: slugListParam().optional().describe('comma-separated; any of them'),
    min_rating: numParam(0, 5).optional(),
    verified_only: boolParam.default(false),
    page: pageParam,
    limit: limitParam(SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX),
    sort_by: z.enum(SEARCH_SORTS).optional(),
    sort_order: z.enum(['asc', 'desc']).optional(),
    include_facets: boolParam.default(false),
  })
  .strict()
  .superRefine((v, ctx) => {
    checkGeo(v, ctx);
    if (v.sort_by === 'distance' && v.latitude === undefined) ctx.addIssue({ code: 'custom', path: ['sort_by'], message: 'distance needs latitude and longitude' });
  });

export function searchRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'public', method: 'get', path: `${PUBLIC_BASE}/search`, operationId: 'search', tag: 'search', auth: 'any', permission: 'search:read',
      summary: 'Search studios, artists and designs', query: searchQuery, ok: { 200: ['results', C.SearchPage] }, okHeaders: { [SEARCH_BACKEND_HEADER]: SEARCH_BACKEND_DOC },
      async handler({ deps, query: q, res }) {
        const geo = geoOf(q);
        const sortBy: SearchSort = q.sort_by ?? (q.q ? 'relevance' : geo ? 'distance' : 'rating');
        const result = await answer(deps, res, {
          page: q.page,
          limit: q.limit,
          q: q.q,
          type: q.type,
          city: q.city,
          state: q.state,
          country: q.country,
          geo,
          styles: q.styles,
          specialties: q.specialties,
          minRating: q.min_rating,
          verifiedOnly: q.verified_only,
          sortBy,
          sortOrder: q.sort_order ?? (sortBy === 'name' || sortBy === 'distance' ? 'asc' : 'desc'),
          includeFacets: q.include_facets,
          totalCap: deps.cfg.SEARCH_TOTAL_CAP,
        });
        const bounded = { total: result.total, relation: result.totalRelation, hasNext: result.hasNext };
        return { data: {
            results: result.results,
            total: result.total,
            total_relation: result.totalRelation,
            pagination: searchPagination(q, bounded),
            ...(result.correctedQuery ? { corrected_query: result.correctedQuery } : {}),
            ...(result.corrections.length ? { corrections: result.corrections.map((c) => ({ word: c.word, used_instead: c.usedInstead })) } : {}),
            ...(result.facets ? { facets: result.facets } : {}),
          },
        };
      },
    }),
  ];
}
