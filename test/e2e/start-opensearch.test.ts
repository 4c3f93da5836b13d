// `npm start -- --search opensearch` as a person runs it (the real command, a child process, free
// ports; test/e2e/start-opensearch-suite.ts): ready; /search answered by the engine with
// X-Search-Backend: opensearch and the demo directory in it; /health names the backend; the JVM
// killed (-9) is restarted by the launcher (/search answers from PostgreSQL meanwhile, then from the
// engine again); Ctrl-C (SIGINT to the process group, as a terminal sends it) stops the stack and
// leaves no OpenSearch JVM running, the first or the restarted one, checked by pid.
// test/e2e/start-opensearch-sigterm.test.ts stops one with SIGTERM while a restart is under way.
import { describe, expect, it } from 'vitest';
import { readRunFile } from '../../lib/stack-run';
import { OPENSEARCH_RUNS } from '../helpers/opensearch';
import { runScript } from '../helpers/run-script';
import { eventually } from '../helpers/eventually';
import { allGone, jvmPids, running, search, oneStackPerFile } from './start-opensearch-suite';

const stack = oneStackPerFile();
const pids: number[] = [];

describe.skipIf(!OPENSEARCH_RUNS)('npm start -- --search opensearch', () => {
  it('is ready with one OpenSearch JVM on SEARCH_OPENSEARCH_PORT, and says so', async () => {
    expect(stack().output()).toContain(`Search:          OpenSearch 2.19.6 on ${stack().searchUrl}`);
    pids.push(...jvmPids(stack().dataDir));
    expect(pids).toHaveLength(1);
    expect(((await (await fetch(`${stack().searchUrl}/_cluster/health`)).json()) as { status: string }).status).toMatch(/green|yellow/);
    expect((await fetch(`${stack().apiUrl}/api/v1/health/ready`)).status).toBe(200);
    // stack.json names the node (the README says it lists everything), and the search tool finds it there.
    const run = readRunFile(stack().dataDir)!;
    expect(run.searchUrl).toBe(stack().searchUrl);
    expect(run.pids.opensearch).toBe(pids[0]);
    const status = await runScript('scripts/search.ts', ['status'], { DATA_DIR: stack().dataDir });
    expect(status.code, status.stderr).toBe(0);
  });

  it('/search is answered by the engine (X-Search-Backend: opensearch), the demo directory indexed through the change log', async () => {
    const r = await eventually(async () => {
      const x = await search(stack(), 'type=studio');
      const body = (await x.json()) as { data: { total: number } };
      return x.headers.get('x-search-backend') === 'opensearch' && body.data.total > 0 && { status: x.status, body };
    }, 120_000, 500);
    expect(r.status).toBe(200);
    const count = (await (await fetch(`${stack().searchUrl}/directory-search/_count`)).json()) as { count: number };
    expect(count.count).toBeGreaterThanOrEqual(r.body.data.total);
    // the stack's own OpenAPI document names both values the header takes
    const doc = (await (await fetch(`${stack().apiUrl}/api/v1/openapi.json`)).json()) as any;
    expect(doc.paths['/api/v1/search'].get.responses['200'].headers['X-Search-Backend'].schema.enum).toEqual(['opensearch', 'postgres-fallback']);
  }, 150_000);

  it('/health shows the search backend, connected, with the feed\'s lag', async () => {
    const h = (await (await fetch(`${stack().apiUrl}/api/v1/health`)).json()) as { services: { search?: Record<string, unknown> } };
    expect(h.services.search).toMatchObject({ backend: 'opensearch', status: 'connected', cluster: expect.stringMatching(/green|yellow/) });
    expect(typeof h.services.search!.pendingChanges).toBe('number');
  });

  it('the JVM killed (-9) is restarted: /search answers from PostgreSQL meanwhile, never a 500, then from the engine', async () => {
    process.kill(pids[0]!, 'SIGKILL');
    const fallback = await eventually(async () => {
      const x = await search(stack(), 'type=studio');
      expect(x.status).toBe(200);
      return x.headers.get('x-search-backend') === 'postgres-fallback';
    }, 30_000, 200);
    expect(fallback).toBe(true);
    const again = await eventually(async () => {
      const now = jvmPids(stack().dataDir);
      return now.length === 1 && now[0] !== pids[0] && now[0]!;
    }, 30_000, 200);
    pids.push(again);
    await eventually(async () => {
      const x = await search(stack(), 'type=studio');
      expect(x.status).toBe(200);
      return x.headers.get('x-search-backend') === 'opensearch';
    }, 150_000, 500);
    expect(stack().output()).toMatch(/OpenSearch exited \(null\); restarting it in 2 s/);
  }, 200_000);

  it('Ctrl-C (SIGINT to the process group) stops the stack: npm and the launcher exit, no OpenSearch JVM is left, the port is free', async () => {
    expect(pids.filter(running)).toEqual([pids[1]]);
    process.kill(-stack().child.pid!, 'SIGINT');
    expect(await allGone([stack().launcherPid], 90_000)).toBe(true);
    await stack().exited;
    expect(await allGone(pids, 5_000)).toBe(true);
    expect(jvmPids(stack().dataDir)).toEqual([]);
    await expect(fetch(`${stack().searchUrl}/_cluster/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    expect(stack().output()).toContain('[stack] stopped');
  }, 120_000);
});
