// The API's side of the search engine: the engine's address, the short pause after a failure
// (every /search goes straight to PostgreSQL meanwhile, instead of waiting on a dead engine), the
// indexer this process runs (when SEARCH_INDEXER), and what /health and /metrics report.
import type { ApiConfig } from '../config';
import { createSql, type Sql } from '../db';
import type { Logger } from '../logger';
import { clusterHealth } from './admin';
import type { EngineConfig } from './client';
import { ensureIndex, feedLag, startIndexer } from './indexer';

export interface SearchEngineRuntime {
  engine: EngineConfig;
  /** The engine is skipped until this time (ms); 0: try it. */
  downUntil: number;
  lastError: string | undefined;
  retryMs: number;
  /** The engine answered a health call within the timeout (green or yellow). */
  probe(): Promise<{ ok: boolean; status: string | undefined }>;
  lag(): Promise<{ pending: number; lagSeconds: number; enabled: boolean }>;
  stop(): Promise<void>;
}

export function createSearchEngineRuntime(sql: Sql, cfg: ApiConfig, log: Logger): SearchEngineRuntime | undefined {
  if (cfg.SEARCH_BACKEND !== 'opensearch' || !cfg.SEARCH_OPENSEARCH_URL) return undefined;
  const engine: EngineConfig = { url: cfg.SEARCH_OPENSEARCH_URL.replace(/\/$/, ''), alias: cfg.SEARCH_OPENSEARCH_ALIAS, timeoutMs: cfg.SEARCH_OPENSEARCH_TIMEOUT_MS };
  const shape = { shards: cfg.SEARCH_OPENSEARCH_SHARDS, replicas: cfg.SEARCH_OPENSEARCH_REPLICAS };
  let indexer: { stop(): Promise<void> } | undefined;
  let stopped = false;
  // A build holds session-level advisory locks and a snapshot across statements: behind a pooler in
  // transaction mode (DATABASE_DIRECT_URL set) the indexer connects directly, as LISTEN does.
  const indexSql = cfg.SEARCH_INDEXER && cfg.DATABASE_DIRECT_URL ? createSql(cfg.DATABASE_DIRECT_URL, { max: 3 }) : sql;
  if (cfg.SEARCH_INDEXER) {
    // The index is made (or found) first, then the log drained; an engine that is away is retried.
    const indexing = { ...engine, timeoutMs: Math.max(engine.timeoutMs, 30_000) };
    void (async () => {
      for (let attempt = 0; !stopped; attempt++) {
        try {
          const made = await ensureIndex(indexSql, indexing, shape, (line) => log.info({ line }, 'search index build'));
          log.info({ alias: engine.alias, made }, 'search index ready; indexer running');
          break;
        } catch (err) {
          if (attempt % 10 === 0) log.warn({ reason: (err as Error).message }, 'search index not ready; retrying');
          await new Promise((r) => setTimeout(r, 2000));
        }
      }
      if (!stopped) indexer = startIndexer(indexSql, indexing, { onError: (err) => log.warn({ reason: err.message }, 'search indexer batch failed; retrying') });
    })();
  }
  return {
    engine,
    downUntil: 0,
    lastError: undefined,
    retryMs: cfg.SEARCH_OPENSEARCH_RETRY_MS,
    async probe() {
      const status = await clusterHealth(engine);
      return { ok: status === 'green' || status === 'yellow', status };
    },
    lag: () => feedLag(sql),
    async stop() {
      stopped = true;
      await indexer?.stop();
      if (indexSql !== sql) await indexSql.end({ timeout: 5 });
    },
  };
}
