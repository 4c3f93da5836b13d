// Studio discovery (contract 2.6, GET /studios): small named queries, optional filters as fragments.
import type { Sql } from '../db';
import { coverCircle, radiusBounds, type CodeRange } from './geo-cells';
import { offsetOf, type GeoFilter, type Page } from './params';
import { runtimeColumns, servedOf, type RowOf } from './fields/table';
import { STUDIO_FIELDS } from './fields/studio';
import { direction, likeContains, provenanceColumns, provenanceOf, publicDirectoryWhere, trustOf, type Direction, type ProvenanceRow } from './records';
import type { PriceRange } from './vocabulary';

export const STUDIO_SORTS = ['rating', 'name', 'review_count', 'created_at', 'distance'] as const;
export type StudioSort = (typeof STUDIO_SORTS)[number];
export { PRICE_RANGES } from './vocabulary';
/** Totals are exact up to this many rows unless the caller says otherwise (SEARCH_TOTAL_CAP). */
export const TOTAL_CAP_DEFAULT = 10_000;

export interface StudioFilters extends Page {
  search?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  priceRange?: PriceRange[] | undefined;
  rating?: number | undefined;
  verified?: boolean | undefined;
  featured?: boolean | undefined;
  geo?: GeoFilter | undefined;
  sort: StudioSort;
  order: Direction;
  /** Exact totals up to this many studios (default TOTAL_CAP_DEFAULT), then the cap with relation gte. */
  totalCap?: number | undefined;
  /** At most this many studios walked along the sort for a page in a radius (default WALK_ROWS; 0: never). */
  walkRows?: number | undefined;
}

/**
 * A page in a radius sorted by other than distance: at most this many public studios are walked in
 * the sort's order (its index) looking for the page, before the circle's own index is read instead.
 */
export const WALK_ROWS = 20_000;

export type StudioRow = ProvenanceRow & RowOf<typeof STUDIO_FIELDS> & { id: string; distanceKm: number | null };

/** Great-circle distance in km from the geo point to the studio (earthdistance, metres / 1000). */
export function distanceKmExpr(sql: Sql, g: GeoFilter, alias = 's') {
  const a = sql.unsafe(alias);
  return sql`(earth_distance(ll_to_earth(${g.latitude}, ${g.longitude}), ll_to_earth(${a}.latitude, ${a}.longitude)) / 1000.0)`;
}

/** Inside the radius: the GiST index answers the bounding cube, the distance check trims its corners. */
export function withinRadius(sql: Sql, g: GeoFilter, alias = 's') {
  const a = sql.unsafe(alias);
  const metres = g.radiusKm * 1000;
  return sql`earth_box(ll_to_earth(${g.latitude}, ${g.longitude}), ${metres}) @> ll_to_earth(${a}.latitude, ${a}.longitude)
    and earth_distance(ll_to_earth(${g.latitude}, ${g.longitude}), ll_to_earth(${a}.latitude, ${a}.longitude)) <= ${metres}`;
}

/** The filters; `radius: false` leaves the geo radius out (the geo count applies it by cells). */
function where(sql: Sql, f: StudioFilters, radius = true) {
  const none = sql``;
  return sql`
    where ${publicDirectoryWhere(sql, 's')} and s.is_active
    ${f.search ? sql`and s.search_text like ${likeContains(f.search)}` : none}
    ${f.city ? sql`and s.city = ${f.city}` : none}
    ${f.state ? sql`and s.state = ${f.state}` : none}
    ${f.priceRange ? sql`and s.price_range = any(${f.priceRange}::text[])` : none}
    ${f.rating !== undefined ? sql`and s.rating >= ${f.rating}` : none}
    ${f.verified !== undefined ? sql`and s.verified = ${f.verified}` : none}
    ${f.featured !== undefined ? sql`and s.featured = ${f.featured}` : none}
    ${f.geo && radius ? sql`and ${withinRadius(sql, f.geo)}` : none}`;
}

/**
 * The count inside the radius, exact, in time nearly independent of how many studios are there:
 * the circle's cover by geo cells (lib/directory/geo-cells.ts) as Morton code ranges, each an
 * index-only range scan of studios_public_geo_cell. Rows of cells wholly inside the circle count
 * as they are; rows of the cells on its edge are checked, by haversine first (plain arithmetic, a
 * metre either side of the radius) and by earth_distance, the page's own test (the costly part: its
 * ll_to_earth is not inlined), only for rows within that metre. The other filters apply to both,
 * to the rows the cells give (behind a fence: given a filter with an index of its own, a city, the
 * planner scanned that index once per cell range, 6.5 s for Boston in 25 km of Boston at a million
 * studios). Over at most cap + 1 rows, as the plain count.
 */
function geoCount(sql: Sql, f: StudioFilters, g: GeoFilter, cap: number) {
  const cover = coverCircle(g);
  const { inner, outer } = radiusBounds(g.radiusKm);
  const filtered = [f.search, f.city, f.state, f.priceRange, f.rating, f.verified, f.featured].some((v) => v !== undefined);
  const ranges = (rs: CodeRange[]) => sql`unnest(${rs.map((r) => r[0])}::bigint[], ${rs.map((r) => r[1])}::bigint[]) as r(lo, hi)`;
  const cells = (rs: CodeRange[]) =>
    filtered
      ? sql`(select s.visibility, s.record_state, s.is_active, s.search_text, s.city, s.state, s.price_range, s.rating,
            s.verified, s.featured, s.latitude, s.longitude
          from ${ranges(rs)} join studios s on geo_cell(s.latitude, s.longitude) between r.lo and r.hi
          where ${publicDirectoryWhere(sql, 's')} and s.is_active offset 0) s`
      : sql`${ranges(rs)} join studios s on geo_cell(s.latitude, s.longitude) between r.lo and r.hi`;
  const hav = sql`(sin(radians(s.latitude - ${g.latitude}) / 2) ^ 2
    + cos(radians(${g.latitude}::float8)) * cos(radians(s.latitude)) * sin(radians(s.longitude - ${g.longitude}) / 2) ^ 2)`;
  return sql<{ n: number }[]>`
    select count(*)::int as n from (
      select 1 from ${cells(cover.inside)} ${where(sql, f, false)}
      union all
      select 1 from ${cells(cover.edge)} ${where(sql, f, false)}
        and (${hav} <= ${inner}
          or (${hav} <= ${outer} and earth_distance(ll_to_earth(${g.latitude}, ${g.longitude}), ll_to_earth(s.latitude, s.longitude)) <= ${g.radiusKm * 1000}))
      limit ${cap + 1}) x`;
}

function orderBy(sql: Sql, f: StudioFilters) {
  const sorts = {
    rating: sql`s.rating`,
    name: sql`s.name`,
    review_count: sql`s.review_count`,
    created_at: sql`s.created_at`,
    // the schema refuses sort=distance without a point; fall back to rating defensively
    distance: f.geo ? distanceKmExpr(sql, f.geo) : sql`s.rating`,
  };
  // Nearest first: the GiST index hands rows out in order of its cube distance (`<->`, the chord,
  // which orders exactly as the great-circle distance does), so the page does not sort every
  // studio in the radius.
  if (f.sort === 'distance' && f.geo && f.order === 'asc')
    return sql`order by ll_to_earth(s.latitude, s.longitude) <-> ll_to_earth(${f.geo.latitude}, ${f.geo.longitude}), s.id asc`;
  return sql`order by ${sorts[f.sort]} ${direction(sql, f.order)}, s.id asc`;
}

/** The page (one row more, so hasNext is exact), every studio the filters match read through the radius's index. */
function page(sql: Sql, f: StudioFilters) {
  return sql<StudioRow[]>`
    select s.id, ${sql.unsafe(runtimeColumns(STUDIO_FIELDS, 's'))}, ${provenanceColumns(sql, 's')},
      ${f.geo ? distanceKmExpr(sql, f.geo) : sql`null::float8`} as distance_km
    from studios s
    ${where(sql, f)}
    ${orderBy(sql, f)}
    limit ${f.limit + 1} offset ${offsetOf(f)}`;
}

/**
 * The same page found by walking the first `walk` studios the other filters match, in the sort's
 * order (its index), and keeping those in the radius: a circle holding many studios yields its
 * page after a short walk, where reading the circle's index sorts every studio in it (155,826 in
 * 500 km of New York at a million studios: 2.1 s a page, 11 s from a cold cache). Exact when it
 * holds the whole page.
 */
function walkedPage(sql: Sql, f: StudioFilters, g: GeoFilter, walk: number) {
  return sql<StudioRow[]>`
    select s.id, ${sql.unsafe(runtimeColumns(STUDIO_FIELDS, 's'))}, ${provenanceColumns(sql, 's')}, ${distanceKmExpr(sql, g)} as distance_km
    from (select * from studios s ${where(sql, f, false)} ${orderBy(sql, f)} limit ${walk}) s
    where earth_distance(ll_to_earth(${g.latitude}, ${g.longitude}), ll_to_earth(s.latitude, s.longitude)) <= ${g.radiusKm * 1000}
    ${orderBy(sql, f)}
    limit ${f.limit + 1} offset ${offsetOf(f)}`;
}

/**
 * The page in a radius, sorted by other than distance, given the count `n` in the radius (exact up
 * to the cap, then cap + 1): none when the radius holds none. Walked along the sort when the radius
 * holds more than the cap (reading the circle's index would sort more than that), or when the walk
 * should find the page within half its budget (the studios in the radius are a large enough share
 * of all: pg_class's estimate); the walk is kept when it holds the whole page (a full page, or every
 * studio left in the radius). Else read through the radius's index.
 */
async function radiusPage(sql: Sql, f: StudioFilters, g: GeoFilter, n: number, cap: number) {
  if (n === 0) return [];
  const walk = f.walkRows ?? WALK_ROWS;
  const need = offsetOf(f) + f.limit + 1;
  if (walk > 0) {
    const [est] = await sql<{ rows: number }[]>`select greatest(reltuples, 0)::float8 as rows from pg_class where oid = 'studios'::regclass`;
    if (n > cap || (need * Math.max(est?.rows ?? 0, n)) / n <= walk / 2) {
      const rows = await walkedPage(sql, f, g, walk);
      if (rows.length === f.limit + 1 || (n <= cap && offsetOf(f) + rows.length === n)) return rows;
    }
  }
  return page(sql, f);
}

/**
 * The page (one row more, so hasNext is exact) and the total, counted over at most cap + 1 rows:
 * exact up to the cap, else the cap with relation `gte`, so neither the list nor the geo count
 * grows with the directory. In a radius sorted by other than distance, the count comes first: it
 * chooses how the page is found (radiusPage).
 */
export async function listStudios(sql: Sql, f: StudioFilters) {
  const cap = f.totalCap ?? TOTAL_CAP_DEFAULT;
  let rows: StudioRow[];
  let count: { n: number } | undefined;
  if (f.geo && f.sort !== 'distance') {
    [count] = await geoCount(sql, f, f.geo, cap);
    rows = await radiusPage(sql, f, f.geo, count?.n ?? 0, cap);
  } else
    [rows, [count]] = await Promise.all([
      page(sql, f),
      f.geo
        ? geoCount(sql, f, f.geo, cap)
        : sql<{ n: number }[]>`select count(*)::int as n from (select 1 from studios s ${where(sql, f)} limit ${cap + 1}) x`,
    ]);
  const n = count?.n ?? 0;
  return {
    rows: rows.slice(0, f.limit).map((r) => studioRecord(r, f.geo !== undefined)),
    total: Math.min(n, cap),
    totalRelation: (n > cap ? 'gte' : 'eq') as 'eq' | 'gte',
    hasNext: rows.length > f.limit,
  };
}

/** The public studio record (2.6), snake_case; distance_km only when a point was given. */
export function studioRecord(r: StudioRow, withDistance: boolean) {
  return {
    id: r.id,
    ...servedOf(STUDIO_FIELDS, r),
    ...(withDistance ? { distance_km: r.distanceKm === null ? null : Math.round(r.distanceKm * 1000) / 1000 } : {}),
    provenance: provenanceOf(r),
    trust: trustOf(r),
  };
}
