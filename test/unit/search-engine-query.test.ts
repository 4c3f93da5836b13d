// The OpenSearch request a search becomes, and the document a search_documents row becomes
// (lib/search-engine/query.ts, documents.ts): the pure parts the parity suite relies on.
import { describe, expect, it } from 'vitest';
import { boundRequests, countRequest, distanceKm, HIT_FIELDS, relevanceOf, scoreOnlyRequest, searchRequest, searchRequests } from '../../lib/search-engine/query';
import { toDocument, type DocumentRow } from '../../lib/search-engine/documents';
import type { SearchFilters } from '../../lib/directory/search';

const base: SearchFilters = { page: 1, limit: 20, type: 'all', verifiedOnly: false, sortBy: 'rating', sortOrder: 'desc', includeFacets: false };
const TIE = [{ type: { order: 'asc' } }, { id: { order: 'asc' } }];

describe('searchRequest', () => {
  it('asks for one row past the page at the page offset, and counts to cap + 1', () => {
    const r = searchRequest({ ...base, page: 3, limit: 7 }, null, 14, 150);
    expect(r).toMatchObject({ from: 14, size: 8, track_total_hits: 151, track_scores: false });
  });

  it('every word must match in some field (name 1.0, B 0.4, C 0.2, D 0.1); q without words matches nothing', () => {
    const r = searchRequest({ ...base, q: 'iron koi', sortBy: 'relevance' }, ['iron', 'koi'], 0, 100);
    expect(r.query.bool.must).toHaveLength(2);
    expect(r.query.bool.must[0]).toEqual({ dis_max: { queries: [
      { term: { w_a: { value: 'iron', boost: 1 } } }, { term: { w_b: { value: 'iron', boost: 0.4 } } },
      { term: { w_c: { value: 'iron', boost: 0.2 } } }, { term: { w_d: { value: 'iron', boost: 0.1 } } },
    ] } });
    expect(r.sort).toEqual([{ _score: { order: 'desc' } }, { quality: { order: 'desc' } }, ...TIE]);
    expect(searchRequest({ ...base, q: '!!!' }, null, 0, 100).query.bool.must).toEqual([{ match_none: {} }]);
    expect(searchRequest(base, null, 0, 100).query.bool.must).toEqual([]);
  });

  it('keeps PostgreSQL\'s orders: no rating last both ways, name, created_at in microseconds, distance, ties by type and id', () => {
    expect(searchRequest({ ...base, sortOrder: 'asc' }, null, 0, 1).sort).toEqual([{ rating: { order: 'asc', missing: '_last' } }, ...TIE]);
    expect(searchRequest({ ...base, sortBy: 'name', sortOrder: 'desc' }, null, 0, 1).sort).toEqual([{ name: { order: 'desc' } }, ...TIE]);
    expect(searchRequest({ ...base, sortBy: 'created_at', sortOrder: 'asc' }, null, 0, 1).sort).toEqual([{ created_us: { order: 'asc' } }, ...TIE]);
    const geo = { latitude: 10, longitude: 20, radiusKm: 50 };
    expect(searchRequest({ ...base, geo, sortBy: 'distance', sortOrder: 'asc' }, null, 0, 1).sort[0]).toEqual({ _geo_distance: { location: { lat: 10, lon: 20 }, order: 'asc', unit: 'km', distance_type: 'arc' } });
    // relevance without q is best rated first, as in PostgreSQL
    expect(searchRequest({ ...base, sortBy: 'relevance' }, null, 0, 1).sort).toEqual([{ rating: { order: 'desc', missing: '_last' } }, ...TIE]);
  });

  it('turns every filter into a clause, the radius scaled from earthdistance\'s sphere to the engine\'s', () => {
    const f: SearchFilters = { ...base, type: 'studio', city: 'Austin', state: 'TX', country: 'US', geo: { latitude: 1, longitude: 2, radiusKm: 100 }, styles: ['koi'], specialties: ['flash'], minRating: 4, verifiedOnly: true };
    const clauses = searchRequest(f, null, 0, 1).query.bool.filter as Record<string, any>[];
    expect(clauses).toContainEqual({ term: { type: 'studio' } });
    expect(clauses).toContainEqual({ terms: { styles: ['koi'] } });
    expect(clauses).toContainEqual({ range: { rating: { gte: 4 } } });
    expect(clauses).toContainEqual({ term: { verified: true } });
    const geo = clauses.find((c) => c.geo_distance)!.geo_distance;
    expect(parseFloat(geo.distance)).toBeCloseTo((100 * 6371.0087714) / 6378.168, 9);
    expect(clauses).toHaveLength(9);
  });

  it('facets: top 20 by count then value, empty strings left out, verified true first', () => {
    const aggs = searchRequest({ ...base, includeFacets: true }, null, 0, 1).aggs!;
    expect(Object.keys(aggs).sort()).toEqual(['cities', 'countries', 'specialties', 'states', 'styles', 'types', 'verified']);
    expect(aggs.cities.terms).toMatchObject({ field: 'city', size: 20, order: [{ _count: 'desc' }, { _key: 'asc' }], exclude: [''] });
    expect(aggs.verified.terms.order).toEqual({ _key: 'desc' });
  });
});

describe('searchRequests', () => {
  it('without facets: the one request, its keys from doc values (no stored document read)', () => {
    const f = { ...base, q: 'koi', sortBy: 'relevance' as const };
    const r = searchRequests(f, ['koi'], 0, 100);
    expect(r).toEqual({ page: searchRequest(f, ['koi'], 0, 100) });
    expect(r.page).toMatchObject({ stored_fields: '_none_', docvalue_fields: [...HIT_FIELDS] });
    expect(r.page).not.toHaveProperty('_source');
  });

  it('with facets: the page without aggregations or count, and the count to cap + 1 with the facets over the same matches, unscored', () => {
    const f: SearchFilters = { ...base, q: 'iron koi', sortBy: 'relevance', city: 'Austin', includeFacets: true };
    const whole = searchRequest(f, ['iron', 'koi'], 20, 150);
    const { page, counts } = searchRequests(f, ['iron', 'koi'], 20, 150);
    const { aggs, ...rest } = whole;
    expect(page).toEqual({ ...rest, track_total_hits: false });
    expect(counts).toEqual({ size: 0, track_total_hits: 151, query: { bool: { filter: [...whole.query.bool.must, ...whole.query.bool.filter] } }, aggs });
    // q without words matches nothing in the count either
    expect(searchRequests({ ...f, q: '!!!' }, null, 0, 150).counts!.query.bool.filter).toContainEqual({ match_none: {} });
  });
});

describe('a relevance page\'s steps (ties.ts)', () => {
  const f: SearchFilters = { ...base, q: 'koi', sortBy: 'relevance', city: 'Austin' };
  const { page } = searchRequests(f, ['koi'], 40, 150);

  it('step 1: the top k from the first row, by score alone (no sort, no count: the engine can skip from the first match), the tie-break keys; the count beside it, unscored', () => {
    const r = scoreOnlyRequest(page, 61);
    expect(r).toEqual({ size: 61, track_total_hits: false, stored_fields: '_none_', docvalue_fields: [...HIT_FIELDS, 'quality'], query: page.query });
    expect(r).not.toHaveProperty('sort');
    expect(r).not.toHaveProperty('from');
    expect(countRequest(page)).toEqual({ size: 0, track_total_hits: 151, query: { bool: { filter: [...page.query.bool.must, ...page.query.bool.filter] } } });
    // with facets, their search is the count: the same shape, the aggregations added
    const { counts } = searchRequests({ ...f, includeFacets: true }, ['koi'], 40, 150);
    expect({ ...counts, aggs: undefined }).toEqual({ ...countRequest(page), aggs: undefined });
  });

  it('step 2: above the bound by score alone, at the bound by score, type and id; both within the same query and filters', () => {
    const [above, at] = boundRequests(page.query, { above: { quality: 0.585, size: 52 }, at: { quality: 0.585, size: 41 } });
    expect(above).toMatchObject({ size: 52, track_total_hits: false, query: { bool: { must: [page.query], filter: [{ range: { quality: { gt: 0.585 } } }] } } });
    expect(above).not.toHaveProperty('sort');
    expect(at).toMatchObject({ size: 41, track_scores: true, query: { bool: { must: [page.query], filter: [{ term: { quality: 0.585 } }] } } });
    expect(at).toHaveProperty('sort', [{ _score: { order: 'desc' } }, ...TIE]);
    for (const r of [above, at]) expect(r!.docvalue_fields).toEqual([...HIT_FIELDS, 'quality']);
  });
});

describe('distanceKm and relevanceOf', () => {
  it('measures on earthdistance\'s sphere (6378.168 km): one degree of latitude is 111.32 km', () => {
    expect(distanceKm(10, 20, 11, 20)).toBeCloseTo((6378.168 * Math.PI) / 180, 6);
    expect(distanceKm(10, 20, 10, 20)).toBe(0);
    expect(distanceKm(0, 0, 0, 180)).toBeCloseTo(6378.168 * Math.PI, 6);
  });
  it('scores 0..1 as score / (score + 1), 4 decimals; 0 without q', () => {
    expect(relevanceOf(3, true)).toBe(0.75);
    expect(relevanceOf(1.23456, true)).toBe(0.5525);
    expect(relevanceOf(3, false)).toBe(0);
    expect(relevanceOf(null, true)).toBe(0);
  });
});

describe('toDocument', () => {
  const row: DocumentRow = {
    type: 'studio', id: 's1', name: 'Iron Koi', city: 'Austin', state: 'TX', country: 'US', latitude: 30.2, longitude: -97.7,
    styles: ['koi'], specialties: [], rating: null, reviewCount: 0, verified: false, quality: 0.5, createdUs: '1700000000123456', version: '42',
    lexemes: [['iron', ['A']], ['koi', ['A', 'C', 'C']], ['austin', ['B']], ['bare', null]],
  };
  it('puts each lexeme in its weight\'s field once per position (term frequency), a position-less one as D', () => {
    const d = toDocument(row);
    expect(d.w_a).toEqual(['iron', 'koi']);
    expect(d.w_b).toEqual(['austin']);
    expect(d.w_c).toEqual(['koi', 'koi']);
    expect(d.w_d).toEqual(['bare']);
    expect(d).toMatchObject({ version: 42, created_us: 1700000000123456, location: { lat: 30.2, lon: -97.7 }, rating: null });
  });
  it('has no location without coordinates (the radius never matches it)', () => {
    expect(toDocument({ ...row, latitude: null, longitude: null })).not.toHaveProperty('location');
  });
});
