// `npm run search -- <command>`: the OpenSearch index of search_documents (issue 45).
import { z } from 'zod';
import { parseCli, usageOf } from '../lib/cli';
import { databaseUrlOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { searchEngineFields } from '../lib/config/schema';
import { readRunFile } from '../lib/stack-run';
import { createSql } from '../lib/db';
import type { EngineConfig } from '../lib/search-engine/client';
import { compare } from '../lib/search-engine/compare';
import { drainOnce, feedLag, rebuild, startIndexer } from '../lib/search-engine/indexer';

const ABOUT = `Commands:
  reindex   build a new index from a snapshot of search_documents, then move the read alias onto it (answers never pause)
  compare   sample documents on both sides and report drift (exit 1 when any)
  index     run the indexer: drain the change log into the index until stopped (SIGINT/SIGTERM)
  drain     drain the change log once, until it is empty, and exit
  status    the change log's pending changes and lag

DATABASE_URL (or the embedded stack's) and SEARCH_OPENSEARCH_URL (or --url; else the running stack's node, from DATA_DIR/stack.json) say where.`;
const OPTIONS = {
  url: { type: 'string', description: 'OpenSearch base URL (default: SEARCH_OPENSEARCH_URL, else the running stack\'s node)' },
  batch: { type: 'string', default: '500', description: 'index, drain: changes per batch (one transaction and one _bulk each)' },
  sample: { type: 'string', default: '500', description: 'compare: documents sampled on each side' },
  shards: { type: 'string', description: 'reindex: primary shards (default: SEARCH_OPENSEARCH_SHARDS)' },
  replicas: { type: 'string', description: 'reindex: replicas (default: SEARCH_OPENSEARCH_REPLICAS)' },
} as const;
const { values, positionals } = parseCli(ABOUT, 'npm run search --', { allowPositionals: true, options: OPTIONS });
const fail = (m: string): never => {
  console.error(`${m}\n\n${usageOf(ABOUT, 'npm run search --', OPTIONS, '[arguments]').slice(usageOf(ABOUT, 'npm run search --', OPTIONS, '[arguments]').indexOf('usage:'))}`);
  process.exit(64);
};
const [command] = positionals;
if (!command || !['reindex', 'compare', 'index', 'drain', 'status'].includes(command) || positionals.length !== 1) fail('give one command: reindex, compare, index, drain or status (--help)');

const cfg = loadConfigOrExit(toolConfigSchema);
const search = loadConfigOrExit(z.object(searchEngineFields));
// The running stack's node (`npm start -- --search opensearch` names it in DATA_DIR/stack.json), unless told.
const url = values.url ?? search.SEARCH_OPENSEARCH_URL ?? readRunFile(cfg.DATA_DIR)?.searchUrl;
const batch = Number(values.batch);
if (!Number.isInteger(batch) || batch < 1 || batch > 10_000) fail('--batch must be a whole number from 1 to 10000');
if (!url) fail('no OpenSearch: set SEARCH_OPENSEARCH_URL, give --url, or start the stack with npm start -- --search opensearch');
const engine: EngineConfig = { url: url!.replace(/\/$/, ''), alias: search.SEARCH_OPENSEARCH_ALIAS, timeoutMs: 60_000 };
const sql = createSql(databaseUrlOf(cfg), { max: 4 });
try {
  if (command === 'reindex') {
    const shape = { shards: Number(values.shards ?? search.SEARCH_OPENSEARCH_SHARDS), replicas: Number(values.replicas ?? search.SEARCH_OPENSEARCH_REPLICAS) };
    const r = await rebuild(sql, engine, shape, (line) => console.log(line));
    if (r === 'present') throw new Error('unreachable: a rebuild without onlyIfMissing always builds');
    console.log(`reindexed: ${r.documents} documents into ${r.index} (${shape.shards} shards, ${shape.replicas} replicas) in ${(r.ms / 1000).toFixed(1)} s; ${engine.alias} points at it`);
  } else if (command === 'compare') {
    const d = await compare(sql, engine, Number(values.sample));
    console.log(`documents: PostgreSQL ${d.postgresDocuments}, OpenSearch ${d.engineDocuments}; sampled ${d.sampled}`);
    for (const k of ['missing', 'stale', 'differing', 'extra'] as const) console.log(`  ${k.padEnd(9)} ${d[k].length}${d[k].length ? `: ${d[k].slice(0, 10).join(', ')}` : ''}`);
    const lag = await feedLag(sql);
    console.log(`  pending   ${lag.pending} changes, oldest ${lag.lagSeconds.toFixed(1)} s`);
    if (d.missing.length + d.stale.length + d.differing.length + d.extra.length > 0 || d.postgresDocuments !== d.engineDocuments) process.exitCode = 1;
  } else if (command === 'index') {
    const indexer = startIndexer(sql, engine, { batch: Number(values.batch), onError: (err) => console.error(`batch failed, retrying: ${err.message}`) });
    console.log(`indexing into ${engine.alias} at ${engine.url}; stop with SIGINT or SIGTERM`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await indexer.stop();
  } else if (command === 'drain') {
    let total = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const n = await drainOnce(sql, engine, Number(values.batch));
      total += n;
      if (n === 0) break;
    }
    console.log(`drained ${total} changes`);
  } else {
    const lag = await feedLag(sql);
    console.log(`feed ${lag.enabled ? 'on' : 'off'}; pending ${lag.pending} changes; oldest ${lag.lagSeconds.toFixed(1)} s`);
  }
} catch (err) {
  console.error(`error: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
