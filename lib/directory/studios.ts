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
}

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
 * ll_to_earth is not inlined), only for rows within that metre. The other filters apply to both.
 * Over at most cap + 1 rows, as the plain count.
 */
function geoCount(sql: Sql, f: StudioFilters, g: GeoFilter, cap: number) {
  const cover = coverCircle(g);
  const { inner, outer } = radiusBounds(g.radiusKm);
  const cells = (ranges: CodeRange[]) =>
    sql`unnest(${ranges.map((r) => r[0])}::bigint[], ${ranges.map((r) => r[1])}::bigint[]) as r(lo, hi)
      join studios s on geo_cell(s.latitude, s.longitude) between r.lo and r.hi`;
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

/**
 * The page (one row more, so hasNext is exact) and the total, counted over at most cap + 1 rows:
 * exact up to the cap, else the cap with relation `gte`, so neither the list nor the geo count
 * grows with the directory.
 */
export async function listStudios(sql: Sql, f: StudioFilters) {
  const cap = f.totalCap ?? TOTAL_CAP_DEFAULT;
  const [rows, [count]] = await Promise.all([
    sql<StudioRow[]>`
      select s.id, ${sql.unsafe(runtimeColumns(STUDIO_FIELDS, 's'))}, ${provenanceColumns(sql, 's')},
        ${f.geo ? distanceKmExpr(sql, f.geo) : sql`null::float8`} as distance_km
      from studios s
      ${where(sql, f)}
      ${orderBy(sql, f)}
      limit ${f.limit + 1} offset ${offsetOf(f)}`,
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
