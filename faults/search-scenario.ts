// F20: kill -9 of OpenSearch, of an indexer process, or of the API in the middle of an indexing
// batch loses nothing. A stack with the OpenSearch backend as `npm start -- --search opensearch`
// runs it (the API indexes, SEARCH_INDEXER on), beside it an indexer of its own (`npm run search --
// index`, as docs/deploy.md allows), and a seeded directory. Batches of changes (every studio and
// artist updated, some taken down and put back) are written the way the product writes them: rows
// of studios and artists, the triggers log each change in the same transaction. While they are
// indexed, each is killed by pid at the moment it holds the feed's lock (the batch is in flight):
// (a) the OpenSearch JVM, (b) the indexer process, (c) the API. After each comes back: nothing
// pending, every document of the index equal to its search_documents row, the same version (none
// lost, none backwards: no version lower than one seen before), and /search never answered 5xx.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BenchStack } from '../bench/lib/stack';
import { childEnv, PROJECT_ROOT } from '../lib/config';
import type { Sql } from '../lib/db';
import { freePort } from '../lib/net/free-port';
import type { EngineConfig } from '../lib/search-engine/client';
import { compare } from '../lib/search-engine/compare';
import { docId } from '../lib/search-engine/documents';
import { FEED_LOCK } from '../lib/search-engine/indexer';
import { seedDirectory } from '../scripts/seed/directory';
import { tempStackDir } from '../scripts/stack';
import { installOpenSearch, opensearchInstalled } from '../scripts/tools/opensearch';
import { startOpenSearchNode, type OpenSearchNode } from '../scripts/tools/opensearch-node';
import { send } from './client';
import { sleep, withStack, type Scenario } from './harness';

const API_APP = 'f20-api';
const INDEXER_APP = 'f20-indexer';
const ALIAS = 'directory-search';

/** The application name of the connection holding the feed's batch lock (an indexer mid-batch), or undefined. */
async function lockHolder(sql: Sql): Promise<string | undefined> {
  // pg_advisory_xact_lock(bigint): the key's high half in classid, its low half in objid, objsubid 1
  const [r] = await sql<{ app: string }[]>`
    select a.application_name as app from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.granted and l.classid = 0 and l.objid = ${FEED_LOCK} and l.objsubid = 1`;
  return r?.app;
}

/** Polls (bounded) until `app` holds the batch lock; false when it never did in time. */
async function whileHolding(sql: Sql, app: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 100_000 && Date.now() < deadline; i++) {
    if ((await lockHolder(sql)) === app) return true;
    await sleep(2);
  }
  return false;
}

/** Waits (bounded) for `app` to hold the batch lock, then kills; true when the kill came mid-batch. */
async function killWhenHolding(sql: Sql, app: string, kill: () => Promise<void>): Promise<boolean> {
  const mid = await whileHolding(sql, app, 30_000);
  await kill();
  return mid;
}

/** Waits (bounded) for a connection named `app`. */
async function connected(sql: Sql, app: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 10_000 && Date.now() < deadline; i++) {
    if ((await sql`select 1 from pg_stat_activity where application_name = ${app}`).length) return true;
    await sleep(100);
  }
  return false;
}

const pendingOf = async (sql: Sql) => (await sql<{ n: number }[]>`select count(*)::int as n from search_changes`)[0]!.n;

/** Every document's version, in PostgreSQL and in the index (by key). */
async function postgresVersions(sql: Sql): Promise<Map<string, number>> {
  const rows = await sql<{ type: string; id: string; v: string }[]>`select type, id, version::text as v from search_documents`;
  return new Map(rows.map((r) => [docId(r.type, r.id), Number(r.v)]));
}
async function engineVersions(e: EngineConfig): Promise<Map<string, number>> {
  await fetch(`${e.url}/${e.alias}/_refresh`, { method: 'POST', signal: AbortSignal.timeout(30_000) });
  const r = await fetch(`${e.url}/${e.alias}/_search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ size: 10_000, _source: false, version: true, track_total_hits: true, query: { match_all: {} } }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!r.ok) throw new Error(`engine versions: ${r.status}`);
  const body = (await r.json()) as { hits: { total: { value: number }; hits: { _id: string; _version: number }[] } };
  if (body.hits.total.value > body.hits.hits.length) throw new Error(`engine versions: ${body.hits.total.value} documents, more than one page`);
  return new Map(body.hits.hits.map((h) => [h._id, h._version]));
}

/** The feed has caught up: nothing pending and the index holds as many documents as PostgreSQL. */
async function caughtUp(sql: Sql, e: EngineConfig, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 10_000 && Date.now() < deadline; i++) {
    const [r] = await sql<{ pending: number; docs: number }[]>`select (select count(*)::int from search_changes) as pending, (select count(*)::int from search_documents) as docs`;
    if (r!.pending === 0) {
      const c = await fetch(`${e.url}/${e.alias}/_refresh`, { method: 'POST', signal: AbortSignal.timeout(5000) })
        .then(() => fetch(`${e.url}/${e.alias}/_count`, { signal: AbortSignal.timeout(5000) }))
        .then(async (x) => (x.ok ? ((await x.json()) as { count: number }).count : -1))
        .catch(() => -1);
      if (c === r!.docs) return true;
    }
    await sleep(250);
  }
  return false;
}

/** /search asked again and again until stopped (bounded): the answers' statuses and backends. */
function searchPoller(s: BenchStack) {
  const statuses: Record<string, number> = {};
  const backends: Record<string, number> = {};
  /** Per phase (set by the scenario): answers from the engine / from PostgreSQL / none. */
  const phases: Record<string, [number, number, number]> = {};
  let phase = 'start';
  /** When each phase began (ms), in order: the phases' lengths in the row. */
  const began: [string, number][] = [['start', performance.now()]];
  let noAnswer = 0;
  /** Asked and not answered in 15 s while the API ran: a hang, counted apart from a refused connection. */
  let timedOut = 0;
  let stopped = false;
  const queries = ['type=studio&sort_by=name', 'q=tattoo', 'type=artist&include_facets=true', 'q=japanese&type=all'];
  const done = (async () => {
    for (let i = 0; i < 20_000 && !stopped; i++) {
      try {
        const r = await send(s, 'GET', `/api/v1/search?${queries[i % queries.length]}`, { headers: s.partner.headers, timeoutMs: 15_000 });
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        const b = r.headers.get('x-search-backend') ?? 'none';
        backends[b] = (backends[b] ?? 0) + 1;
        (phases[phase] ??= [0, 0, 0])[b === 'opensearch' ? 0 : 1]++;
      } catch (err) {
        if ((err as Error).name === 'TimeoutError') timedOut++;
        else noAnswer++; // the API killed: no answer at all, not a 5xx
        (phases[phase] ??= [0, 0, 0])[2]++;
      }
      await sleep(25);
    }
  })();
  return {
    statuses,
    backends,
    noAnswer: () => noAnswer,
    timedOut: () => timedOut,
    /** Per phase: engine/PostgreSQL/no answer, and its seconds. */
    phases: () =>
      began
        .filter(([k], i) => i > 0 || phases[k])
        .map(([k, t], i, all) => `${k}:${(phases[k] ?? [0, 0, 0]).join('/')}@${Math.round(((all[i + 1]?.[1] ?? performance.now()) - t) / 1000)}s`)
        .join(' '),
    set phase(p: string) {
      phase = p;
      began.push([p, performance.now()]);
    },
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/** The batch of changes: every studio and artist updated, `off` studios taken down (their documents deleted) and the last ones taken down put back. */
async function writeBatch(sql: Sql, round: string, takenDown: string[]): Promise<void> {
  await sql`update studios set review_count = review_count + 1 where source_type = 'synthetic_seed'`;
  await sql`update artists set review_count = review_count + 1 where source_type = 'synthetic_seed'`;
  if (takenDown.length) await sql`update studios set visibility = 'public' where id = any(${takenDown.splice(0)})`;
  const off = await sql<{ id: string }[]>`select id from studios where visibility = 'public' and source_type = 'synthetic_seed' order by md5(id || ${round}) limit 5`;
  await sql`update studios set visibility = 'private' where id = any(${off.map((r) => r.id)})`;
  takenDown.push(...off.map((r) => r.id));
}

function spawnIndexer(s: BenchStack, url: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/search.ts'), 'index', '--batch', '20'], {
    cwd: PROJECT_ROOT,
    env: childEnv({ NODE_ENV: 'development', DATABASE_URL: s.databaseUrl, SEARCH_OPENSEARCH_URL: url, DATA_DIR: s.dataDir, PGAPPNAME: INDEXER_APP, LOG_LEVEL: 'warn' }),
    stdio: 'ignore',
  });
}
const exitOf = (c: ChildProcess) => new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())));

export const F20: Scenario = {
  id: 'F20',
  fault: 'kill -9 of OpenSearch, of an indexer process and of the API (its indexer on), each mid-batch, while batches of changes are indexed',
  holds: 'after each restart nothing pending; every document equals its PostgreSQL row and version (none lost, none backwards); /search never 5xx nor hung, always with X-Search-Backend',
  run: async (size) => {
    const studios = size === 'short' ? 120 : 600;
    const rounds = size === 'short' ? 1 : 3;
    if (!opensearchInstalled()) installOpenSearch();
    const osDir = tempStackDir('f20-opensearch-');
    const [httpPort, transportPort] = [await freePort(), await freePort()];
    const nodeOptions = { dataDir: osDir, httpPort, transportPort, heapMb: 384 };
    const url = `http://127.0.0.1:${httpPort}`;
    const e: EngineConfig = { url, alias: ALIAS, timeoutMs: 30_000 };
    // The node and the stack start side by side: the API retries its index until the node answers.
    let node: OpenSearchNode | undefined;
    const first = startOpenSearchNode(nodeOptions).then((n) => (node = n));
    first.catch(() => undefined); // awaited below; a failure is reported there, not as unhandled
    let indexer: ChildProcess | undefined;
    try {
      return await withStack(
        async (s) => {
          await first;
          // The API builds the (empty) index at its start and feeds it; the seed arrives through the log.
          if (!(await caughtUp(s.sql, e, 120_000))) throw new Error('the API built no index');
          await seedDirectory(s.sql, { studios, seed: 20 });
          if (!(await caughtUp(s.sql, e, 120_000))) throw new Error('the seed did not reach the index');
          const poller = searchPoller(s);
          const killed = { opensearch: 0, indexer: 0, api: 0 };
          const midBatch = { opensearch: 0, indexer: 0, api: 0 };
          let droppedWhileDown = 0;
          let notCaughtUp = 0;
          const seen: Map<string, number>[] = [];
          const takenDown: string[] = [];
          const settle = async () => {
            if (!(await caughtUp(s.sql, e, 120_000))) notCaughtUp++;
            seen.push(await engineVersions(e));
          };
          try {
            for (let round = 0; round < rounds; round++) {
              // (a) the OpenSearch JVM, while the API's indexer writes a batch to it
              poller.phase = `${round}a`;
              const [a] = await Promise.all([killWhenHolding(s.sql, API_APP, async () => {
                node!.kill();
                await node!.exited;
              }), writeBatch(s.sql, `${round}a`, takenDown)]);
              killed.opensearch++;
              midBatch.opensearch += a ? 1 : 0;
              await writeBatch(s.sql, `${round}a2`, takenDown); // written while the engine is away
              const held = await pendingOf(s.sql);
              await sleep(1500); // batches fail meanwhile; none may be deleted from the log
              if ((await pendingOf(s.sql)) < held) droppedWhileDown++;
              node = await startOpenSearchNode(nodeOptions);
              poller.phase = `${round}a-back`;
              await settle();

              // (b) an indexer process of its own, killed holding a batch; then started again
              poller.phase = `${round}b`;
              const own = spawnIndexer(s, url);
              indexer = own;
              // its first batch under way (connected) before the changes come, or the API could take them all
              if (!(await connected(s.sql, INDEXER_APP, 60_000))) throw new Error('the indexer process never connected');
              const [b] = await Promise.all([killWhenHolding(s.sql, INDEXER_APP, async () => {
                own.kill('SIGKILL');
                await exitOf(own);
              }), writeBatch(s.sql, `${round}b`, takenDown)]);
              killed.indexer++;
              midBatch.indexer += b ? 1 : 0;
              indexer = spawnIndexer(s, url); // it and the API drain the rest
              await settle();

              // (c) the API, killed holding a batch; changes keep coming while it is away
              poller.phase = `${round}c`;
              const [c] = await Promise.all([killWhenHolding(s.sql, API_APP, () => s.killApi()), writeBatch(s.sql, `${round}c`, takenDown)]);
              killed.api++;
              midBatch.api += c ? 1 : 0;
              await writeBatch(s.sql, `${round}c2`, takenDown);
              await s.startApi();
              poller.phase = `${round}c-back`;
              indexer.kill('SIGTERM');
              await exitOf(indexer);
              indexer = undefined;
              await settle(); // the API's indexer alone drains what is left
            }
          } finally {
            await poller.stop();
          }
          // Every document, not a sample: fields (compare) and versions.
          const [{ n } = { n: 0 }] = await s.sql<{ n: number }[]>`select count(*)::int as n from search_documents`;
          const drift = await compare(s.sql, e, n + 100);
          const pg = await postgresVersions(s.sql);
          const engine = seen.at(-1)!;
          let versionMismatch = 0;
          for (const [k, v] of pg) if (engine.get(k) !== v) versionMismatch++;
          for (const k of engine.keys()) if (!pg.has(k)) versionMismatch++;
          // none backwards: a document's version in the index never lower than one seen before it
          let backwards = 0;
          const highest = new Map<string, number>();
          for (const snapshot of seen) {
            for (const [k, v] of snapshot) {
              if ((highest.get(k) ?? 0) > v) backwards++;
              else highest.set(k, v);
            }
          }
          const serverErrors = Object.entries(poller.statuses).filter(([k]) => Number(k) >= 500).reduce((a, [, v]) => a + v, 0);
          const last = await send(s, 'GET', '/api/v1/search?type=studio', { headers: s.partner.headers });
          const measured = {
            documents: n,
            rounds,
            kills: `${killed.opensearch}/${killed.indexer}/${killed.api}`,
            midBatch: `${midBatch.opensearch}/${midBatch.indexer}/${midBatch.api}`,
            droppedWhileDown,
            notCaughtUp,
            missing: drift.missing.length,
            stale: drift.stale.length,
            differing: drift.differing.length,
            extra: drift.extra.length,
            engineDocuments: drift.engineDocuments,
            versionMismatch,
            backwards,
            searches: Object.values(poller.statuses).reduce((a, v) => a + v, 0),
            searchStatuses: Object.entries(poller.statuses).map(([k, v]) => `${k}x${v}`).join(','),
            searchBackends: Object.entries(poller.backends).map(([k, v]) => `${k}x${v}`).join(','),
            searchNoAnswer: poller.noAnswer(),
            searchTimedOut: poller.timedOut(),
            answersByPhase: poller.phases(),
            serverErrors,
            lastBackend: last.headers.get('x-search-backend') ?? 'none',
          };
          const pass =
            killed.opensearch === rounds && killed.indexer === rounds && killed.api === rounds &&
            midBatch.opensearch + midBatch.indexer + midBatch.api === rounds * 3 &&
            droppedWhileDown === 0 && notCaughtUp === 0 &&
            drift.missing.length + drift.stale.length + drift.differing.length + drift.extra.length === 0 &&
            drift.engineDocuments === n && drift.sampled === n && versionMismatch === 0 && backwards === 0 &&
            serverErrors === 0 && poller.timedOut() === 0 && (poller.backends.none ?? 0) === 0 && (poller.statuses[200] ?? 0) > 0 && last.status === 200 && measured.lastBackend === 'opensearch';
          return { measured, pass };
        },
        { SEARCH_BACKEND: 'opensearch', SEARCH_OPENSEARCH_URL: url, SEARCH_OPENSEARCH_RETRY_MS: '300', PGAPPNAME: API_APP },
      );
    } finally {
      if (indexer) {
        indexer.kill('SIGKILL');
        await exitOf(indexer);
      }
      await first.catch(() => undefined);
      await node?.stop();
      fs.rmSync(osDir, { recursive: true, force: true });
    }
  },
};
