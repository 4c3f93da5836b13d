// The page's results: their display columns from their own tables, and the answer's shape.
import type { Sql } from '../../db';
import { provenanceColumns, provenanceOf, publicDirectoryWhere, publicMediaWhere, trustOf, type ProvenanceRow } from '../records';

export interface ResultRow extends ProvenanceRow {
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

export interface PageKey {
  type: ResultRow['type'];
  id: string;
  relevance: number;
  distance: number | null;
  city: string | null;
  state: string | null;
  country: string | null;
}

/** Description, provenance and trust of the page's rows, from their own tables by primary key. */
export async function displayRows(sql: Sql, keys: PageKey[]) {
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

/** The page's results in the order of its keys (a row changed out of view meanwhile drops out). */
export async function pageResults(sql: Sql, keys: PageKey[], withDistance: boolean) {
  const rows = keys.length ? await displayRows(sql, keys) : [];
  const byKey = new Map(rows.map((r) => [`${r.type}:${r.id}`, r]));
  return keys.flatMap((k) => {
    const r = byKey.get(`${k.type}:${k.id}`);
    return r ? [searchResult({ ...r, city: k.city, state: k.state, country: k.country, relevanceScore: k.relevance, distanceKm: k.distance }, withDistance)] : [];
  });
}
