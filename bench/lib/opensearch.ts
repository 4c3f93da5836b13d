// The OpenSearch side of the directory bench (issue 45, `--opensearch`): a node on the bench's
// corpus (built from search_documents by the same rebuild `npm run search -- reindex` runs: the
// indexing throughput), an API process answering /search from it (its own indexer on), and the
// time from a studio update to its search hit through the change log.
//
// The index has one primary shard per core of this machine: a search runs on every shard at once,
// one thread each, so a query in flight alone uses every core (docs/deploy.md, "Shards and
// replicas"). On 2 cores at 1M the relevance page of `fine line` (481,345 matches, 86,944 of them
// tied at the best score, so Lucene scores every one for the quality, type and id tie-break) took
// 54-64 ms on one shard and 31-32 ms on two. The bench pins itself to one core (taskset) and a
// child inherits that, so the node is given every core back, every thread of it.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../lib/net/free-port';
import type { Sql } from '../../lib/db';
import { rebuild } from '../../lib/search-engine/indexer';
import { installOpenSearch, opensearchInstalled } from '../../scripts/tools/opensearch';
import { startOpenSearchNode } from '../../scripts/tools/opensearch-node';
import { hasTaskset, spawnNode, stopChild, waitLive } from './stack';
import { round, summarize } from './stats';

/** Dirty pages waiting to be written (MB, /proc/meminfo; 0 where there is none). */
function dirtyMb(): number {
  const m = /^Dirty:\s+(\d+) kB/m.exec(fs.existsSync('/proc/meminfo') ? fs.readFileSync('/proc/meminfo', 'utf8') : '');
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

export async function startBenchOpenSearch(sql: Sql, dbUrl: string, dir: string, log: (s: string) => void) {
  if (!opensearchInstalled()) log(`OpenSearch: ${installOpenSearch().detail}\n`);
  const dataDir = path.join(dir, 'opensearch');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const node = await startOpenSearchNode({ dataDir, heapMb: 2048 });
  // os.cpus(), not availableParallelism(), which counts only the bench's own (pinned) core
  const cores = os.cpus().length;
  if (hasTaskset()) execFileSync('taskset', ['-acp', `0-${cores - 1}`, String(node.pid)], { stdio: 'ignore' });
  const engine = { url: node.url, alias: 'directory-search', timeoutMs: 120_000 };
  log('building the OpenSearch index from search_documents ... ');
  const shards = Math.max(1, Math.min(cores, 8));
  const built = await rebuild(sql, engine, { shards, replicas: 0 });
  if (built === 'present') throw new Error('unreachable: a rebuild without onlyIfMissing always builds');
  const indexing = { shards, documents: built.documents, build_s: round(built.ms / 1000, 1), docs_per_s: Math.round(built.documents / (built.ms / 1000)) };
  log(`${indexing.build_s} s (${built.documents.toLocaleString('en-US')} documents, ${indexing.docs_per_s} documents/s, ${shards} shards: one per core)\n`);
  await fetch(`${node.url}/${engine.alias}/_forcemerge?max_num_segments=1`, { method: 'POST', signal: AbortSignal.timeout(600_000) });
  // Measured as it serves, not while its merged segments are still being written out (the log says
  // how much was waiting to be written).
  const settle = performance.now();
  const dirty = dirtyMb();
  await fetch(`${node.url}/${engine.alias}/_flush`, { method: 'POST', signal: AbortSignal.timeout(600_000) });
  spawnSync('sync', { timeout: 600_000 });
  log(`  index merged and written out (${dirty} MB of the machine's dirty pages before, ${round((performance.now() - settle) / 1000, 1)} s)\n`);
  const port = await freePort();
  const api = spawnNode('api/main.ts', {
    NODE_ENV: 'development',
    PORT: String(port),
    LOG_LEVEL: 'info',
    DATABASE_URL: dbUrl,
    DATABASE_POOL_MAX: '10',
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    DATA_DIR: path.join(dir, 'data-opensearch'),
    RATE_LIMITS_ENABLED: 'false',
    SEARCH_BACKEND: 'opensearch',
    SEARCH_OPENSEARCH_URL: node.url,
  }, '0');
  const url = `http://127.0.0.1:${port}`;
  await waitLive(url, 60_000);
  return {
    url,
    indexing,
    /** Update a studio's name to a new word, then poll /search for it: the feed's end-to-end latency, `samples` times. */
    async updateToHit(key: string, samples = 20) {
      const ms: number[] = [];
      const [studio] = await sql<{ id: string; name: string }[]>`select id, name from studios where visibility = 'public' and is_active order by id limit 1`;
      for (let i = 0; i < samples; i++) {
        const word = `zqbench${Date.now().toString(36)}${i}`;
        const t = performance.now();
        await sql`update studios set name = ${`${studio!.name} ${word}`} where id = ${studio!.id}`;
        for (let k = 0; k < 3000; k++) {
          const r = await fetch(`${url}/api/v1/search?q=${word}&type=studio`, { headers: { 'x-api-key': key } });
          const body = (await r.json()) as { data: { total: number } };
          if (r.headers.get('x-search-backend') === 'opensearch' && body.data.total === 1) break;
          await new Promise((res) => setTimeout(res, 10));
        }
        ms.push(performance.now() - t);
      }
      await sql`update studios set name = ${studio!.name} where id = ${studio!.id}`;
      const s = summarize(ms);
      return { samples: s.n, update_to_hit_p50_ms: s.p50, update_to_hit_p95_ms: s.p95 };
    },
    async stop() {
      await stopChild(api);
      await node.stop();
    },
  };
}
