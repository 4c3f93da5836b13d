// The OpenSearch index fed from the change log (issue 45), against a real node: every seeded
// document arrives through the log, updates, takedowns and deletes follow, an older version never
// overwrites a newer one, lag is reported; and with the engine killed (kill -9) /search answers
// from PostgreSQL (header, metric, readiness degraded, never a 500), and what changed meanwhile
// reaches the index once the node is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { call, seedTestDirectory } from '../helpers/directory-seed';
import { caughtUp, engineOf, OPENSEARCH_RUNS, startTestOpenSearch } from '../helpers/opensearch';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';
import { freePort } from '../../lib/net/free-port';
import { bulk } from '../../lib/search-engine/indexer';
import { compare } from '../../lib/search-engine/compare';
import type { EngineConfig } from '../../lib/search-engine/client';
import type { OpenSearchNode } from '../../scripts/tools/opensearch-node';

let node: OpenSearchNode;
let stack: TestStack;
let reader: TestCredential;
let e: EngineConfig;

beforeAll(async () => {
  if (!OPENSEARCH_RUNS) return;
  node = await startTestOpenSearch();
  e = engineOf(node.url);
  // The API starts on an empty directory (its index is built empty), then the seed's writes arrive through the log.
  stack = await startTestStack({ worker: false, env: { SEARCH_BACKEND: 'opensearch', SEARCH_OPENSEARCH_URL: node.url, SEARCH_OPENSEARCH_RETRY_MS: '300' } });
  await eventually(async () => (await fetch(`${node.url}/_alias/${e.alias}`)).ok, 60_000);
  await seedTestDirectory(stack);
  reader = await apiKeyActor(stack, { permissions: ['search:read'] });
  await caughtUp(stack, e);
}, 240_000);
afterAll(async () => {
  await stack?.stop();
  await node?.stop();
});

const search = (qs: string) => call(stack, `/search?${qs}`, { headers: reader.headers });
const engineDoc = async (key: string) => {
  await fetch(`${e.url}/${e.alias}/_refresh`, { method: 'POST' });
  const r = await fetch(`${e.url}/${e.alias}/_doc/${encodeURIComponent(key)}`);
  return r.status === 200 ? ((await r.json()) as { _version: number; _source: Record<string, unknown> }) : undefined;
};
const version = async (type: string, id: string) => {
  const [r] = await stack.sql<{ v: string }[]>`select version::text as v from search_documents where type = ${type} and id = ${id}`;
  return r ? Number(r.v) : undefined;
};

describe.skipIf(!OPENSEARCH_RUNS)('the OpenSearch index fed from search_changes', () => {
  it('holds every document of the seeded directory, arrived through the change log, with no drift', async () => {
    const d = await compare(stack.sql, e, 2000);
    expect(d.engineDocuments).toBe(d.postgresDocuments);
    expect(d.postgresDocuments).toBeGreaterThan(500);
    expect({ missing: d.missing, stale: d.stale, differing: d.differing, extra: d.extra }).toEqual({ missing: [], stale: [], differing: [], extra: [] });
  });

  it('an update reaches the index with the row\'s new, higher version', async () => {
    const before = (await engineDoc('studio:std_geo_0'))!._version;
    await stack.sql`update studios set name = 'Quokka Parlour' where id = 'std_geo_0'`;
    const after = await version('studio', 'std_geo_0');
    expect(after).toBeGreaterThan(before);
    const found = await eventually(async () => {
      const r = await search('q=quokka');
      return r.body.data.total === 1 && r;
    });
    expect(found.headers.get('x-search-backend')).toBe('opensearch');
    expect(found.body.data.results[0].id).toBe('std_geo_0');
    expect((await engineDoc('studio:std_geo_0'))!._version).toBe(after);
  });

  it('a takedown and a delete leave the index', async () => {
    expect(await engineDoc('studio:std_geo_3')).toBeDefined();
    expect(await engineDoc('design:dsg_fx_other_ok')).toBeDefined();
    await stack.sql`update studios set visibility = 'private' where id = 'std_geo_3'`;
    await stack.sql`delete from designs where id = 'dsg_fx_other_ok'`;
    await eventually(async () => (await engineDoc('studio:std_geo_3')) === undefined && (await engineDoc('design:dsg_fx_other_ok')) === undefined);
    const r = await search('city=Geoville&sort_by=name');
    expect(r.body.data.results.map((x: any) => x.id)).not.toContain('std_geo_3');
  });

  it('never goes backwards: an older version is refused, a replayed older delete changes nothing', async () => {
    const doc = (await engineDoc('studio:std_geo_9'))!;
    const stale = await bulk(e, [{ index: e.alias, id: 'studio:std_geo_9', version: doc._version - 1, doc: { ...(doc._source as any), name: 'Older Name' } }], true);
    expect(stale).toEqual({ written: 0, stale: 1 });
    await stack.sql`insert into search_changes (type, id, version, deleted) values ('studio', 'std_geo_9', ${doc._version - 1}, true)`;
    await eventually(async () => (await stack.sql`select 1 from search_changes`).length === 0);
    const now = (await engineDoc('studio:std_geo_9'))!;
    expect(now._version).toBe(doc._version);
    expect(now._source.name).toBe(doc._source.name);
  });

  it('reports the feed\'s lag in /health and in /metrics', async () => {
    const h = await call(stack, '/health');
    expect(h.body.services.search).toMatchObject({ backend: 'opensearch', status: 'connected', cluster: expect.stringMatching(/green|yellow/) });
    expect(typeof h.body.services.search.pendingChanges).toBe('number');
    expect(typeof h.body.services.search.lagSeconds).toBe('number');
    const metrics = await (await fetch(`${stack.url}/metrics`)).text();
    expect(metrics).toMatch(/^search_index_lag_seconds \d/m);
    expect(metrics).toMatch(/^search_index_pending_changes \d/m);
    expect(metrics).toMatch(/^search_backend_answers_total\{backend="opensearch"\} \d/m);
  });

  it('with OpenSearch killed (-9): answers from PostgreSQL, says so, readiness degraded; changes made meanwhile arrive when it is back', async () => {
    const { httpPort, transportPort, dataDir } = node;
    node.kill();
    await node.exited;
    const r = await search('type=studio&sort_by=name&limit=50');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-search-backend')).toBe('postgres-fallback');
    const [studios] = await stack.sql<{ n: number }[]>`select count(*)::int as n from search_documents where type = 'studio'`;
    expect(r.body.data.total).toBe(studios!.n);
    const ready = await call(stack, '/health/ready');
    expect(ready.body.dependencies.find((d: any) => d.id === 'search_engine')).toMatchObject({ status: 'degraded', required: false });
    expect((await call(stack, '/health')).body.services.search.status).toBe('fallback');
    expect(await (await fetch(`${stack.url}/metrics`)).text()).toMatch(/^search_backend_answers_total\{backend="postgres-fallback"\} [1-9]/m);
    await stack.sql`update studios set name = 'Wombat Parlour' where id = 'std_geo_15'`;
    expect((await stack.sql`select 1 from search_changes`).length).toBeGreaterThan(0); // held until the engine takes it
    node = await startTestOpenSearch({ dataDir, httpPort, transportPort });
    const back = await eventually(async () => {
      const x = await search('q=wombat');
      return x.headers.get('x-search-backend') === 'opensearch' && x.body.data.total === 1 && x;
    }, 60_000);
    expect(back.body.data.results[0].id).toBe('std_geo_15');
    await caughtUp(stack, e);
    const d = await compare(stack.sql, e, 2000);
    expect({ missing: d.missing, stale: d.stale, differing: d.differing, extra: d.extra, count: d.engineDocuments }).toEqual({ missing: [], stale: [], differing: [], extra: [], count: d.postgresDocuments });
  }, 180_000);
});

describe('SEARCH_BACKEND=opensearch with no engine at the address', () => {
  it('answers every /search from PostgreSQL with X-Search-Backend: postgres-fallback, never a 500', async () => {
    const s = await startTestStack({ worker: false, env: { SEARCH_BACKEND: 'opensearch', SEARCH_OPENSEARCH_URL: `http://127.0.0.1:${await freePort()}`, SEARCH_OPENSEARCH_TIMEOUT_MS: '500' } });
    try {
      await seedTestDirectory(s);
      const who = await apiKeyActor(s, { permissions: ['search:read'] });
      for (const qs of ['', 'q=tattoo', 'q=tradtional&include_facets=true', 'latitude=10&longitude=20&radius=20']) {
        const r = await call(s, `/search?${qs}`, { headers: who.headers });
        expect(r.status, qs).toBe(200);
        expect(r.headers.get('x-search-backend'), qs).toBe('postgres-fallback');
        expect(r.body.success).toBe(true);
      }
      const ready = await call(s, '/health/ready');
      expect(ready.body.dependencies.find((d: any) => d.id === 'search_engine')?.status).toBe('degraded');
    } finally {
      await s.stop();
    }
  });
});
