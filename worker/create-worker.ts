import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { DataConverter } from '@temporalio/common';
import { NativeConnection, Worker, type InjectedSinks, type WorkerDeploymentOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { createWebhookActivities, type WebhookActivityDeps } from '../activities/webhooks';
import { PROJECT_ROOT } from '../lib/config';
import type { IntakeSinks } from '../workflows/messages';

export const WORKFLOWS_PATH = path.join(PROJECT_ROOT, 'workflows', 'index.ts');

/**
 * How every bundle of the workflows is made (the worker at start, npm run build, the tests' and the
 * recorder's). The reusable V8 context evaluates the bundle's modules again for each run, except
 * those preloaded: loaded once per workflow thread and shared (frozen) by every run in it. Only
 * libraries that keep no per-run state are listed: zod (its module scope: ~3 ms a run) and the
 * Ed25519 verification a decision's Update validator runs (lib/intake/decision-check.ts), whose base
 * point table (~17 ms to build) was otherwise built again in every run. A module of ours is never
 * listed: its state would leak between runs.
 */
export const WORKFLOW_BUNDLE_OPTIONS: Readonly<{ workflowsPath: string; preloadModules: string[] }> = {
  workflowsPath: WORKFLOWS_PATH,
  preloadModules: [path.join(PROJECT_ROOT, 'workflows', 'preload.ts')],
};

/** Prebuilt workflow code (dist/workflow-bundle.js, or bundled once at start outside production): one bundle serves both workers. */
export type WorkflowBundle = { code: string } | { codePath: string };

export interface LaneLimits {
  maxConcurrentActivities: number;
  maxConcurrentWorkflowTasks: number;
  maxCachedWorkflows: number;
}

export interface CreateWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  /** Encrypts payloads (temporal/connection.ts temporalDataConverter): the same as every client's. */
  dataConverter: DataConverter;
  taskQueue: string;
  workflowBundle: WorkflowBundle;
  limits: LaneLimits;
  shutdownGraceMs: number;
  /** One activation's longest run before the SDK calls it a deadlock (WORKER_ISOLATE_TIMEOUT_SECONDS). */
  isolateTimeoutSeconds: number;
  /** The worker deployment version to poll as (worker/versioning.ts); unversioned without it. */
  deployment?: WorkerDeploymentOptions | undefined;
}

/** Identity seen in the Temporal UI and in readiness: unique per process start and lane. */
export function workerIdentity(lane: 'intake' | 'webhooks' = 'intake'): string {
  return `${lane}-worker-${process.pid}-${crypto.randomBytes(3).toString('hex')}@${os.hostname()}`;
}

function create(o: CreateWorkerOptions, lane: 'intake' | 'webhooks', activities: object, sinks?: InjectedSinks<any>): Promise<Worker> {
  return Worker.create({
    connection: o.connection,
    namespace: o.namespace,
    dataConverter: o.dataConverter,
    taskQueue: o.taskQueue,
    identity: workerIdentity(lane),
    activities,
    workflowBundle: o.workflowBundle,
    maxConcurrentActivityTaskExecutions: o.limits.maxConcurrentActivities,
    maxConcurrentWorkflowTaskExecutions: o.limits.maxConcurrentWorkflowTasks,
    shutdownGraceTime: o.shutdownGraceMs,
    // Not in WorkerOptions' type ("not exposed at the moment"), but taken: the SDK spreads the
    // options over its defaults (5 s). See WORKER_ISOLATE_TIMEOUT_SECONDS in lib/config/schema.ts.
    ...({ isolateExecutionTimeout: `${o.isolateTimeoutSeconds}s` } as object),
    // Bounded so memory does not grow with the number of intakes waiting for review (bench R8).
    maxCachedWorkflows: o.limits.maxCachedWorkflows,
    ...(o.deployment ? { workerDeploymentOptions: o.deployment } : {}),
    ...(sinks ? { sinks } : {}),
  });
}

/**
 * The intake lane: intake and artist-resolution workflows and their activities. It also keeps the
 * webhook activities: a webhook lane running on the intake queue stays on it until it ends (a
 * running workflow never changes queue), and must still deliver.
 */
export function createIntakeWorker(o: CreateWorkerOptions & { deps: ActivityDeps; webhooks: WebhookActivityDeps; sinks: InjectedSinks<IntakeSinks> }): Promise<Worker> {
  return create(o, 'intake', { ...createActivities(o.deps), ...createWebhookActivities(o.webhooks) }, o.sinks);
}

/** The webhook lane (WEBHOOK_TASK_QUEUE): deliveries only, with slots of its own, so a slow receiver never takes an intake slot. */
export function createWebhookWorker(o: CreateWorkerOptions & { webhooks: WebhookActivityDeps }): Promise<Worker> {
  return create(o, 'webhooks', createWebhookActivities(o.webhooks));
}
