// A test's own slice of the real stack: a fresh database cloned from the migrated template, a
// task queue of its own on the shared Temporal dev server, the API on port 0, and a worker.
import { clientTlsEnv } from '../../temporal/cluster-tls';
import type { DelivererTiming } from '../../activities/webhooks';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Runtime } from '@temporalio/worker';
import postgres from 'postgres';
import { inject } from 'vitest';
import { startApi, type RunningApi } from '../../api/server';
import { apiConfigSchema, parseConfig, workerConfigSchema, type ApiConfig } from '../../lib/config';
import { createSql, type Sql } from '../../lib/db';
import { createLogger } from '../../lib/logger';
import type { PromotionHooks } from '../../activities/promote-to-media-store';
import { startWorker, type RunningWorker } from '../../worker/start-worker';
import { defaultWebhookTaskQueue } from '../../workflows/messages';

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
  /** The webhook lane's task queue (WEBHOOK_TASK_QUEUE or the default beside taskQueue). */
  webhookTaskQueue: string;
  startWorker(hooks?: PromotionHooks): Promise<void>;
  stopWorker(): Promise<void>;
  /** One more worker on the same queues, configured as the stack's with `env` on top (the caller stops it). */
  startWorkerWith(env: Record<string, string>): Promise<RunningWorker>;
  stop(): Promise<void>;
  /** One pass of the running worker's reconciler now: the submissions it resumed. */
  reconcile(): Promise<string[]>;
}

export async function startTestStack(
  opts: {
    worker?: boolean;
    env?: Record<string, string>;
    databaseUrl?: string;
    logDestination?: { write(line: string): void };
    /** How the webhook deliverers pace themselves (activities/webhooks.ts DELIVERER_TIMING), shortened by a test. */
    delivererTiming?: Partial<DelivererTiming>;
  } = {},
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
    // TEST_TEMPORAL=server: the real server's mTLS (a client certificate of its client CA).
    ...(inject('temporalTls') ? clientTlsEnv(inject('temporalTls')!) : {}),
    TEMPORAL_TASK_QUEUE: taskQueue,
    DATA_DIR: dataDir,
    // Tests send bursts on purpose; the rate-limit tests turn the limiter on.
    RATE_LIMITS_ENABLED: 'false',
    // The fixtures' images look alike (jpegBytes: one picture, padded), so under the second-review
    // policy's default every approval beside another artist's submission would wait for a second
    // operator. The tests of similar images and of the second review turn it on.
    SECOND_REVIEW_SIMILAR_MATCHES: 'false',
    ...opts.env,
  };
  const cfg = parseConfig(apiConfigSchema, env);
  const destination = opts.logDestination ? { destination: opts.logDestination } : {};
  const log = createLogger({ name: 'test-api', level: cfg.LOG_LEVEL, ...destination });
  const api = await startApi(cfg, log, { migrate: false });
  const sql = createSql(databaseUrl, { max: 4 });
  const workerEnv = {
    WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
    WORKER_SHUTDOWN_GRACE_MS: '2000',
    DATABASE_POOL_MAX: '5',
    ...env,
    // The API's public key: the worker verifies the decisions the API signs.
    DECISION_VERIFY_KEY: api.deps.decisionSigner.publicKeyPem,
    PUBLIC_BASE_URL: api.deps.publicBaseUrl,
  };
  const workerCfg = parseConfig(workerConfigSchema, workerEnv);
  const workerLog = createLogger({ name: 'test-worker', level: cfg.LOG_LEVEL, ...destination });

  let worker: RunningWorker | undefined;
  const stack: TestStack = {
    url: api.url,
    api,
    cfg,
    sql,
    dataDir,
    taskQueue,
    webhookTaskQueue: workerCfg.WEBHOOK_TASK_QUEUE ?? defaultWebhookTaskQueue(taskQueue),
    async startWorker(hooks) {
      if (worker) return;
      // What production starts (worker/start-worker.ts), configured as worker/main.ts would be:
      // the API's public decision key and base URL, the run's prebuilt workflow bundle.
      worker = await startWorker(workerCfg, workerLog, { hooks, laneIdleSeconds: 30, delivererTiming: opts.delivererTiming });
    },
    async startWorkerWith(extra) {
      return startWorker(parseConfig(workerConfigSchema, { ...workerEnv, ...extra }), workerLog, { laneIdleSeconds: 30, delivererTiming: opts.delivererTiming });
    },
    async stopWorker() {
      if (!worker) return;
      const w = worker;
      worker = undefined;
      await w.stop();
    },
    async reconcile() {
      if (!worker) throw new Error('no worker running');
      return worker.reconcile();
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

export { eventually } from './eventually';
