// GET /search answered by OpenSearch: the same answer as lib/directory/search (the envelope, the
// bounded total and its relation, the corrections, the facets), read from the engine's index of
// search_documents. Three reads of PostgreSQL stay, each by key: q's words in the word dictionary
// (typo tolerance: the same corrections as the PostgreSQL backend), and the page's rows (their
// description, provenance and trust, the visibility checked again) by primary key.
import type { Sql } from '../db';
import { offsetOf } from '../directory/params';
import { pageResults, textQuery, type PageKey, type SearchFilters, type TotalRelation } from '../directory/search';
import type { FacetCount, SearchFacets } from '../directory/search/facets';
import { TOTAL_CAP_DEFAULT } from '../directory/studios';
import { call, EngineUnavailable, type EngineConfig } from './client';
import { distanceKm, relevanceOf, searchRequest } from './query';

interface Hit {
  _score: number | null;
  _source: { type: PageKey['type']; id: string; city: string | null; state: string | null; country: string | null; latitude: number | null; longitude: number | null };
}
interface Bucket {
  key: string | number;
  key_as_string?: string;
  doc_count: number;
}
interface SearchBody {
  hits: { total: { value: number; relation: 'eq' | 'gte' }; hits: Hit[] };
  aggregations?: Record<keyof SearchFacets, { buckets: Bucket[] }>;
}

function facetsOf(aggs: NonNullable<SearchBody['aggregations']>): SearchFacets {
  const list = (k: keyof SearchFacets): FacetCount[] => aggs[k].buckets.map((b) => ({ value: String(b.key), count: b.doc_count }));
  return {
    types: list('types'),
    cities: list('cities'),
    states: list('states'),
    countries: list('countries'),
    styles: list('styles'),
    specialties: list('specialties'),
    verified: aggs.verified.buckets.map((b) => ({ value: b.key === 1 || b.key_as_string === 'true', count: b.doc_count })),
  };
}

export async function searchEngine(sql: Sql, e: EngineConfig, f: SearchFilters) {
  const cap = f.totalCap ?? TOTAL_CAP_DEFAULT;
  const text = f.q ? await textQuery(sql, f.q) : undefined;
  const offset = offsetOf(f);
  const r = await call<SearchBody>(e, 'POST', `/${e.alias}/_search`, searchRequest(f, text ? (text.tsquery ? text.words : null) : null, offset, cap));
  if (r.status !== 200) {
    // a missing alias (no index yet) is the engine not being able to answer, like a refused connection
    if (r.status === 404) throw new EngineUnavailable(`OpenSearch has no index behind ${e.alias}`);
    throw new EngineUnavailable(`OpenSearch search: ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
  }
  const hits = r.body.hits.hits;
  const keys: PageKey[] = hits.slice(0, f.limit).map((h) => {
    const s = h._source;
    const distance = f.geo && s.latitude !== null && s.longitude !== null ? distanceKm(f.geo.latitude, f.geo.longitude, s.latitude, s.longitude) : null;
    return { type: s.type, id: s.id, relevance: relevanceOf(h._score, Boolean(f.q)), distance, city: s.city, state: s.state, country: s.country };
  });
  const matched = r.body.hits.total.value;
  return {
    results: await pageResults(sql, keys, f.geo !== undefined),
    total: Math.min(matched, cap),
    totalRelation: (matched > cap ? 'gte' : 'eq') as TotalRelation,
    hasNext: hits.length > f.limit,
    corrections: text?.corrections ?? [],
    ...(text?.correctedQuery ? { correctedQuery: text.correctedQuery } : {}),
    ...(f.includeFacets && r.body.aggregations ? { facets: facetsOf(r.body.aggregations) } : {}),
  };
}
