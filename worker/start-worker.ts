// The worker process's one entry point: every piece it runs, built from its configuration. The
// intake worker (TEMPORAL_TASK_QUEUE), the webhook worker (WEBHOOK_TASK_QUEUE, slots of its own),
// the webhook dispatcher, the retention sweeps and /metrics; WORKER_ROLE=intake or webhooks runs
// one side only (intake with the sweeps, webhooks with the dispatcher), each with /metrics. worker/main.ts and the tests' stack
// start exactly this, so tests run what production runs.
import type { Worker } from '@temporalio/worker';
import { Registry } from 'prom-client';
import type { PromotionHooks } from '../activities/promote-to-media-store';
import { purgeStagedPastRetention } from '../activities/purge-staged';
import type { DelivererTiming } from '../activities/webhooks';
import { databaseUrlOf, webhookPolicyOf, type WorkerConfig } from '../lib/config';
import { createSql } from '../lib/db';
import { createDecisionVerifier } from '../lib/intake/decision-proof';
import { transitionsWritten } from '../lib/intake/transitions';
import { deliveryAttempts } from '../lib/webhooks/deliveries';
import type { Logger } from '../lib/logger';
import { createObjectStore } from '../lib/storage';
import { loadWebhookSecretBox } from '../lib/webhooks/secret-box';
import { listenForDeliveries } from '../lib/webhooks/wakeups';
import { connectWorkerConnection, createTemporalClient, temporalDataConverter } from '../temporal/connection';
import { defaultWebhookTaskQueue } from '../workflows/messages';
import { createIntakeWorker, createWebhookWorker } from './create-worker';
import { killOncePerSubmission } from './fault-hooks';
import { startWorkerMetricsServer } from './metrics';
import { startReconciler, type Reconciler } from './reconciler';
import { createRefusalSink } from './refusal-sink';
import { startRetentionSweeps } from './retention';
import { startWebhookDispatcher } from './webhook-dispatcher';
import { deploymentOptionsOf } from './versioning';
import { resolveWorkflowBundle } from './workflow-bundle';
import { watchWorkflowThreads, type WorkflowWatchdog } from './workflow-watchdog';

export interface StartWorkerOptions {
  /** The SDK's Prometheus exporter (Runtime telemetry), merged into /metrics when WORKER_METRICS_PORT is set. */
  coreMetricsAddress?: string | undefined;
  /** Promotion hooks (tests); FAULT_KILL_AFTER_MEDIA_COPY sets the fault suite's. */
  hooks?: PromotionHooks | undefined;
  /** An endpoint's delivery workflow ends after this many quiet seconds (default 300). */
  laneIdleSeconds?: number;
  /** How endpoint deliverers pace themselves (tests shorten it; activities/webhooks.ts DELIVERER_TIMING). */
  delivererTiming?: Partial<DelivererTiming> | undefined;
  /**
   * The workflow thread made no progress for WORKER_STALL_SECONDS (worker/workflow-watchdog.ts):
   * the workers were told to stop polling; worker/main.ts then exits for the supervisor.
   */
  onStall?: (() => void) | undefined;
}

export interface RunningWorker {
  identity: string;
  /** WORKER_ROLE: what this process runs (all, intake, webhooks). */
  role: WorkerConfig['WORKER_ROLE'];
  taskQueue: string;
  webhookTaskQueue: string;
  /** The /metrics URL when WORKER_METRICS_PORT is set. */
  metricsUrl: string | undefined;
  /** Resolves when both workers stopped (after SIGTERM / SIGINT or stop()); rejects when one failed on its own. */
  finished: Promise<void>;
  /** Stop polling, drain in-flight tasks, then close every connection. Idempotent. */
  stop(): Promise<void>;
  /**
   * Tell the endpoint deliverers to finish their attempts in flight and hand over (stop() does it
   * first too). For a shutdown that the SDK starts on a signal, before it drains the workers.
   */
  handOverDeliveries(): void;
  /** One reconciler pass now (the intake side; tests): the submissions resumed. */
  reconcile(): Promise<string[]>;
  /** How the workflow threads are doing (activations in flight, the oldest's age, a stall seen). */
  watchdog: WorkflowWatchdog;
}

export async function startWorker(cfg: WorkerConfig, log: Logger, opts: StartWorkerOptions = {}): Promise<RunningWorker> {
  const workflowBundle = await resolveWorkflowBundle(cfg, log);
  const deployment = deploymentOptionsOf(cfg, workflowBundle);
  const sql = createSql(databaseUrlOf(cfg), { max: cfg.DATABASE_POOL_MAX, directUrl: cfg.DATABASE_DIRECT_URL });
  const closers: (() => Promise<unknown>)[] = [() => sql.end({ timeout: 5 })];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch((err: unknown) => log.warn({ err }, 'closing a worker piece failed'));
  };
  try {
    const connection = await connectWorkerConnection(cfg);
    closers.push(() => connection.close());
    const store = createObjectStore(cfg);
    const hooks = opts.hooks ?? (cfg.FAULT_KILL_AFTER_MEDIA_COPY ? killOncePerSubmission(cfg.DATA_DIR) : undefined);
    const role = cfg.WORKER_ROLE;
    const runsIntake = role !== 'webhooks';
    const runsWebhooks = role !== 'intake';
    // Deliverers hear of their endpoints' new deliveries here, and stop first when the process stops.
    const wakeups = runsWebhooks ? await listenForDeliveries(sql) : undefined;
    if (wakeups) closers.push(() => wakeups.close());
    const stopDeliverers = new AbortController();
    const webhooks = {
      sql,
      policy: webhookPolicyOf(cfg),
      secrets: loadWebhookSecretBox(cfg),
      publicBaseUrl: (cfg.PUBLIC_BASE_URL ?? `http://127.0.0.1:${cfg.PORT}`).replace(/\/$/, ''),
      wakeups,
      stopping: stopDeliverers.signal,
      log,
      ...(opts.delivererTiming ? { timing: opts.delivererTiming } : {}),
    };
    const base = { connection, namespace: cfg.TEMPORAL_NAMESPACE, dataConverter: temporalDataConverter(cfg), workflowBundle, shutdownGraceMs: cfg.WORKER_SHUTDOWN_GRACE_MS, isolateTimeoutSeconds: cfg.WORKER_ISOLATE_TIMEOUT_SECONDS, deployment };
    const webhookTaskQueue = cfg.WEBHOOK_TASK_QUEUE ?? defaultWebhookTaskQueue(cfg.TEMPORAL_TASK_QUEUE);
    const registry = new Registry();
    registry.registerMetric(transitionsWritten); // the transitions this worker writes
    registry.registerMetric(deliveryAttempts); // the webhook attempts it makes
    const decisions = await createDecisionVerifier(cfg);
    const refusals = createRefusalSink({ sql, log, registry });
    closers.push(() => refusals.drained());
    const workers: Worker[] = [];
    if (runsIntake)
      workers.push(
        await createIntakeWorker({
          ...base,
          taskQueue: cfg.TEMPORAL_TASK_QUEUE,
          limits: { maxConcurrentActivities: cfg.WORKER_MAX_CONCURRENT_ACTIVITIES, maxConcurrentWorkflowTasks: cfg.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS, maxCachedWorkflows: cfg.WORKER_MAX_CACHED_WORKFLOWS },
          deps: { sql, store, maxImagePixels: cfg.MAX_IMAGE_PIXELS, decisions, log, ...(hooks ? { hooks } : {}) },
          webhooks,
          sinks: refusals.sinks,
        }),
      );
    if (runsWebhooks)
      workers.push(
        await createWebhookWorker({
          ...base,
          taskQueue: webhookTaskQueue,
          limits: {
            maxConcurrentActivities: cfg.WEBHOOK_WORKER_MAX_CONCURRENT_ACTIVITIES,
            maxConcurrentWorkflowTasks: cfg.WEBHOOK_WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
            maxCachedWorkflows: Math.min(cfg.WORKER_MAX_CACHED_WORKFLOWS, 200),
          },
          webhooks,
        }),
      );
    // Every activation timed; a wedged workflow thread stops the workers (their heartbeats then say
    // "shutting down", which readiness reads) and the process exits for its supervisor.
    const watchdog = watchWorkflowThreads(workers, {
      stallSeconds: cfg.WORKER_STALL_SECONDS,
      registry,
      onStall: (s) => {
        log.fatal({ ...s, stallSeconds: cfg.WORKER_STALL_SECONDS }, 'workflow thread stalled: an activation has been in flight past WORKER_STALL_SECONDS; stopping the workers for the supervisor to restart this process');
        for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
        opts.onStall?.();
      },
    });
    closers.push(async () => watchdog.stop());
    // They poll from here on; the first to fail ends `finished`, and stop() ends the other.
    let reconciler: Reconciler | undefined;
    const runs = workers.map((w) => w.run());
    const finished = Promise.all(runs).then(() => undefined);
    finished.catch(() => {});
    closers.push(async () => {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await Promise.allSettled(runs);
    });
    // Runs before the workers' shutdown: deliverers finish their attempts in flight and hand over.
    closers.push(async () => stopDeliverers.abort());

    if (runsWebhooks) {
      const temporal = createTemporalClient(cfg, 'worker');
      closers.push(() => temporal.connection.close());
      const dispatcher = await startWebhookDispatcher({
        sql,
        client: temporal.client,
        taskQueue: webhookTaskQueue,
        retry: { initialSeconds: cfg.WEBHOOK_RETRY_INITIAL_SECONDS, maxIntervalSeconds: cfg.WEBHOOK_RETRY_MAX_INTERVAL_SECONDS, windowSeconds: cfg.WEBHOOK_RETRY_WINDOW_SECONDS },
        concurrency: cfg.WEBHOOK_ENDPOINT_CONCURRENCY,
        sweepSeconds: cfg.WEBHOOK_SWEEP_SECONDS,
        idleSeconds: opts.laneIdleSeconds ?? 300,
        log,
      });
      closers.push(() => dispatcher.stop());
    }
    if (runsIntake) {
      const retention = startRetentionSweeps({
        purge: purgeStagedPastRetention({ sql, store }),
        retentionSeconds: cfg.STAGING_RETENTION_SECONDS,
        everySeconds: cfg.RETENTION_SWEEP_SECONDS,
        log,
      });
      closers.push(() => retention.stop());
      const temporal = createTemporalClient(cfg, 'worker');
      closers.push(() => temporal.connection.close());
      reconciler = startReconciler({
        sql,
        client: temporal.client,
        taskQueue: cfg.TEMPORAL_TASK_QUEUE,
        everySeconds: cfg.RECONCILE_SECONDS,
        rowsPerPass: cfg.RECONCILE_ROWS_PER_PASS,
        decisionKeys: decisions.decisionKeys,
        log,
        registry,
      });
      const r = reconciler;
      closers.push(() => r.stop());
    }
    const metrics = cfg.WORKER_METRICS_PORT
      ? await startWorkerMetricsServer({
          host: cfg.WORKER_METRICS_HOST,
          port: cfg.WORKER_METRICS_PORT,
          coreMetricsAddress: opts.coreMetricsAddress,
          token: cfg.METRICS_TOKEN,
          production: cfg.NODE_ENV === 'production',
          registry,
        })
      : undefined;
    if (metrics) closers.push(() => metrics.close());

    let stopping: Promise<void> | undefined;
    return {
      identity: workers[0]!.options.identity,
      role,
      taskQueue: cfg.TEMPORAL_TASK_QUEUE,
      webhookTaskQueue,
      metricsUrl: metrics?.url,
      finished,
      stop: () => (stopping ??= closeAll()),
      handOverDeliveries: () => stopDeliverers.abort(),
      reconcile: () => reconciler?.pass() ?? Promise.resolve([]),
      watchdog,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
