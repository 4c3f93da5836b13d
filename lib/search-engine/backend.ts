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
import { distanceKm, HIT_FIELDS, relevanceOf, searchRequests } from './query';

interface Hit {
  _score: number | null;
  /** HIT_FIELDS from doc values, each a list of one value; absent when the document has none. */
  fields?: Partial<Record<(typeof HIT_FIELDS)[number], (string | number)[]>>;
}
interface Bucket {
  key: string | number;
  key_as_string?: string;
  doc_count: number;
}
interface SearchBody {
  /** filter_path leaves out what is empty: no hits, no count (the page of a search with facets). */
  hits?: { total?: { value: number; relation: 'eq' | 'gte' }; hits?: Hit[] };
  aggregations?: Record<keyof SearchFacets, { buckets: Bucket[] }>;
}
type Answer = { status: number; body: SearchBody };

/** Only what is read back: less JSON for the node to write and for this process to parse. */
const SEARCH_FILTER = 'filter_path=hits.total,hits.hits._score,hits.hits.fields,aggregations.*.buckets,error,status';
const MSEARCH_FILTER = SEARCH_FILTER.replace(/(^filter_path=|,)/g, '$1responses.');

/** The page request, and the count-and-facets request when there are facets: one call either way. */
async function send(e: EngineConfig, reqs: ReturnType<typeof searchRequests>): Promise<{ page: Answer; counts: Answer }> {
  if (!reqs.counts) {
    const r = await call<SearchBody>(e, 'POST', `/${e.alias}/_search?${SEARCH_FILTER}`, reqs.page);
    return { page: r, counts: r };
  }
  // no request_cache flag: a size-0 search is cached by default, and an index that turns the cache off keeps it off
  const ndjson = [{}, reqs.page, {}, reqs.counts].map((l) => JSON.stringify(l)).join('\n') + '\n';
  const r = await call<{ responses?: (SearchBody & { status: number })[] }>(e, 'POST', `/${e.alias}/_msearch?${MSEARCH_FILTER}`, ndjson);
  const [page, counts] = r.body.responses ?? [];
  if (r.status !== 200 || !page || !counts) {
    const whole = { status: r.status === 200 ? 500 : r.status, body: r.body as unknown as SearchBody };
    return { page: whole, counts: whole };
  }
  return { page: { status: page.status, body: page }, counts: { status: counts.status, body: counts } };
}

function failed(r: Answer): EngineUnavailable | undefined {
  if (r.status === 200) return undefined;
  // a missing alias (no index yet) is the engine not being able to answer, like a refused connection
  if (r.status === 404) return new EngineUnavailable('OpenSearch has no index behind the alias');
  return new EngineUnavailable(`OpenSearch search: ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
}

const one = <V>(h: Hit, k: (typeof HIT_FIELDS)[number]) => (h.fields?.[k]?.[0] ?? null) as V | null;

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
  const { page, counts } = await send(e, searchRequests(f, text ? (text.tsquery ? text.words : null) : null, offset, cap));
  const err = failed(page) ?? failed(counts);
  if (err) throw err;
  const hits = page.body.hits?.hits ?? [];
  const keys: PageKey[] = hits.slice(0, f.limit).map((h) => {
    const [latitude, longitude] = [one<number>(h, 'latitude'), one<number>(h, 'longitude')];
    const distance = f.geo && latitude !== null && longitude !== null ? distanceKm(f.geo.latitude, f.geo.longitude, latitude, longitude) : null;
    return {
      type: one<PageKey['type']>(h, 'type')!, id: one<string>(h, 'id')!, relevance: relevanceOf(h._score, Boolean(f.q)), distance,
      city: one<string>(h, 'city'), state: one<string>(h, 'state'), country: one<string>(h, 'country'),
    };
  });
  const matched = counts.body.hits?.total?.value ?? 0;
  const aggregations = counts.body.aggregations;
  return {
    results: await pageResults(sql, keys, f.geo !== undefined),
    total: Math.min(matched, cap),
    totalRelation: (matched > cap ? 'gte' : 'eq') as TotalRelation,
    hasNext: hits.length > f.limit,
    corrections: text?.corrections ?? [],
    ...(text?.correctedQuery ? { correctedQuery: text.correctedQuery } : {}),
    ...(f.includeFacets && aggregations ? { facets: facetsOf(aggregations) } : {}),
  };
}
