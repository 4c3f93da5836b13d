// GET /search (contract 2.10): one ranked list over studios, artists and public designs.
// Each type is a branch of a UNION ALL with the same columns; the filters apply to the union and
// PostgreSQL pushes them into every branch, where the per-table indexes answer them.
import type { Sql } from '../db';
import { offsetOf, type GeoFilter, type Page } from './params';
import { direction, provenanceColumns, provenanceOf, publicDirectoryWhere, publicMediaWhere, trustOf, type Direction, type ProvenanceRow } from './records';
import { distanceKmExpr, withinRadius } from './studios';

export const SEARCH_TYPES = ['artist', 'studio', 'design', 'all'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const SEARCH_SORTS = ['relevance', 'rating', 'review_count', 'name', 'created_at', 'distance'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Facet lists longer than this keep their most frequent values. */
export const FACET_TOP = 20;

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

const wants = (f: SearchFilters, t: 'studio' | 'artist' | 'design') => f.type === 'all' || f.type === t;

/** The union of the requested types, one uniform row shape, visibility rules inside each branch. */
function candidates(sql: Sql, f: SearchFilters) {
  const branches = [];
  if (wants(f, 'studio'))
    branches.push(sql`
      select 'studio'::text as type, s.id, s.name, s.description, s.rating, s.review_count, s.verified, s.styles, s.specialties,
        s.city, s.state, s.country, s.latitude, s.longitude, s.search_tsv, s.created_at, ${provenanceColumns(sql, 's')}
      from studios s
      where ${publicDirectoryWhere(sql, 's')} and s.is_active`);
  if (wants(f, 'artist'))
    branches.push(sql`
      select 'artist'::text as type, a.id, a.name, a.bio as description, a.rating, a.review_count, a.verified, a.styles, a.specialties,
        st.city, st.state, st.country, st.latitude, st.longitude, a.search_tsv, a.created_at, ${provenanceColumns(sql, 'a')}
      from artists a
      left join studios st on st.id = a.studio_id and ${publicDirectoryWhere(sql, 'st')}
      where ${publicDirectoryWhere(sql, 'a')} and a.is_active`);
  if (wants(f, 'design'))
    // Designs carry no ratings of their own; `verified` is their own verification status.
    branches.push(sql`
      select 'design'::text as type, d.id, d.title as name, d.description, null::float8 as rating, 0 as review_count,
        d.verification_status = 'verified' as verified, d.style_ids as styles, '{}'::text[] as specialties, st.city, st.state, st.country, st.latitude, st.longitude, d.search_tsv, d.created_at, ${provenanceColumns(sql, 'd')}
      from designs d
      left join studios st on st.id = d.studio_id and ${publicDirectoryWhere(sql, 'st')}
      where ${publicMediaWhere(sql, 'd')}`);
  return branches.reduce((acc, b) => sql`${acc} union all ${b}`);
}

function filters(sql: Sql, f: SearchFilters) {
  const none = sql``;
  return sql`
    where true
    ${f.q ? sql`and (u.search_tsv @@ websearch_to_tsquery('simple', ${f.q}) or u.name % ${f.q})` : none}
    ${f.city ? sql`and u.city = ${f.city}` : none}
    ${f.state ? sql`and u.state = ${f.state}` : none}
    ${f.country ? sql`and u.country = ${f.country}` : none}
    ${f.geo ? sql`and ${withinRadius(sql, f.geo, 'u')}` : none}
    ${f.styles ? sql`and u.styles && ${f.styles}::text[]` : none}
    ${f.specialties ? sql`and u.specialties && ${f.specialties}::text[]` : none}
    ${f.minRating !== undefined ? sql`and u.rating >= ${f.minRating}` : none}
    ${f.verifiedOnly ? sql`and u.verified` : none}`;
}

/** 0..1: full-text rank (normalised rank/(rank+1)) blended with name similarity; 0 without q. */
function relevance(sql: Sql, f: SearchFilters) {
  if (!f.q) return sql`0::float8`;
  return sql`round((0.6 * ts_rank_cd(u.search_tsv, websearch_to_tsquery('simple', ${f.q}), 32) + 0.4 * similarity(u.name, ${f.q}))::numeric, 4)::float8`;
}

/** The sort keys over the matched set `m` (ties broken by type and id, so pages are stable). */
function orderKeys(sql: Sql, f: SearchFilters) {
  const dir = direction(sql, f.sortOrder);
  const keys = {
    relevance: sql`m.relevance_score ${dir}, m.rating desc nulls last`,
    rating: sql`m.rating ${dir} nulls last`,
    review_count: sql`m.review_count ${dir}`,
    name: sql`m.name ${dir}`,
    created_at: sql`m.created_at ${dir}`,
    distance: sql`m.distance_km ${dir} nulls last`,
  };
  return sql`${keys[f.sortBy]}, m.type asc, m.id asc`;
}


type FacetColumns = { [K in keyof SearchFacets as `facet${Capitalize<K>}`]?: SearchFacets[K] };
interface PageKey {
  type: ResultRow['type'];
  id: string;
  relevance: number;
  distance: number | null;
}

/**
 * One pass over the matches: the filtered set is materialised once (narrow: the sort, facet and
 * location columns plus the relevance score), and the total, the facets and the page's keys all
 * read it. A second, small statement fetches the display columns of the page's rows by id.
 */
export async function search(sql: Sql, f: SearchFilters) {
  const [agg] = await sql<({ total: number; pageKeys: PageKey[] } & FacetColumns)[]>`
    with m as materialized (
      select u.type, u.id, u.name, u.rating, u.review_count, u.created_at, u.verified, u.city, u.state, u.country, u.styles, u.specialties,
        ${relevance(sql, f)} as relevance_score,
        ${f.geo ? distanceKmExpr(sql, f.geo, 'u') : sql`null::float8`} as distance_km
      from (${candidates(sql, f)}) u
      ${filters(sql, f)}
    ),
    page as (
      select m.type, m.id, m.relevance_score, m.distance_km, row_number() over (order by ${orderKeys(sql, f)}) as pos
      from m
      order by ${orderKeys(sql, f)}
      limit ${f.limit} offset ${offsetOf(f)}
    )
    select (select count(*)::int from m) as total,
      (select coalesce(json_agg(json_build_object('type', type, 'id', id, 'relevance', relevance_score, 'distance', distance_km) order by pos), '[]'::json)
       from page) as page_keys
      ${f.includeFacets ? sql`, ${facetColumns(sql)}` : sql``}`;
  const keys = agg?.pageKeys ?? [];
  const rows = keys.length
    ? await sql<ResultRow[]>`
        select u.type, u.id, u.name, u.description, u.rating, u.review_count, u.verified, u.styles, u.specialties,
          u.city, u.state, u.country, ${provenanceColumns(sql, 'u')}
        from (${candidates(sql, f)}) u
        where u.id = any(${keys.map((k) => k.id)}::text[])`
    : [];
  const byKey = new Map(rows.map((r) => [`${r.type}:${r.id}`, r]));
  const results = keys.flatMap((k) => {
    const r = byKey.get(`${k.type}:${k.id}`);
    // A row changed out of view between the two statements drops out rather than failing the page.
    return r ? [searchResult({ ...r, relevanceScore: k.relevance, distanceKm: k.distance }, f.geo !== undefined)] : [];
  });
  return { results, total: agg?.total ?? 0, ...(f.includeFacets && agg ? { facets: pickFacets(agg) } : {}) };
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

/** Facet counts over the whole matched set `m` (not just the page), most frequent first. */
function facetColumns(sql: Sql) {
  const top = (col: string) => sql`
    (select coalesce(json_agg(json_build_object('value', value, 'count', n) order by n desc, value), '[]'::json)
     from (select ${sql.unsafe(col)} as value, count(*)::int as n from m where ${sql.unsafe(col)} is not null and ${sql.unsafe(col)} <> ''
           group by 1 order by n desc, value limit ${FACET_TOP}) x)`;
  const topArray = (col: string) => sql`
    (select coalesce(json_agg(json_build_object('value', value, 'count', n) order by n desc, value), '[]'::json)
     from (select v as value, count(*)::int as n from m, unnest(m.${sql.unsafe(col)}) v
           group by 1 order by n desc, value limit ${FACET_TOP}) x)`;
  return sql`
    ${top('type')} as facet_types, ${top('city')} as facet_cities, ${top('state')} as facet_states, ${top('country')} as facet_countries,
    ${topArray('styles')} as facet_styles, ${topArray('specialties')} as facet_specialties,
    (select coalesce(json_agg(json_build_object('value', verified, 'count', n) order by verified desc), '[]'::json)
     from (select verified, count(*)::int as n from m group by verified) x) as facet_verified`;
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
