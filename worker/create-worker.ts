import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { createWebhookActivities, type WebhookActivityDeps } from '../activities/webhooks';
import { PROJECT_ROOT } from '../lib/config';

export const WORKFLOWS_PATH = path.join(PROJECT_ROOT, 'workflows', 'index.ts');

export interface CreateWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** Webhook deliveries: the target policy and the public base URL of payload links (the sql is deps.sql). */
  webhooks: Omit<WebhookActivityDeps, 'sql'>;
  /** A prebuilt bundle (production, tests); otherwise the workflows are bundled at start. */
  workflowBundle?: { code: string } | { codePath: string } | undefined;
  maxConcurrentActivities?: number;
  maxConcurrentWorkflowTasks?: number;
  shutdownGraceMs?: number;
  maxCachedWorkflows?: number;
  logger?: WorkerOptions['debugMode'];
}

/** Identity seen in the Temporal UI and in readiness: unique per process start. */
export function workerIdentity(): string {
  return `intake-worker-${process.pid}-${crypto.randomBytes(3).toString('hex')}@${os.hostname()}`;
}

export async function createIntakeWorker(o: CreateWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: o.connection,
    namespace: o.namespace,
    taskQueue: o.taskQueue,
    identity: workerIdentity(),
    activities: { ...createActivities(o.deps), ...createWebhookActivities({ sql: o.deps.sql, ...o.webhooks }) },
    ...(o.workflowBundle ? { workflowBundle: o.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    maxConcurrentActivityTaskExecutions: o.maxConcurrentActivities ?? 50,
    maxConcurrentWorkflowTaskExecutions: o.maxConcurrentWorkflowTasks ?? 50,
    shutdownGraceTime: o.shutdownGraceMs ?? 10_000,
    // Bounded so memory does not grow with the number of intakes waiting for review (bench R8).
    maxCachedWorkflows: o.maxCachedWorkflows ?? 500,
  });
}
