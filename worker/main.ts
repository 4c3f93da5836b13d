// The Temporal worker process: parse config, install the runtime, start every piece, shut down cleanly.
import { Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { ConfigError, databaseWhereOf, loadConfigOrExit, unreachableAt, temporalAddressOf, workerConfigSchema } from '../lib/config';
import { createLogger } from '../lib/logger';
import { freePort } from '../lib/net/free-port';
import { EXIT_UNCAUGHT, installProcessGuard } from '../lib/process-guard';
import { takeNoArguments } from '../lib/process-args';
import { requireProjectNode } from '../lib/node-version';
import { startWorker, type RunningWorker } from './start-worker';

requireProjectNode('worker');
takeNoArguments({
  what: 'The Temporal worker process: the intake and webhook workflows and activities, the dispatcher, the retention sweeps and metrics. It connects to PostgreSQL (DATABASE_URL) and Temporal (TEMPORAL_ADDRESS); `npm start` runs it with the embedded stack.',
  command: 'npm run worker',
  schema: workerConfigSchema,
});
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

let worker: RunningWorker;
/** A wedged workflow thread: the workers were told to stop; exit 70 once they have, or after the grace at most. */
const onStall = () => {
  setTimeout(() => process.exit(EXIT_UNCAUGHT), cfg.WORKER_SHUTDOWN_GRACE_MS + 5000).unref();
};
try {
  worker = await startWorker(cfg, log, { coreMetricsAddress, onStall });
} catch (err) {
  const unreachable = unreachableAt(err, cfg);
  if (unreachable) {
    process.stderr.write(`worker: ${unreachable}\n`);
    process.exit(69); // EX_UNAVAILABLE
  }
  // No prebuilt workflow bundle in production: a configuration error (78), not a crash to retry.
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(err.message + '\n');
  process.exit(78);
}
// The queues this process polls (WORKER_ROLE): intake's, the webhook lane's, or both.
const queues = {
  ...(worker.role !== 'webhooks' ? { taskQueue: worker.taskQueue } : {}),
  ...(worker.role !== 'intake' ? { webhookTaskQueue: worker.webhookTaskQueue } : {}),
};
log.info({ ...databaseWhereOf(cfg), temporalAddress: temporalAddressOf(cfg), namespace: cfg.TEMPORAL_NAMESPACE, role: worker.role, ...queues, identity: worker.identity }, 'worker polling');
if (worker.metricsUrl) log.info({ url: worker.metricsUrl }, 'worker metrics');

// Runtime.install registers SIGINT/SIGTERM: both workers stop polling, drain in-flight tasks, and
// `finished` resolves; then the dispatcher, the sweeps, the connections and the pool are closed.
// The endpoint deliverers run until told: on the same signal they finish their attempts in flight
// and hand over, so the drain does not wait out WORKER_SHUTDOWN_GRACE_MS for them.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => worker.handOverDeliveries());
let failed: unknown;
try {
  await worker.finished;
} catch (err) {
  // A worker stopped on its own (a fatal error in the SDK's core): a state it cannot recover
  // from in this process. Clean up, then exit non-zero so that the supervisor restarts it.
  failed = err;
  log.fatal({ err: { name: (err as Error).name, message: (err as Error).message } }, 'worker failed');
} finally {
  await worker.stop();
  log.info('worker stopped');
}
if (failed || worker.watchdog.stalled()) process.exit(EXIT_UNCAUGHT);
