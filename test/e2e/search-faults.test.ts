// The index's operations and faults (issue 45), against a real node and the real scripts:
// `npm run search -- reindex` builds a new index and moves the alias while /search keeps answering
// from the engine; `search -- compare` reports drift and none when there is none; kill -9 of the
// indexer (`search -- index`) and of OpenSearch in the middle of draining a backlog lose nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, PROJECT_ROOT } from '../../lib/config';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { call, seedTestDirectory } from '../helpers/directory-seed';
import { caughtUp, engineOf, OPENSEARCH_RUNS, startTestOpenSearch } from '../helpers/opensearch';
import { runScript } from '../helpers/run-script';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';
import type { OpenSearchNode } from '../../scripts/tools/opensearch-node';

let node: OpenSearchNode;
let stack: TestStack;
let reader: TestCredential;
let env: Record<string, string>;

beforeAll(async () => {
  if (!OPENSEARCH_RUNS) return;
  node = await startTestOpenSearch();
  // The API reads from the engine but runs no indexer: the scripts do the indexing here.
  stack = await startTestStack({ worker: false, env: { SEARCH_BACKEND: 'opensearch', SEARCH_OPENSEARCH_URL: node.url, SEARCH_INDEXER: 'false', SEARCH_OPENSEARCH_RETRY_MS: '200' } });
  await seedTestDirectory(stack);
  reader = await apiKeyActor(stack, { permissions: ['search:read'] });
  env = { DATABASE_URL: stack.cfg.DATABASE_URL!, SEARCH_OPENSEARCH_URL: node.url, DATA_DIR: stack.dataDir };
}, 240_000);
afterAll(async () => {
  await stack?.stop();
  await node?.stop();
});

const search = (qs: string) => call(stack, `/search?${qs}`, { headers: reader.headers });
const pending = async () => (await stack.sql<{ n: number }[]>`select count(*)::int as n from search_changes`)[0]!.n;
const indexer = (): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/search.ts'), 'index', '--batch', '10'], { cwd: PROJECT_ROOT, env: childEnv({ NODE_ENV: 'test', ...env }), stdio: 'ignore' });
const killed = (c: ChildProcess) => new Promise<void>((resolve) => {
  c.once('exit', () => resolve());
  c.kill('SIGKILL');
});
async function compareClean() {
  const r = await runScript('scripts/search.ts', ['compare', '--sample', '5000'], env, 120_000);
  expect(r.stdout, r.stderr).toMatch(/missing +0\n/);
  expect(r.code, r.stdout).toBe(0);
  return r.stdout;
}

describe.skipIf(!OPENSEARCH_RUNS)('npm run search: reindex, compare, and kill -9 mid-batch', () => {
  it('reindex builds the index; compare finds no drift; /search answers from the engine', async () => {
    const before = await search('type=studio');
    expect(before.headers.get('x-search-backend')).toBe('postgres-fallback'); // no index yet
    const r = await runScript('scripts/search.ts', ['reindex'], env, 180_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/reindexed: \d+ documents into directory-search-\d+/);
    await eventually(async () => (await search('type=studio')).headers.get('x-search-backend') === 'opensearch');
    expect((await search('type=studio')).body.data.total).toBe(before.body.data.total);
    expect(await compareClean()).toMatch(/documents: PostgreSQL (\d+), OpenSearch \1;/);
  });

  it('compare reports drift: a document removed behind the feed\'s back is missing', async () => {
    const [doc] = await stack.sql<{ type: string; id: string }[]>`select type, id from search_documents order by id limit 1`;
    await fetch(`${node.url}/directory-search/_doc/${doc!.type}:${doc!.id}?refresh=true`, { method: 'DELETE' });
    const r = await runScript('scripts/search.ts', ['compare', '--sample', '5000'], env, 120_000);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/documents: PostgreSQL (\d+), OpenSearch (?!\1;)\d+;/);
  });

  it('a second reindex moves the alias with no gap: every /search meanwhile is answered by the engine, the same', async () => {
    const want = (await search('type=studio&sort_by=name&limit=50')).body.data;
    const reindex = runScript('scripts/search.ts', ['reindex'], env, 180_000);
    let done = false;
    void reindex.then(() => (done = true));
    let answers = 0;
    for (let i = 0; i < 2000 && !done; i++) {
      const r = await search('type=studio&sort_by=name&limit=50');
      expect(r.headers.get('x-search-backend')).toBe('opensearch');
      expect(r.body.data.results.map((x: any) => x.id)).toEqual(want.results.map((x: any) => x.id));
      answers++;
    }
    expect((await reindex).code).toBe(0);
    expect(answers).toBeGreaterThan(0);
    const aliases = (await (await fetch(`${node.url}/_alias/directory-search`)).json()) as Record<string, unknown>;
    expect(Object.keys(aliases)).toHaveLength(1); // the old index is gone
    await compareClean(); // the document deleted behind the feed's back is back
  }, 240_000);

  it('kill -9 of the indexer, then of OpenSearch, in the middle of a backlog loses nothing', async () => {
    await stack.sql`update studios set review_count = review_count + 1`;
    const backlog = await pending();
    expect(backlog).toBeGreaterThan(200);
    // the indexer, killed once it has taken some batches and not all
    let child = indexer();
    await eventually(async () => (await pending()) < backlog - 20, 60_000, 20);
    await killed(child);
    expect(await pending()).toBeGreaterThan(0);
    // a new indexer, and OpenSearch killed under it while more changes arrive
    child = indexer();
    await stack.sql`update artists set review_count = review_count + 1`;
    await eventually(async () => (await pending()) < backlog, 60_000, 20);
    const { httpPort, transportPort, dataDir } = node;
    node.kill();
    await node.exited;
    await stack.sql`update designs set featured = not featured`;
    const held = await pending();
    expect(held).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1500)); // batches fail meanwhile; nothing is dropped
    expect(await pending()).toBeGreaterThanOrEqual(held);
    node = await startTestOpenSearch({ dataDir, httpPort, transportPort });
    await caughtUp(stack, engineOf(node.url), 120_000);
    await killed(child);
    await compareClean();
  }, 300_000);
});
