// A search (lib/directory/search/filters.ts SearchFilters) as an OpenSearch request: the same
// matches, the same sort keys and tie-breaks, the bounded total, the facets.
import type { SearchFilters } from '../directory/search/filters';
import { FACET_TOP } from '../directory/search/facets';
import type { BoundSearch } from './ties';

/**
 * PostgreSQL's earthdistance measures on a sphere of 6,378.168 km, OpenSearch's arc on one of
 * 6,371.0088 km: a radius is handed to the engine scaled by their ratio, so both keep the same
 * points (the same angle), and distances are reported on PostgreSQL's sphere.
 */
const PG_EARTH_KM = 6378.168;
const OS_EARTH_KM = 6371.0087714;

/** Great-circle distance in km on earthdistance's sphere (what the PostgreSQL backend reports). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * PG_EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The tsvector weights' ranks as ts_rank uses them by default (A 1.0, B 0.4, C 0.2, D 0.1). */
const FIELD_BOOST = { w_a: 1.0, w_b: 0.4, w_c: 0.2, w_d: 0.1 } as const;

function filterClauses(f: SearchFilters): object[] {
  const out: object[] = [];
  if (f.type !== 'all') out.push({ term: { type: f.type } });
  if (f.city) out.push({ term: { city: f.city } });
  if (f.state) out.push({ term: { state: f.state } });
  if (f.country) out.push({ term: { country: f.country } });
  if (f.geo) out.push({ geo_distance: { distance: `${(f.geo.radiusKm * OS_EARTH_KM) / PG_EARTH_KM}km`, distance_type: 'arc', location: { lat: f.geo.latitude, lon: f.geo.longitude } } });
  if (f.styles) out.push({ terms: { styles: f.styles } });
  if (f.specialties) out.push({ terms: { specialties: f.specialties } });
  if (f.minRating !== undefined) out.push({ range: { rating: { gte: f.minRating } } });
  if (f.verifiedOnly) out.push({ term: { verified: true } });
  return out;
}

/** Every word in some field (as the tsquery's AND does), each scored by its best field. */
function textClauses(words: string[]): object[] {
  return words.map((w) => ({ dis_max: { queries: Object.entries(FIELD_BOOST).map(([field, boost]) => ({ term: { [field]: { value: w, boost } } })) } }));
}

const TIE = [{ type: { order: 'asc' } }, { id: { order: 'asc' } }];

function sortOf(f: SearchFilters, byScore: boolean): object[] {
  if (byScore) return [{ _score: { order: 'desc' } }, { quality: { order: 'desc' } }, ...TIE];
  const order = f.sortOrder;
  const by = f.sortBy === 'relevance' ? 'rating' : f.sortBy;
  const key: Record<Exclude<typeof by, 'relevance'>, object> = {
    rating: { rating: { order, missing: '_last' } },
    review_count: { review_count: { order } },
    name: { name: { order } },
    created_at: { created_us: { order } },
    distance: f.geo
      ? { _geo_distance: { location: { lat: f.geo.latitude, lon: f.geo.longitude }, order, unit: 'km', distance_type: 'arc' } }
      : { rating: { order: 'desc', missing: '_last' } },
  };
  return [key[by], ...TIE];
}

const terms = (field: string, extra: object = {}) => ({ terms: { field, size: FACET_TOP, shard_size: FACET_TOP * 10, order: [{ _count: 'desc' }, { _key: 'asc' }], ...extra } });

/** What a hit carries (`fields`, each a list of one value; absent when the document has none). */
export const HIT_FIELDS = ['type', 'id', 'city', 'state', 'country', 'latitude', 'longitude'] as const;

/**
 * The request: `words` are q's words as PostgreSQL's dictionary resolved them (corrections
 * applied); null: q has no words (no match, as in PostgreSQL). Without q every document of the
 * filters matches. One row more than the page, so has_next is known; the total is tracked to cap + 1.
 */
export function searchRequest(f: SearchFilters, words: string[] | null, offset: number, cap: number) {
  const byScore = f.sortBy === 'relevance' && Boolean(f.q);
  const must = f.q ? (words && words.length ? textClauses(words) : [{ match_none: {} }]) : [];
  return {
    from: offset,
    size: f.limit + 1,
    track_total_hits: cap + 1,
    track_scores: Boolean(f.q),
    // the page's keys from doc values: no stored document is read, decompressed and parsed per hit
    stored_fields: '_none_',
    docvalue_fields: [...HIT_FIELDS],
    query: { bool: { must, filter: filterClauses(f) } },
    sort: sortOf(f, byScore),
    ...(f.includeFacets
      ? {
          aggs: {
            types: terms('type'),
            cities: terms('city', { exclude: [''] }),
            states: terms('state', { exclude: [''] }),
            countries: terms('country', { exclude: [''] }),
            styles: terms('styles'),
            specialties: terms('specialties'),
            verified: { terms: { field: 'verified', size: 2, order: { _key: 'desc' } } },
          },
        }
      : {}),
  };
}

/** relevance_score from the engine's score: 0..1 (score / (score + 1)), 4 decimals; 0 without q. */
export const relevanceOf = (score: number | null | undefined, hasText: boolean) =>
  hasText && typeof score === 'number' && Number.isFinite(score) ? Math.round((score / (score + 1)) * 10_000) / 10_000 : 0;

/**
 * What is sent for a search. Without facets: searchRequest, one _search. With facets: two searches
 * in one _msearch, because the facets need every match and the page does not: `page` is the request
 * without its aggregations and without a count (the engine can stop scoring documents that can no
 * longer reach the page), `counts` the bounded count and the facets with the query in filter context
 * (nothing scored) and no hits, which OpenSearch's shard request cache keeps until the index next
 * changes (a repeated q and filters is then answered from it). The total and the facets come from
 * `counts`, the page and has_next from `page`.
 */
export function searchRequests(f: SearchFilters, words: string[] | null, offset: number, cap: number) {
  const { aggs, ...page } = searchRequest(f, words, offset, cap);
  if (!aggs) return { page };
  return { page: { ...page, track_total_hits: false }, counts: { ...countRequest(page), aggs } };
}

/** What a step of a relevance page (ties.ts) reads per row: the hit's keys and the tie-break's. */
export const TIE_FIELDS = [...HIT_FIELDS, 'quality'] as const;

/**
 * Step 1 of a relevance page (ties.ts): the top k by score alone, in the engine's own order for
 * ties and without a count, so it can skip what cannot reach the page from its first match.
 */
export function scoreOnlyRequest(page: { query: ReturnType<typeof searchRequest>['query'] }, k: number) {
  return { size: k, track_total_hits: false, stored_fields: '_none_', docvalue_fields: [...TIE_FIELDS], query: page.query };
}

/**
 * The bounded count alone, the query as a filter (nothing scored), for a relevance page without
 * facets: sent beside step 1 as the facets' search is, and kept by the shard request cache alike.
 */
export function countRequest(page: { track_total_hits: number | boolean; query: ReturnType<typeof searchRequest>['query'] }) {
  const { must, filter } = page.query.bool;
  return { size: 0, track_total_hits: page.track_total_hits, query: { bool: { filter: [...must, ...filter] } } };
}

/** Step 2 (ties.ts): quality above the bound by score alone, and quality at the bound by score, type and id. */
export function boundRequests(query: ReturnType<typeof searchRequest>['query'], b: BoundSearch) {
  const within = (clause: object) => ({ bool: { must: [query], filter: [clause] } });
  const rows = { track_total_hits: false, stored_fields: '_none_', docvalue_fields: [...TIE_FIELDS] };
  return [
    { ...rows, size: b.above.size, query: within({ range: { quality: { gt: b.above.quality } } }) },
    { ...rows, size: b.at.size, track_scores: true, query: within({ term: { quality: b.at.quality } }), sort: [{ _score: { order: 'desc' } }, ...TIE] },
  ];
}
