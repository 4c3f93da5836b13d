// GET /search (contract 2.10): one ranked list over studios, artists and public designs, read from
// one table, search_documents (migrations/1700000011000_search-documents.sql): a row per publicly
// searchable record with its weighted text vector, its location, its facet columns and a static
// quality score, kept current by the source tables' triggers in the writing transaction.
//
// How a search stays bounded at a million records (issue 16):
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
import type { Sql } from '../db';
import { offsetOf, type GeoFilter, type Page } from './params';
import { direction, provenanceColumns, provenanceOf, publicDirectoryWhere, publicMediaWhere, trustOf, type Direction, type ProvenanceRow } from './records';
import { distanceKmExpr, TOTAL_CAP_DEFAULT } from './studios';

export const SEARCH_TYPES = ['artist', 'studio', 'design', 'all'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const SEARCH_SORTS = ['relevance', 'rating', 'review_count', 'name', 'created_at', 'distance'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Facet lists longer than this keep their most frequent values. */
export const FACET_TOP = 20;
export { TOTAL_CAP_DEFAULT };
/** Candidates re-ranked by text relevance: the first this many matches in static-quality order. */
export const RESCORE_WINDOW = 500;
/** The quality walk looks for the window among this many top documents before the bitmap takes over. */
export const QUALITY_TIER = 50_000;
/** Hash segments of search_documents, each with a partial GIN index (migration 1700000016000). */
export const SEGMENTS = 16;
/** Query words looked at (more are ignored), and the shortest word a typo is corrected in. */
const MAX_WORDS = 8;
const MIN_TYPO_LENGTH = 4;

export type TotalRelation = 'eq' | 'gte';

export interface SearchFilters extends Page {
  q?: string | undefined;
  type: SearchType;
  city?: string | undefined;
  state?: string | undefined;
  country?: string | undefined;
  geo?: GeoFilter | undefined;
  styles?: string[] | undefined;
  specialties?: string[] | undefined;
  minRating?: number | undefined;
  verifiedOnly: boolean;
  sortBy: SearchSort;
  sortOrder: Direction;
  includeFacets: boolean;
  /** Exact totals up to this many matches (default TOTAL_CAP_DEFAULT). */
  totalCap?: number | undefined;
}

interface ResultRow extends ProvenanceRow {
  type: 'studio' | 'artist' | 'design';
  id: string;
  name: string;
  description: string;
  rating: number | null;
  reviewCount: number;
  verified: boolean;
  styles: string[];
  specialties: string[];
  city: string | null;
  state: string | null;
  country: string | null;
  relevanceScore: number;
  distanceKm: number | null;
}

export interface FacetCount {
  value: string | boolean;
  count: number;
}

export interface SearchFacets {
  types: FacetCount[];
  cities: FacetCount[];
  states: FacetCount[];
  countries: FacetCount[];
  styles: FacetCount[];
  specialties: FacetCount[];
  verified: FacetCount[];
}

// ---- the text query: words, typo tolerance ----

export interface TextQuery {
  /** A tsquery in its text form (every word, or its correction, ANDed); null: q has no words. */
  tsquery: string | null;
  /** Words no document holds, with the indexed word used instead (none when nothing was near). */
  corrections: { word: string; usedInstead: string | null }[];
  /** The words searched (corrections applied), when some word was replaced. */
  correctedQuery?: string;
}

const tsqueryLiteral = (w: string) => `'${w.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The words of q as the documents were indexed (to_tsvector('simple'), so the same parser splits
 * them), each checked against the dictionary; a word no document holds (4+ characters) is replaced
 * by its nearest indexed word by trigram similarity (at least pg_trgm's threshold, 0.3).
 */
export async function textQuery(sql: Sql, q: string): Promise<TextQuery> {
  const rows = await sql<{ word: string; known: boolean; nearest: string | null }[]>`
    select w.word, k.known,
      case when not k.known and length(w.word) >= ${MIN_TYPO_LENGTH} then
        (select s.word from search_words s where s.word % w.word order by s.word <-> w.word, s.word limit 1)
      end as nearest
    from (select unnest(tsvector_to_array(to_tsvector('simple', ${q}))) as word limit ${MAX_WORDS}) w
    cross join lateral (select exists (select 1 from search_words s where s.word = w.word) as known) k`;
  if (rows.length === 0) return { tsquery: null, corrections: [] };
  const words = rows.map((r) => (r.known || !r.nearest ? r.word : r.nearest));
  // q as the client wrote it, each replaced word swapped for what was searched instead
  const replaced = new Map(rows.filter((r) => !r.known && r.nearest).map((r) => [r.word, r.nearest!]));
  return {
    tsquery: words.map(tsqueryLiteral).join(' & '),
    corrections: rows.filter((r) => !r.known).map((r) => ({ word: r.word, usedInstead: r.nearest })),
    ...(replaced.size ? { correctedQuery: q.trim().replace(/[\p{L}\p{N}]+/gu, (w) => replaced.get(w.toLowerCase()) ?? w) } : {}),
  };
}

// ---- statement fragments over search_documents ----

/** Degrees of the bounding box around a radius (earthdistance's sphere, 6378.168 km, plus 1%). */
export function geoBox(g: GeoFilter): { lonMin: number; latMin: number; lonMax: number; latMax: number } {
  const deg = (r: number) => (r * 180) / Math.PI;
  const d = (g.radiusKm / 6378.168) * 1.01;
  const latMin = g.latitude - deg(d);
  const latMax = g.latitude + deg(d);
  const cosLat = Math.cos((g.latitude * Math.PI) / 180);
  // a pole inside the circle, or the box crossing the antimeridian: every longitude
  if (latMin <= -90 || latMax >= 90 || Math.sin(d) >= cosLat) return { lonMin: -180, latMin: Math.max(latMin, -90), lonMax: 180, latMax: Math.min(latMax, 90) };
  const dLon = deg(Math.asin(Math.sin(d) / cosLat));
  if (g.longitude - dLon < -180 || g.longitude + dLon > 180) return { lonMin: -180, latMin, lonMax: 180, latMax };
  return { lonMin: g.longitude - dLon, latMin, lonMax: g.longitude + dLon, latMax };
}

type Alias = 'd' | 't' | 'm' | 'r';

/** The match: the text query and every filter, over search_documents `alias`. */
function matchWhere(sql: Sql, f: SearchFilters, tsq: string | null, alias: Alias) {
  const a = sql.unsafe(alias);
  const none = sql``;
  let geo = none;
  if (f.geo) {
    const b = geoBox(f.geo);
    geo = sql`and point(${a}.longitude, ${a}.latitude) <@ box(point(${b.lonMin}, ${b.latMin}), point(${b.lonMax}, ${b.latMax}))
      and ${distanceKmExpr(sql, f.geo, alias)} <= ${f.geo.radiusKm}`;
  }
  return sql`
    ${f.q ? (tsq ? sql`${a}.search_tsv @@ ${tsq}::tsquery` : sql`false`) : sql`true`}
    ${f.type !== 'all' ? sql`and ${a}.type = ${f.type}` : none}
    ${f.city ? sql`and ${a}.city = ${f.city}` : none}
    ${f.state ? sql`and ${a}.state = ${f.state}` : none}
    ${f.country ? sql`and ${a}.country = ${f.country}` : none}
    ${geo}
    ${f.styles ? sql`and ${a}.styles && ${f.styles}::text[]` : none}
    ${f.specialties ? sql`and ${a}.specialties && ${f.specialties}::text[]` : none}
    ${f.minRating !== undefined ? sql`and ${a}.rating >= ${f.minRating}` : none}
    ${f.verifiedOnly ? sql`and ${a}.verified` : none}`;
}

/** Columns a candidate carries: the page's, the facets' and the ranking's. */
const CANDIDATE = (alias: Alias) =>
  ['type', 'id', 'name', 'search_tsv', 'rating', 'review_count', 'verified', 'styles', 'specialties', 'city', 'state', 'country', 'latitude', 'longitude', 'created_at', 'quality']
    .map((c) => `${alias}.${c}`)
    .join(', ');
const QUALITY_ORDER = 'quality desc, type asc, id asc';

/**
 * relevance_score, 0..1 (4 decimals): 0.6 x the full-text rank (ts_rank_cd: cover density with
 * field weights name 1.0, city / specialties 0.4, description 0.2; normalised as rank / (rank + 1))
 * + 0.3 x the trigram similarity of the name to q + 0.1 x the static quality. 0 without q.
 */
function relevance(sql: Sql, f: SearchFilters, tsq: string | null, alias: string) {
  if (!f.q || !tsq) return sql`0::float8`;
  const a = sql.unsafe(alias);
  return sql`round((0.6 * ts_rank_cd(${a}.search_tsv, ${tsq}::tsquery, 32) + 0.3 * similarity(${a}.name, ${f.q}) + 0.1 * ${a}.quality)::numeric, 4)::float8`;
}

function distance(sql: Sql, f: SearchFilters, alias: string) {
  return f.geo ? distanceKmExpr(sql, f.geo, alias) : sql`null::float8`;
}

/** Sort keys of a non-relevance order over `p` (ties broken by type and id, so pages are stable). */
function sortKeys(sql: Sql, f: SearchFilters, sortBy: Exclude<SearchSort, 'relevance'>, alias: string) {
  const a = sql.unsafe(alias);
  const dir = direction(sql, f.sortOrder);
  const keys = {
    rating: sql`${a}.rating ${dir} nulls last`,
    review_count: sql`${a}.review_count ${dir}`,
    name: sql`${a}.name ${dir}`,
    created_at: sql`${a}.created_at ${dir}`,
    distance: f.geo ? sql`${distanceKmExpr(sql, f.geo, alias)} ${dir} nulls last` : sql`${a}.rating desc nulls last`,
  };
  return sql`${keys[sortBy]}, ${a}.type asc, ${a}.id asc`;
}

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
function windowCtes(sql: Sql, f: SearchFilters, tsq: string | null, cap: number) {
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
function matchesCte(sql: Sql, f: SearchFilters, tsq: string | null, cap: number) {
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

interface PageKey {
  type: ResultRow['type'];
  id: string;
  relevance: number;
  distance: number | null;
  city: string | null;
  state: string | null;
  country: string | null;
}
type FacetColumns = { [K in keyof SearchFacets as `facet${Capitalize<K>}`]?: SearchFacets[K] };

/**
 * One statement: the bounded count (and the facets), the page in the requested order (one row
 * more than the page, so has_next is known), and the display columns of the page's rows from their
 * own tables (visibility checked again there: a row changed out of view meanwhile drops out).
 */
export async function search(sql: Sql, f: SearchFilters) {
  const cap = f.totalCap ?? TOTAL_CAP_DEFAULT;
  const text = f.q ? await textQuery(sql, f.q) : { tsquery: null, corrections: [] };
  const tsq = text.tsquery;
  const offset = offsetOf(f);
  const upTo = offset + f.limit + 1; // rows of the order needed for this page and the next row
  const byRelevance = f.sortBy === 'relevance' && Boolean(f.q);
  const sortBy: Exclude<SearchSort, 'relevance'> = f.sortBy === 'relevance' ? 'rating' : f.sortBy;
  const needWindow = (byRelevance && upTo <= RESCORE_WINDOW) || f.includeFacets;

  // The page: re-ranked window (then quality order past it), or the requested order over every match.
  let page;
  if (byRelevance && upTo <= RESCORE_WINDOW) {
    page = sql`
      select w.type, w.id, w.city, w.state, w.country, ${relevance(sql, f, tsq, 'w')} as relevance_score, ${distance(sql, f, 'w')} as distance_km
      from win w
      order by relevance_score desc, w.quality desc, w.type asc, w.id asc
      offset ${offset} limit ${f.limit + 1}`;
  } else if (byRelevance) {
    // Deep pages: the first window re-ranked, then the rest in quality order (the same sequence as the window path).
    page = sql`
      select r.type, r.id, r.city, r.state, r.country, r.relevance_score, r.distance_km
      from (
        select s.type, s.id, s.city, s.state, s.country, s.pos, ${relevance(sql, f, tsq, 's')} as relevance_score, ${distance(sql, f, 's')} as distance_km
        from (
          select d.*, row_number() over (order by ${sql.unsafe(QUALITY_ORDER)}) as pos
          from (select ${sql.unsafe(CANDIDATE('d'))} from search_documents d where ${matchWhere(sql, f, tsq, 'd')} order by ${sql.unsafe(QUALITY_ORDER)} limit ${upTo}) d
        ) s
      ) r
      order by (r.pos > ${RESCORE_WINDOW}), case when r.pos <= ${RESCORE_WINDOW} then r.relevance_score end desc nulls last, r.pos
      offset ${offset} limit ${f.limit + 1}`;
  } else {
    page = sql`
      select d.type, d.id, d.city, d.state, d.country, ${relevance(sql, f, tsq, 'd')} as relevance_score, ${distance(sql, f, 'd')} as distance_km
      from search_documents d
      where ${matchWhere(sql, f, tsq, 'd')}
      order by ${sortKeys(sql, f, sortBy, 'd')}
      offset ${offset} limit ${f.limit + 1}`;
  }

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
  const rows = keys.length ? await displayRows(sql, keys) : [];
  const byKey = new Map(rows.map((r) => [`${r.type}:${r.id}`, r]));
  const results = keys.flatMap((k) => {
    const r = byKey.get(`${k.type}:${k.id}`);
    return r ? [searchResult({ ...r, city: k.city, state: k.state, country: k.country, relevanceScore: k.relevance, distanceKm: k.distance }, f.geo !== undefined)] : [];
  });
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

/** Description, provenance and trust of the page's rows, from their own tables by primary key. */
async function displayRows(sql: Sql, keys: PageKey[]) {
  const ids = (t: PageKey['type']) => keys.filter((k) => k.type === t).map((k) => k.id);
  return sql<Omit<ResultRow, 'city' | 'state' | 'country' | 'relevanceScore' | 'distanceKm'>[]>`
    select 'studio'::text as type, s.id, s.name, s.description, s.rating, s.review_count, s.verified, s.styles, s.specialties, ${provenanceColumns(sql, 's')}
    from studios s where s.id = any(${ids('studio')}::text[]) and ${publicDirectoryWhere(sql, 's')} and s.is_active
    union all
    select 'artist'::text, a.id, a.name, a.bio, a.rating, a.review_count, a.verified, a.styles, a.specialties, ${provenanceColumns(sql, 'a')}
    from artists a where a.id = any(${ids('artist')}::text[]) and ${publicDirectoryWhere(sql, 'a')} and a.is_active
    union all
    select 'design'::text, d.id, d.title, d.description, null::float8, 0, d.verification_status = 'verified', d.style_ids, '{}'::text[], ${provenanceColumns(sql, 'd')}
    from designs d where d.id = any(${ids('design')}::text[]) and ${publicMediaWhere(sql, 'd')}`;
}

/** The facet columns are prefixed (`facet_styles`): the page's own columns carry the plain names. */
function pickFacets(r: FacetColumns): SearchFacets {
  return {
    types: r.facetTypes ?? [],
    cities: r.facetCities ?? [],
    states: r.facetStates ?? [],
    countries: r.facetCountries ?? [],
    styles: r.facetStyles ?? [],
    specialties: r.facetSpecialties ?? [],
    verified: r.facetVerified ?? [],
  };
}

/**
 * Facet counts, most frequent first: over every match when there are at most `cap` of them (the
 * count read them all), else over the rescore window (the first RESCORE_WINDOW matches in
 * static-quality order). The window CTE is only read in the second case.
 */
function facetColumns(sql: Sql, cap: number) {
  const source = sql`(
    select type, city, state, country, styles, specialties, verified from matches where (select n from counted) <= ${cap}
    union all
    select type, city, state, country, styles, specialties, verified from win where (select n from counted) > ${cap}
  )`;
  const top = (col: string) => sql`
    (select coalesce(json_agg(json_build_object('value', value, 'count', n) order by n desc, value), '[]'::json)
     from (select ${sql.unsafe(col)} as value, count(*)::int as n from ${source} m where ${sql.unsafe(col)} is not null and ${sql.unsafe(col)} <> ''
           group by 1 order by n desc, value limit ${FACET_TOP}) x)`;
  const topArray = (col: string) => sql`
    (select coalesce(json_agg(json_build_object('value', value, 'count', n) order by n desc, value), '[]'::json)
     from (select v as value, count(*)::int as n from ${source} m, unnest(m.${sql.unsafe(col)}) v
           group by 1 order by n desc, value limit ${FACET_TOP}) x)`;
  return sql`
    ${top('type')} as facet_types, ${top('city')} as facet_cities, ${top('state')} as facet_states, ${top('country')} as facet_countries,
    ${topArray('styles')} as facet_styles, ${topArray('specialties')} as facet_specialties,
    (select coalesce(json_agg(json_build_object('value', verified, 'count', n) order by verified desc), '[]'::json)
     from (select verified, count(*)::int as n from ${source} m group by verified) x) as facet_verified`;
}

/** The search result (2.10). */
export function searchResult(r: ResultRow, withDistance: boolean) {
  return {
    type: r.type,
    id: r.id,
    name: r.name,
    description: r.description,
    rating: r.rating,
    review_count: r.reviewCount,
    verified: r.verified,
    styles: r.styles,
    specialties: r.specialties,
    location: { city: r.city, state: r.state, country: r.country },
    relevance_score: r.relevanceScore,
    ...(withDistance ? { distance_km: r.distanceKm === null ? null : Math.round(r.distanceKm * 1000) / 1000 } : {}),
    provenance: provenanceOf(r),
    trust: trustOf(r),
  };
}
