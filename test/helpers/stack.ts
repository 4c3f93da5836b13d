// A test's own slice of the real stack: a fresh database cloned from the migrated template, a
// task queue of its own on the shared Temporal dev server, the API on port 0, and a worker.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import postgres from 'postgres';
import { inject } from 'vitest';
import { startApi, type RunningApi } from '../../api/server';
import { Client, Connection } from '@temporalio/client';
import { apiConfigSchema, parseConfig, webhookPolicyOf, workerConfigSchema, type ApiConfig } from '../../lib/config';
import { createSql, type Sql } from '../../lib/db';
import { createLogger } from '../../lib/logger';
import { createObjectStore } from '../../lib/storage';
import type { PromotionHooks } from '../../activities/promote-to-media-store';
import { createIntakeWorker } from '../../worker/create-worker';
import { createDecisionVerifier } from '../../lib/intake/decision-proof';
import { startWebhookDispatcher } from '../../worker/webhook-dispatcher';
import { loadWebhookSecretBox } from '../../lib/webhooks/secret-box';

let runtimeInstalled = false;
function quietRuntime() {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const noop = () => {};
  // Heartbeats as often as the worker process's default: readiness counts workers alive by them.
  Runtime.install({ logger: { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop }, shutdownSignals: [], workerHeartbeatInterval: '2s' });
}

export function uid(prefix = ''): string {
  return prefix + crypto.randomBytes(6).toString('hex');
}

export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = uid('t_');
  const admin = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${inject('templateDb')}`);
  await admin.end();
  const url = inject('pgAdminUrl').replace(/\/postgres$/, `/${name}`);
  return {
    url,
    async drop() {
      const a = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export interface TestStack {
  url: string;
  api: RunningApi;
  cfg: ApiConfig;
  sql: Sql;
  dataDir: string;
  taskQueue: string;
  startWorker(hooks?: PromotionHooks): Promise<void>;
  stopWorker(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestStack(
  opts: { worker?: boolean; env?: Record<string, string>; databaseUrl?: string; logDestination?: { write(line: string): void } } = {},
): Promise<TestStack> {
  quietRuntime();
  const db = opts.databaseUrl ? undefined : await createTestDatabase();
  const databaseUrl = opts.databaseUrl ?? db!.url;
  const taskQueue = uid('tq-');
  const dataDir = path.join(inject('tmpRoot'), uid('data-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const env = {
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: taskQueue,
    DATA_DIR: dataDir,
    // Tests send bursts on purpose; the rate-limit tests turn the limiter on.
    RATE_LIMITS_ENABLED: 'false',
    ...opts.env,
  };
  const cfg = parseConfig(apiConfigSchema, env);
  const workerCfg = parseConfig(workerConfigSchema, env);
  const log = createLogger({ name: 'test-api', level: cfg.LOG_LEVEL, ...(opts.logDestination ? { destination: opts.logDestination } : {}) });
  const api = await startApi(cfg, log, { migrate: false });
  const sql = createSql(databaseUrl, { max: 4 });

  let worker: { w: Worker; run: Promise<void>; conn: NativeConnection; sql: Sql; dispatcher: { stop(): Promise<void> }; client: Connection } | undefined;
  const stack: TestStack = {
    url: api.url,
    api,
    cfg,
    sql,
    dataDir,
    taskQueue,
    async startWorker(hooks) {
      if (worker) return;
      const conn = await NativeConnection.connect({ address: inject('temporalAddress') });
      const wsql = createSql(databaseUrl, { max: 5 });
      const w = await createIntakeWorker({
        connection: conn,
        namespace: 'default',
        taskQueue,
        deps: {
          sql: wsql,
          store: createObjectStore(cfg),
          // The API's public key: the worker verifies the decisions the API signs.
          decisions: await createDecisionVerifier({ DECISION_VERIFY_KEY: api.deps.decisionSigner.publicKeyPem, DATA_DIR: dataDir }),
          log: createLogger({ name: 'test-worker', level: cfg.LOG_LEVEL, ...(opts.logDestination ? { destination: opts.logDestination } : {}) }),
          ...(hooks ? { hooks } : {}),
        },
        workflowBundle: { codePath: inject('workflowBundlePath') },
        shutdownGraceMs: 2000,
        // The worker's own key, as worker/main.ts loads it (the same file under DATA_DIR as the API's).
        webhooks: { policy: webhookPolicyOf(workerCfg), secrets: loadWebhookSecretBox(workerCfg), publicBaseUrl: api.deps.publicBaseUrl },
      });
      const client = await Connection.connect({ address: inject('temporalAddress') });
      const dispatcher = await startWebhookDispatcher({
        sql: wsql,
        client: new Client({ connection: client }),
        taskQueue,
        retry: { initialSeconds: workerCfg.WEBHOOK_RETRY_INITIAL_SECONDS, maxIntervalSeconds: workerCfg.WEBHOOK_RETRY_MAX_INTERVAL_SECONDS, windowSeconds: workerCfg.WEBHOOK_RETRY_WINDOW_SECONDS },
        sweepSeconds: workerCfg.WEBHOOK_SWEEP_SECONDS,
        idleSeconds: 30,
        log: createLogger({ name: 'test-dispatcher', level: 'silent' }),
      });
      worker = { w, run: w.run(), conn, sql: wsql, dispatcher, client };
    },
    async stopWorker() {
      if (!worker) return;
      const { w, run, conn, sql: wsql, dispatcher, client } = worker;
      worker = undefined;
      await dispatcher.stop();
      await client.close();
      w.shutdown();
      await run;
      await conn.close();
      await wsql.end({ timeout: 5 });
    },
    async stop() {
      await stack.stopWorker();
      await api.stop();
      await sql.end({ timeout: 5 });
      await db?.drop();
    },
  };
  if (opts.worker ?? true) await stack.startWorker();
  return stack;
}

/** Poll fn until it returns a truthy value, bounded in time. */
export async function eventually<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 20_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
}
