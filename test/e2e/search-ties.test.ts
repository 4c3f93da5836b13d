// A relevance page from a real OpenSearch node (lib/search-engine/ties.ts): found by score alone with
// its ties settled, it must be the page the engine sorts in full by score, quality, type and id, on
// an index of two shards and several segments whose documents tie at every score, for every page,
// also when the bound must narrow (a small window) or cannot settle (the full sort answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../scripts/seed/directory';
import { bulk } from '../../lib/search-engine/indexer';
import { ok } from '../../lib/search-engine/client';
import { DOCUMENT_MAPPINGS, indexSettings } from '../../lib/search-engine/documents';
import { enginePage } from '../../lib/search-engine/backend';
import { scoreOnlyRequest, searchRequests } from '../../lib/search-engine/query';
import { byRelevance } from '../../lib/search-engine/ties';
import type { SearchFilters } from '../../lib/directory/search';
import { engineOf, OPENSEARCH_RUNS, startTestOpenSearch } from '../helpers/opensearch';
import type { OpenSearchNode } from '../../scripts/tools/opensearch-node';

let node: OpenSearchNode;
const e = () => engineOf(node.url, 'ties-test');
const N = 1_200;

/** The seed tooling's generator: the same corpus every run. */
const rng = mulberry32;

beforeAll(async () => {
  if (!OPENSEARCH_RUNS) return;
  node = await startTestOpenSearch();
  await ok(e(), 'PUT', '/ties-test-1', { settings: { index: indexSettings({ shards: 2, replicas: 0 }) }, mappings: DOCUMENT_MAPPINGS });
  await ok(e(), 'POST', '/_aliases', { actions: [{ add: { index: 'ties-test-1', alias: 'ties-test' } }] });
  const r = rng(45);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  // Few distinct scores (where koi is, how often, beside how many other words) and few qualities:
  // hundreds of documents share each score. Written in six refreshed batches: several segments per shard.
  const docs = Array.from({ length: N }, (_, i) => {
    const field = pick(['w_a', 'w_b', 'w_c'] as const);
    const words = [...Array.from({ length: pick([1, 2]) }, () => 'koi'), ...Array.from({ length: pick([0, 3]) }, () => 'ink')];
    return { type: pick(['artist', 'design', 'studio']), id: `t_${String(Math.floor(r() * 1e6)).padStart(6, '0')}_${i}`, quality: pick([0.9, 0.7, 0.585, 0.3]), version: 1, [field]: words };
  });
  for (let b = 0; b < 6; b++) {
    const batch = docs.slice((b * N) / 6, ((b + 1) * N) / 6);
    await bulk(e(), batch.map((doc) => ({ index: 'ties-test-1', id: `${doc.type}:${doc.id}`, version: 1, doc: doc as never })), true);
  }
}, 120_000);
afterAll(async () => {
  await node?.stop();
});

const base: SearchFilters = { page: 1, limit: 20, q: 'koi', type: 'all', verifiedOnly: false, sortBy: 'relevance', sortOrder: 'desc', includeFacets: false };
const keys = (hits: { fields?: Record<string, unknown[]> }[]) => hits.map((h) => `${h.fields!.type![0]}:${h.fields!.id![0]}`);

/** The page the engine sorts in full (the contract's order), as the backend sent it before. */
async function sortedInFull(f: SearchFilters, offset: number) {
  const { page } = searchRequests(f, ['koi'], offset, 10_000);
  return keys((await ok<{ hits: { hits: { fields: Record<string, unknown[]> }[] } }>(e(), 'POST', '/ties-test/_search', page)).hits.hits);
}

describe.skipIf(!OPENSEARCH_RUNS)('a relevance page from OpenSearch: score alone, ties settled', () => {
  it('the corpus ties: the engine\'s own order for ties is not the contract\'s (so the settling is tested)', async () => {
    const k = 21;
    const first = await ok<{ hits: { hits: { _score: number; fields: Record<string, (string | number)[]> }[] } }>(e(), 'POST', '/ties-test/_search', scoreOnlyRequest(searchRequests(base, ['koi'], 0, 10_000).page, k));
    const naive = first.hits.hits
      .map((h) => ({ score: h._score, quality: Number(h.fields.quality![0]), type: String(h.fields.type![0]), id: String(h.fields.id![0]) }))
      .sort(byRelevance)
      .map((x) => `${x.type}:${x.id}`);
    expect(naive).not.toEqual(await sortedInFull(base, 0));
  });

  it('every page, at two limits and three windows, equals the page sorted in full', async () => {
    for (const limit of [20, 50]) {
      for (let page = 1; page <= 8; page++) {
        const f = { ...base, limit, page };
        const offset = (page - 1) * limit;
        const want = await sortedInFull(f, offset);
        for (const window of [32, 8, 1]) {
          const got = await enginePage(e(), searchRequests(f, ['koi'], offset, 10_000), offset + limit + 1, true, window);
          expect(keys(got.hits as never), `limit ${limit}, page ${page}, window ${window}`).toEqual(want);
          // the count comes from its own unscored search beside step 1: every document says koi
          expect(got.counts.body.hits?.total).toEqual({ value: N, relation: 'eq' });
        }
      }
    }
  });

  it('with facets the count and facets still come from their own search; a page past MAX_K is sorted in full', async () => {
    const f = { ...base, includeFacets: true };
    const got = await enginePage(e(), searchRequests(f, ['koi'], 0, 10_000), 21, true);
    expect(keys(got.hits as never)).toEqual(await sortedInFull(f, 0));
    expect(got.counts.body.hits?.total?.value).toBeGreaterThan(300);
    expect(Object.keys(got.counts.body.aggregations ?? {})).toContain('types');
    const deep = { ...base, limit: 50, page: 21 };
    const far = await enginePage(e(), searchRequests(deep, ['koi'], 1000, 10_000), 1051, true);
    expect(keys(far.hits as never)).toEqual(await sortedInFull(deep, 1000));
  });
});
