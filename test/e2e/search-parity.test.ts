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
import { seedTestDirectory } from '../helpers/directory-seed';
import { bothAnswers, EXACT, expectSameExact, expectSameMatches, RELEVANCE } from '../helpers/search-parity';
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

const both = (qs: string) => bothAnswers(pg, os, reader, qs);

describe.skipIf(!OPENSEARCH_RUNS)('GET /search parity: PostgreSQL and OpenSearch', () => {
  it('the corpus is big enough to bound totals at the cap (relation gte) and small enough to be exact under it', async () => {
    const { pgBody, osBody } = await both('');
    expect(pgBody.total_relation).toBe('gte');
    expect(osBody.total).toBe(Number(CAP));
    expect((await both('city=Geoville')).osBody.total_relation).toBe('eq');
  });

  it.each(EXACT)('same answer, order included: %s', async (qs) => {
    const { pgBody, osBody } = await both(qs);
    expectSameExact(pgBody, osBody);
  });

  it.each(RELEVANCE)('same matches, totals, corrections and facets; order by the engine score then quality, type, id: %s', async (qs) => {
    const { pgBody, osBody } = await both(qs);
    expectSameMatches(pgBody, osBody);
  });
});
