// The Temporal worker process: parse config, build deps, run, shut down cleanly.
import { Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { databaseUrlOf, loadConfigOrExit, temporalAddressOf, webhookPolicyOf, workerConfigSchema } from '../lib/config';
import { createSql } from '../lib/db';
import { createLogger } from '../lib/logger';
import { freePort } from '../lib/net/free-port';
import { createObjectStore } from '../lib/storage';
import { connectWorkerConnection, createTemporalClient } from '../temporal/connection';
import { createIntakeWorker } from './create-worker';
import { createDecisionVerifier } from '../lib/intake/decision-proof';
import { killOncePerSubmission } from './fault-hooks';
import { startWorkerMetricsServer } from './metrics';
import { startRetentionSweeps } from './retention';
import { startWebhookDispatcher } from './webhook-dispatcher';
import { purgeStagedPastRetention } from '../activities/purge-staged';
import { EXIT_UNCAUGHT, installProcessGuard } from '../lib/process-guard';
import { loadWebhookSecretBox } from '../lib/webhooks/secret-box';

const cfg = loadConfigOrExit(workerConfigSchema);
const log = createLogger({ name: `${cfg.SERVICE_NAME}-worker`, level: cfg.LOG_LEVEL, format: cfg.LOG_FORMAT, production: cfg.NODE_ENV === 'production' });
// A PostgreSQL crash must not take the worker with it (the postgres.js closed-socket fault is
// survived); anything else uncaught exits non-zero for the supervisor to restart it.
installProcessGuard({ log, name: 'worker' });
const coreMetricsAddress = cfg.WORKER_METRICS_PORT ? `127.0.0.1:${await freePort()}` : undefined;
Runtime.install({
  // Readiness counts a worker alive by its heartbeats (api/health/probes.ts workerPolls).
  workerHeartbeatInterval: cfg.WORKER_HEARTBEAT_SECONDS * 1000,
  logger: {
    log: (level, message, meta) => log[level.toLowerCase() as 'info']({ ...meta }, message),
    trace: (m, meta) => log.trace(meta ?? {}, m),
    debug: (m, meta) => log.debug(meta ?? {}, m),
    info: (m, meta) => log.info(meta ?? {}, m),
    warn: (m, meta) => log.warn(meta ?? {}, m),
    error: (m, meta) => log.error(meta ?? {}, m),
  },
  telemetryOptions: {
    logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) },
    // The SDK's Prometheus exporter on a loopback port of its own; /metrics (WORKER_METRICS_PORT) serves it.
    ...(coreMetricsAddress ? { metrics: { prometheus: { bindAddress: coreMetricsAddress, countersTotalSuffix: true, useSecondsForDurations: true } } } : {}),
  },
});

const address = temporalAddressOf(cfg);
const sql = createSql(databaseUrlOf(cfg), { max: cfg.DATABASE_POOL_MAX });
const connection = await connectWorkerConnection(cfg);
const store = createObjectStore(cfg);
const worker = await createIntakeWorker({
  connection,
  namespace: cfg.TEMPORAL_NAMESPACE,
  taskQueue: cfg.TEMPORAL_TASK_QUEUE,
  deps: { sql, store, maxImagePixels: cfg.MAX_IMAGE_PIXELS, decisions: await createDecisionVerifier(cfg), log, ...(cfg.FAULT_KILL_AFTER_MEDIA_COPY ? { hooks: killOncePerSubmission(cfg.DATA_DIR) } : {}) },
  workflowBundle: cfg.WORKFLOW_BUNDLE_PATH ? { codePath: cfg.WORKFLOW_BUNDLE_PATH } : undefined,
  maxConcurrentActivities: cfg.WORKER_MAX_CONCURRENT_ACTIVITIES,
  maxConcurrentWorkflowTasks: cfg.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
  shutdownGraceMs: cfg.WORKER_SHUTDOWN_GRACE_MS,
  maxCachedWorkflows: cfg.WORKER_MAX_CACHED_WORKFLOWS,
  webhooks: { policy: webhookPolicyOf(cfg), secrets: loadWebhookSecretBox(cfg), publicBaseUrl: (cfg.PUBLIC_BASE_URL ?? `http://127.0.0.1:${cfg.PORT}`).replace(/\/$/, '') },
});

// Runtime.install registers SIGINT/SIGTERM: the worker stops polling, drains in-flight tasks,
// and run() resolves; then the connection and the pool are closed.
log.info({ temporalAddress: address, namespace: cfg.TEMPORAL_NAMESPACE, taskQueue: cfg.TEMPORAL_TASK_QUEUE, identity: worker.options.identity }, 'worker polling');
const metrics = coreMetricsAddress
  ? await startWorkerMetricsServer({
      host: cfg.WORKER_METRICS_HOST,
      port: cfg.WORKER_METRICS_PORT,
      coreMetricsAddress,
      token: cfg.METRICS_TOKEN,
      production: cfg.NODE_ENV === 'production',
    })
  : undefined;
if (metrics) log.info({ url: metrics.url }, 'worker metrics');
const retention = startRetentionSweeps({
  purge: purgeStagedPastRetention({ sql, store }),
  retentionSeconds: cfg.STAGING_RETENTION_SECONDS,
  everySeconds: cfg.RETENTION_SWEEP_SECONDS,
  log,
});
const temporalClient = createTemporalClient(cfg);
const dispatcher = await startWebhookDispatcher({
  sql,
  client: temporalClient.client,
  taskQueue: cfg.TEMPORAL_TASK_QUEUE,
  retry: { initialSeconds: cfg.WEBHOOK_RETRY_INITIAL_SECONDS, maxIntervalSeconds: cfg.WEBHOOK_RETRY_MAX_INTERVAL_SECONDS, windowSeconds: cfg.WEBHOOK_RETRY_WINDOW_SECONDS },
  sweepSeconds: cfg.WEBHOOK_SWEEP_SECONDS,
  idleSeconds: 300,
  log,
});
let failed: unknown;
try {
  await worker.run();
} catch (err) {
  // The worker stopped on its own (a fatal error in the SDK's core): a state it cannot recover
  // from in this process. Clean up, then exit non-zero so that the supervisor restarts it.
  failed = err;
  log.fatal({ err: { name: (err as Error).name, message: (err as Error).message } }, 'worker failed');
} finally {
  await dispatcher.stop();
  await temporalClient.connection.close();
  await retention.stop();
  await metrics?.close();
  await connection.close();
  await sql.end({ timeout: 5 });
  log.info('worker stopped');
}
if (failed) process.exit(EXIT_UNCAUGHT);
