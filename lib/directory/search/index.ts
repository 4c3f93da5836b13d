// GET /search (contract 2.10): one ranked list over studios, artists and public designs, read from
// one table, search_documents (migrations/1700000011000_search-documents.sql): a row per publicly
// searchable record with its weighted text vector, its location, its facet columns and a static
// quality score, kept current by the source tables' triggers in the writing transaction.
//
// How a search stays bounded at a million records:
// - Totals are counted as search engines count them: exactly up to a cap (SEARCH_TOTAL_CAP,
//   default 10,000), beyond it the cap with total_relation "gte". The count reads at most cap + 1
//   matches. A text query reads them segment by segment (SEGMENTS hash segments of the documents,
//   each with its own partial GIN index, as Lucene reads its index segments): a GIN bitmap cannot
//   stop early, so one bitmap over every match of a common term grows with the directory, while a
//   segment's bitmap holds a SEGMENTS-th of them and the count stops in the first segments.
// - Relevance is ranked top-k without ranking every match: the candidates are the first
//   RESCORE_WINDOW matches in static-quality order, and only they are re-ranked by text relevance.
//   Within the cap the count already read every match, and the window is taken from those rows.
//   Beyond it, for a common term the quality index is walked and the walk stops after a window of
//   hits, over the top QUALITY_TIER documents at most; a term whose matches (estimated from the
//   segments the count read) are too sparse for the walk to fill a window goes straight to the GIN
//   bitmap of its matches, as does a walk that comes up short.
// - Facets are exact when the matches are within the cap; beyond it they are counted over the
//   rescore window (the first RESCORE_WINDOW matches in static-quality order).
// - Typo tolerance: a query word that no document holds is replaced by the nearest indexed word by
//   trigram similarity (pg_trgm over search_words), so `tradtional` finds `traditional`.
import type { Sql } from '../../db';
import { offsetOf } from '../params';
import { TOTAL_CAP_DEFAULT } from '../studios';
import { facetColumns, pickFacets, type FacetColumns } from './facets';
import type { SearchFilters } from './filters';
import { matchesCte, RESCORE_WINDOW, windowCtes } from './matches';
import { pageQuery } from './rank';
import { pageResults, type PageKey } from './results';
import { textQuery, type TextQuery } from './text';

export { pageResults, type PageKey } from './results';
export { textQuery } from './text';
export { SEARCH_SORTS, SEARCH_TYPES, type SearchFilters, type SearchSort, type SearchType } from './filters';
export { RESCORE_WINDOW, SEGMENTS } from './matches';
export type TotalRelation = 'eq' | 'gte';

/**
 * One statement: the bounded count (and the facets), the page in the requested order (one row
 * more than the page, so has_next is known), and the display columns of the page's rows from their
 * own tables (visibility checked again there: a row changed out of view meanwhile drops out).
 */
export async function search(sql: Sql, f: SearchFilters) {
  const cap = f.totalCap ?? TOTAL_CAP_DEFAULT;
  const text: Omit<TextQuery, 'words'> = f.q ? await textQuery(sql, f.q) : { tsquery: null, corrections: [] };
  const tsq = text.tsquery;
  const offset = offsetOf(f);
  const upTo = offset + f.limit + 1; // rows of the order needed for this page and the next row
  const needWindow = (f.sortBy === 'relevance' && Boolean(f.q) && upTo <= RESCORE_WINDOW) || f.includeFacets;

  const page = pageQuery(sql, f, tsq, offset, upTo, cap);

  // Serial plan: the count reads the segments in order and stops, which a Parallel Append (its
  // workers starting on every segment at once) would undo; and under concurrent requests on a few
  // cores, parallel workers only add their start-up to each one.
  const [agg] = await sql.begin(async (tx) => {
    await tx`set local max_parallel_workers_per_gather = 0`;
    return tx<({ matched: number; pageKeys: PageKey[] } & FacetColumns)[]>`
    with matches as materialized (${matchesCte(sql, f, tsq, cap)}),
    counted as materialized (select count(*)::int as n, max(seg) as last_seg from matches),
    ${needWindow ? sql`${windowCtes(sql, f, tsq, cap)},` : sql``}
    page as (${page})
    select (select n from counted) as matched,
      (select coalesce(json_agg(json_build_object('type', p.type, 'id', p.id, 'relevance', p.relevance_score, 'distance', p.distance_km,
        'city', p.city, 'state', p.state, 'country', p.country)), '[]'::json) from page p) as page_keys
      ${f.includeFacets ? sql`, ${facetColumns(sql, cap)}` : sql``}`;
  });

  const matched = agg?.matched ?? 0;
  const keys = (agg?.pageKeys ?? []).slice(0, f.limit);
  const results = await pageResults(sql, keys, f.geo !== undefined);
  return {
    results,
    total: Math.min(matched, cap),
    totalRelation: (matched > cap ? 'gte' : 'eq') as TotalRelation,
    hasNext: (agg?.pageKeys.length ?? 0) > f.limit,
    corrections: text.corrections,
    ...(text.correctedQuery ? { correctedQuery: text.correctedQuery } : {}),
    ...(f.includeFacets && agg ? { facets: pickFacets(agg) } : {}),
  };
}
