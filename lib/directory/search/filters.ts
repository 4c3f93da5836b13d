// What a search matches: its filters, and the WHERE they become over search_documents.
import type { Sql } from '../../db';
import { type GeoFilter, type Page } from '../params';
import { type Direction } from '../records';
import { distanceKmExpr } from '../studios';

export const SEARCH_TYPES = ['artist', 'studio', 'design', 'all'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const SEARCH_SORTS = ['relevance', 'rating', 'review_count', 'name', 'created_at', 'distance'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

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
  /** At most this many documents walked in rating order for a page in a radius (default WALK_ROWS; 0: never). */
  walkRows?: number | undefined;
}

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

export type Alias = 'd' | 't' | 'm' | 'r';

/** The match: the text query and every filter, over search_documents `alias`. */
export function matchWhere(sql: Sql, f: SearchFilters, tsq: string | null, alias: Alias) {
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

