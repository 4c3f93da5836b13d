// The same /search from both backends (issue 45): one seeded directory, one PostgreSQL-only API
// and one SEARCH_BACKEND=opensearch API on the same database, a real OpenSearch node fed by the
// second API's indexer. Every query of the fixed set must give the same answer: the same ids in
// the same order, the same totals and relation, the same pagination, corrections and facets, and
// the same result bodies. The one thing promised differently (docs/read-clients.md, "Search
// backends"): relevance_score, and so the order of a relevance-sorted page, is each backend's own
// (PostgreSQL: ts_rank_cd + name similarity + quality over its rescore window; OpenSearch: BM25);
// for those queries the suite compares the matches as a set, the totals, and that the engine's
// order follows its own score with the promised tie-break (quality, type, id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { call, seedTestDirectory } from '../helpers/directory-seed';
import { caughtUp, engineOf, OPENSEARCH_RUNS, startTestOpenSearch } from '../helpers/opensearch';
import { startTestStack, type TestStack } from '../helpers/stack';
import type { OpenSearchNode } from '../../scripts/tools/opensearch-node';

const CAP = '150';
let node: OpenSearchNode;
let pg: TestStack;
let os: TestStack;
let reader: TestCredential;

beforeAll(async () => {
  if (!OPENSEARCH_RUNS) return;
  node = await startTestOpenSearch();
  pg = await startTestStack({ worker: false, env: { SEARCH_TOTAL_CAP: CAP } });
  await seedTestDirectory(pg);
  os = await startTestStack({
    worker: false,
    databaseUrl: pg.cfg.DATABASE_URL!,
    env: { SEARCH_TOTAL_CAP: CAP, SEARCH_BACKEND: 'opensearch', SEARCH_OPENSEARCH_URL: node.url },
  });
  reader = await apiKeyActor(pg, { permissions: ['search:read'] });
  await caughtUp(os, engineOf(node.url));
}, 240_000);
afterAll(async () => {
  await os?.stop();
  await pg?.stop();
  await node?.stop();
});

const both = async (qs: string) => {
  const [a, b] = await Promise.all([call(pg, `/search?${qs}`, { headers: reader.headers }), call(os, `/search?${qs}`, { headers: reader.headers })]);
  expect(a.status, `${qs}: postgres`).toBe(200);
  expect(b.status, `${qs}: opensearch ${JSON.stringify(b.body)}`).toBe(200);
  expect(b.headers.get('x-search-backend'), qs).toBe('opensearch');
  expect(a.headers.get('x-search-backend'), qs).toBeNull();
  return { pgBody: a.body.data, osBody: b.body.data };
};
const withoutScore = (d: any) => ({ ...d, results: d.results.map(({ relevance_score: _, ...r }: any) => r) });

// Every parameter with a non-relevance order: identical answers, order included.
const EXACT = [
  '',
  'limit=50&page=2',
  'type=studio&sort_by=name',
  'type=studio&sort_by=name&sort_order=desc&page=3&limit=7',
  'sort_by=review_count&limit=50',
  'sort_by=created_at&sort_order=asc&limit=50&page=2',
  'type=artist&sort_by=rating&sort_order=asc&limit=50',
  'type=design&sort_by=created_at&limit=50',
  'city=Geoville',
  'latitude=10&longitude=20&radius=20',
  'latitude=10&longitude=20&radius=50&sort_by=distance&sort_order=desc',
  'latitude=10&longitude=20&radius=50&sort_by=rating',
  'latitude=10&longitude=20&radius=9.5&sort_by=name',
  'styles=japanese,realism&sort_by=name&limit=50',
  'specialties=custom_design,walk_ins&sort_by=review_count&limit=50',
  'min_rating=4.5&sort_by=rating&limit=50',
  'verified_only=true&type=studio&sort_by=name&limit=50',
  'country=ZZ&sort_by=name',
  'state=FX&include_facets=true&sort_by=name',
  'type=design&include_facets=true&sort_by=name&limit=50',
  'type=studio&city=Geoville&include_facets=true&sort_by=review_count',
  'q=tattoo&sort_by=name&limit=50',
  'q=tattoo&sort_by=rating&page=2&limit=50',
  'q=koi&sort_by=created_at&include_facets=true&limit=50',
  'q=fixture&sort_by=name&include_facets=true&limit=50',
  'q=Geoville&sort_by=distance&latitude=10&longitude=20&radius=100',
  'q=fixtre&sort_by=name&limit=50',
  'q=zzzqqqxx',
  'q=%21%21%21',
  'sort_by=name&limit=50&page=30',
];

// Relevance order: the backend's own; the matches, totals, corrections and facets are not.
const RELEVANCE = ['q=fixture&limit=50', 'q=koi&type=design&limit=50', 'q=iron+anchor&limit=50', 'q=japanese&limit=50&include_facets=true', 'q=tattoo', 'q=fixtre&limit=50'];

describe.skipIf(!OPENSEARCH_RUNS)('GET /search parity: PostgreSQL and OpenSearch', () => {
  it('the corpus is big enough to bound totals at the cap (relation gte) and small enough to be exact under it', async () => {
    const { pgBody, osBody } = await both('');
    expect(pgBody.total_relation).toBe('gte');
    expect(osBody.total).toBe(Number(CAP));
    expect((await both('city=Geoville')).osBody.total_relation).toBe('eq');
  });

  it.each(EXACT)('same answer, order included: %s', async (qs) => {
    const { pgBody, osBody } = await both(qs);
    // Facets past the cap are counted over a window (PostgreSQL: the first 500 matches in quality
    // order) or over every match (OpenSearch): the same facet lists, their counts the backend's own.
    const facetsPastCap = pgBody.total_relation === 'gte' && pgBody.facets !== undefined;
    const strip = (d: any) => (facetsPastCap ? { ...withoutScore(d), facets: Object.keys(d.facets).sort() } : withoutScore(d));
    expect(strip(osBody)).toEqual(strip(pgBody));
  });

  it.each(RELEVANCE)('same matches, totals, corrections and facets; order by the engine score then quality, type, id: %s', async (qs) => {
    const { pgBody, osBody } = await both(qs);
    expect(osBody.total).toBe(pgBody.total);
    expect(osBody.total_relation).toBe(pgBody.total_relation);
    expect(osBody.pagination).toEqual(pgBody.pagination);
    expect(osBody.corrected_query).toEqual(pgBody.corrected_query);
    expect(osBody.corrections).toEqual(pgBody.corrections);
    if (pgBody.total_relation === 'eq') expect(osBody.facets).toEqual(pgBody.facets);
    if (pgBody.total <= pgBody.pagination.limit) {
      const sorted = (d: any) => d.results.map((r: any) => `${r.type}:${r.id}`).sort();
      expect(sorted(osBody)).toEqual(sorted(pgBody));
    }
    const scores = osBody.results.map((r: any) => r.relevance_score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(scores.every((s: number) => s > 0 && s < 1)).toBe(true);
  });
});
