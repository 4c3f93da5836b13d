// The bounded count's matches and the rescore window: how a search reads at most what it needs.
import type { Sql } from '../../db';
import { matchWhere, type Alias, type SearchFilters } from './filters';

/** Candidates re-ranked by text relevance: the first this many matches in static-quality order. */
export const RESCORE_WINDOW = 500;
/** The quality walk looks for the window among this many top documents before the bitmap takes over. */
export const QUALITY_TIER = 50_000;
/** Hash segments of search_documents, each with a partial GIN index (migration 1700000016000). */
export const SEGMENTS = 16;

/** Columns a candidate carries: the page's, the facets' and the ranking's. */
export const CANDIDATE = (alias: Alias) =>
  ['type', 'id', 'name', 'search_tsv', 'rating', 'review_count', 'verified', 'styles', 'specialties', 'city', 'state', 'country', 'latitude', 'longitude', 'created_at', 'quality']
    .map((c) => `${alias}.${c}`)
    .join(', ');
export const QUALITY_ORDER = 'quality desc, type asc, id asc';

/**
 * The rescore window: the first RESCORE_WINDOW matches in static-quality order, taken the way that
 * suits the term, chosen by the bounded count (`matches`, read first):
 * - at most the cap: `matches` holds every match, the window is its best RESCORE_WINDOW;
 * - more (a common term): walk the quality index and stop after a window of hits, over the top
 *   QUALITY_TIER documents at most, when the matches are dense enough for the tier to hold a
 *   window (estimated from how many segments the count read for its cap + 1 rows);
 * - else, or when the walk comes up short: the GIN bitmap of the matches, sorted (`quality + 0`
 *   keeps the planner off the walk, which would read the whole index to find a sparse term).
 */
export function windowCtes(sql: Sql, f: SearchFilters, tsq: string | null, cap: number) {
  const over = sql`(select n from counted) > ${cap}`;
  // Matches the walk is expected to meet in the tier: the estimated total (cap + 1 over the share of
  // segments read, the last one read being the highest) times the tier's share of the documents.
  // Without segments (no text), or over a city's own documents (its quality index): always walk.
  const dense = tsq && !f.city
    ? sql`(${cap + 1}::float8 * ${SEGMENTS} / (select coalesce(last_seg, 0) + 1 from counted))
          * ${QUALITY_TIER} / greatest((select reltuples from pg_class where oid = 'search_documents'::regclass), 1) >= ${RESCORE_WINDOW}`
    : sql`true`;
  return sql`
    tier as materialized (
      select t.* from (
        select ${sql.unsafe(CANDIDATE('d'))} from search_documents d ${f.city ? sql`where d.city = ${f.city}` : sql``}
        order by ${sql.unsafe(QUALITY_ORDER)} limit ${QUALITY_TIER}) t
      where ${over} and ${dense} and ${matchWhere(sql, f, tsq, 't')}
      limit ${RESCORE_WINDOW}
    ),
    rest as materialized (
      select ${sql.unsafe(CANDIDATE('r'))}
      from (${tsq ? segmented(sql, f, tsq, CANDIDATE('d'), sql`and ${over} and (select count(*) from tier) < ${RESCORE_WINDOW}`)
                  : sql`select ${sql.unsafe(CANDIDATE('d'))} from search_documents d where ${matchWhere(sql, f, tsq, 'd')} and ${over} and (select count(*) from tier) < ${RESCORE_WINDOW}`}) r
      order by r.quality + 0 desc, r.type asc, r.id asc
      limit ${RESCORE_WINDOW}
    ),
    win as (
      (select ${sql.unsafe(CANDIDATE('d'))}
       from (select m.type, m.id from matches m where not ${over} order by m.quality desc, m.type asc, m.id asc limit ${RESCORE_WINDOW}) m
       join search_documents d on d.type = m.type and d.id = m.id)
      union all
      select * from tier where (select count(*) from tier) >= ${RESCORE_WINDOW}
      union all
      select * from rest
    )`;
}

/**
 * The bounded count's rows: at most cap + 1 matches, with their keys, quality and facet columns. A text query reads its matches segment by segment (each segment's partial GIN
 * index), so the count stops after the first segments that hold cap + 1 of them.
 */
export function matchesCte(sql: Sql, f: SearchFilters, tsq: string | null, cap: number) {
  const cols = 'd.type, d.id, d.quality, d.city, d.state, d.country, d.styles, d.specialties, d.verified';
  if (!tsq) return sql`select 0 as seg, ${sql.unsafe(cols)} from search_documents d where ${matchWhere(sql, f, tsq, 'd')} limit ${cap + 1}`;
  return sql`select * from (${segmented(sql, f, tsq, cols)}) u limit ${cap + 1}`;
}

/**
 * The matches of a text query, segment after segment (`seg`, then `cols` of alias d): each branch
 * is answered by its segment's partial GIN index over (type, city, search_tsv), so a type or city
 * filter intersects there too instead of being checked on every text match's row.
 */
function segmented(sql: Sql, f: SearchFilters, tsq: string, cols: string, extra = sql``) {
  const segments = Array.from({ length: SEGMENTS }, (_, k) =>
    sql`(select ${sql.unsafe(String(k))} as seg, ${sql.unsafe(cols)} from search_documents d
         where (hashtext(d.id) & ${sql.unsafe(String(SEGMENTS - 1))}) = ${sql.unsafe(String(k))} and ${matchWhere(sql, f, tsq, 'd')} ${extra})`);
  return segments.reduce((acc, seg) => sql`${acc} union all ${seg}`);
}

