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
import { boundRequests, countRequest, distanceKm, relevanceOf, scoreOnlyRequest, searchRequests, TIE_FIELDS } from './query';
import { exactTop, MAX_K, WINDOW } from './ties';

interface Hit {
  _score: number | null;
  /** HIT_FIELDS (TIE_FIELDS in a relevance page's steps) from doc values, each a list of one value; absent when the document has none. */
  fields?: Partial<Record<(typeof TIE_FIELDS)[number], (string | number)[]>>;
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

/** Searches in one call: a _search for one, an _msearch for several; an answer per search, in order. */
async function sendAll(e: EngineConfig, bodies: object[]): Promise<Answer[]> {
  if (bodies.length === 1) return [await call<SearchBody>(e, 'POST', `/${e.alias}/_search?${SEARCH_FILTER}`, bodies[0])];
  // no request_cache flag: a size-0 search is cached by default, and an index that turns the cache off keeps it off
  const ndjson = bodies.flatMap((b) => [{}, b]).map((l) => JSON.stringify(l)).join('\n') + '\n';
  const r = await call<{ responses?: (SearchBody & { status: number })[] }>(e, 'POST', `/${e.alias}/_msearch?${MSEARCH_FILTER}`, ndjson);
  const answers = r.body.responses ?? [];
  if (r.status !== 200 || answers.length !== bodies.length) {
    const whole = { status: r.status === 200 ? 500 : r.status, body: r.body as unknown as SearchBody };
    return bodies.map(() => whole);
  }
  return answers.map((a) => ({ status: a.status, body: a }));
}

/** sendAll, every answer a 200; else the engine could not answer. */
async function sendOk(e: EngineConfig, bodies: object[]): Promise<Answer[]> {
  const answers = await sendAll(e, bodies);
  const r = answers.find((a) => a.status !== 200);
  if (!r) return answers;
  // a missing alias (no index yet) is the engine not being able to answer, like a refused connection
  if (r.status === 404) throw new EngineUnavailable('OpenSearch has no index behind the alias');
  throw new EngineUnavailable(`OpenSearch search: ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
}

const one = <V>(h: Hit, k: (typeof TIE_FIELDS)[number]) => (h.fields?.[k]?.[0] ?? null) as V | null;

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

/** Hits to rows of a relevance page's steps (ties.ts). */
const tieRows = (a: Answer) =>
  (a.body.hits?.hits ?? []).map((hit) => ({ hit, score: hit._score ?? 0, quality: Number(one<number>(hit, 'quality') ?? 0), type: one<string>(hit, 'type') ?? '', id: one<string>(hit, 'id') ?? '' }));

/**
 * The page's hits (from the offset, one past the limit) and the answer holding the count and facets.
 * A relevance page within MAX_K rows is found by score alone and its ties settled (ties.ts);
 * otherwise, or when that does not settle, the page is sorted in full by the engine.
 */
export async function enginePage(e: EngineConfig, reqs: ReturnType<typeof searchRequests>, k: number, byScore: boolean, window = WINDOW): Promise<{ hits: Hit[]; counts: Answer }> {
  const whole = async (withCounts = true) => {
    const answers = await sendOk(e, reqs.counts && withCounts ? [reqs.page, reqs.counts] : [reqs.page]);
    return { hits: answers[0]!.body.hits?.hits ?? [], counts: answers.at(-1)! };
  };
  if (!byScore || k > MAX_K) return whole();
  const first = await sendOk(e, [scoreOnlyRequest(reqs.page, k), reqs.counts ?? countRequest(reqs.page)]);
  const top = await exactTop(tieRows(first[0]!), k, async (b) => {
    const answers = await sendOk(e, boundRequests(reqs.page.query, b));
    return [tieRows(answers[0]!), tieRows(answers[1]!)];
  }, window);
  if (!top) return { hits: (await whole(false)).hits, counts: first.at(-1)! };
  return { hits: top.slice(reqs.page.from).map((r) => r.hit), counts: first.at(-1)! };
}

export async function searchEngine(sql: Sql, e: EngineConfig, f: SearchFilters) {
  const cap = f.totalCap ?? TOTAL_CAP_DEFAULT;
  const text = f.q ? await textQuery(sql, f.q) : undefined;
  const offset = offsetOf(f);
  const words = text ? (text.tsquery ? text.words : null) : null;
  const byScore = f.sortBy === 'relevance' && words !== null && words.length > 0;
  const { hits, counts } = await enginePage(e, searchRequests(f, words, offset, cap), offset + f.limit + 1, byScore);
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
