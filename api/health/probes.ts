// What readiness and the legacy report are made of: each probe answers within its deadline.
import type { Connection } from '@temporalio/client';
import { pingDatabase, type Sql } from '../../lib/db';
import type { AppDeps } from '../deps';

export interface ProbeDeps {
  sql: Sql;
  temporal: Connection;
  namespace: string;
  taskQueue: string;
  deadlineMs: number;
  pollerWindowSeconds: number;
}

/** The probe settings of this app: its pool, its Temporal connection and task queue, the poller window. */
export function probeDepsOf(deps: AppDeps, deadlineMs: number): ProbeDeps {
  return {
    sql: deps.sql,
    temporal: deps.temporal.connection,
    namespace: deps.cfg.TEMPORAL_NAMESPACE,
    taskQueue: deps.cfg.TEMPORAL_TASK_QUEUE,
    deadlineMs,
    pollerWindowSeconds: deps.cfg.READY_POLLER_WINDOW_SECONDS,
  };
}

export interface ProbeResults {
  database: { ok: boolean; ms: number };
  temporal: { ok: boolean };
  worker: { ok: boolean; pollers: number };
}

// Enum values of temporal.api.enums.v1 (the proto package is CommonJS; numbers keep ESM simple).
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;
const WORKER_STATUS_SHUTTING_DOWN = 2;

function deadline(ms: number) {
  return new Date(Date.now() + ms);
}

async function temporalAnswers(d: ProbeDeps): Promise<boolean> {
  try {
    await d.temporal.withDeadline(deadline(d.deadlineMs), () => d.temporal.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  }
}

/**
 * At least one worker polls the task queue: a poller seen within the window whose worker has not
 * announced its shutdown (workers heartbeat their status to the server when they stop).
 */
export async function workerPolls(d: ProbeDeps): Promise<{ ok: boolean; pollers: number }> {
  try {
    return await d.temporal.withDeadline(deadline(d.deadlineMs), async () => {
      const svc = d.temporal.workflowService;
      // Both asked at once: the pollers, and the workers that announced their shutdown.
      const [desc, workers] = await Promise.all([
        svc.describeTaskQueue({ namespace: d.namespace, taskQueue: { name: d.taskQueue, kind: TASK_QUEUE_KIND_NORMAL }, taskQueueType: TASK_QUEUE_TYPE_WORKFLOW }),
        // Older servers have no worker list: fall back to the poller window alone.
        svc.listWorkers({ namespace: d.namespace, pageSize: 1000 }).catch(() => undefined),
      ]);
      const cutoff = Date.now() / 1000 - d.pollerWindowSeconds;
      const fresh = desc.pollers.filter((p) => Number(p.lastAccessTime?.seconds ?? 0) >= cutoff);
      if (fresh.length === 0) return { ok: false, pollers: 0 };
      const stopped = new Set<string>();
      for (const w of workers?.workersInfo ?? []) {
        const hb = w.workerHeartbeat;
        if (hb?.workerIdentity && hb.taskQueue === d.taskQueue && (hb.status ?? 0) >= WORKER_STATUS_SHUTTING_DOWN) stopped.add(hb.workerIdentity);
      }
      const live = fresh.filter((p) => !stopped.has(p.identity ?? ''));
      return { ok: live.length > 0, pollers: live.length };
    });
  } catch {
    return { ok: false, pollers: 0 };
  }
}

export async function runProbes(d: ProbeDeps): Promise<ProbeResults> {
  const [db, t] = await Promise.all([pingDatabase(d.sql, d.deadlineMs), temporalAnswers(d)]);
  const worker = t ? await workerPolls(d) : { ok: false, pollers: 0 };
  return { database: { ok: db.ok, ms: db.ms }, temporal: { ok: t }, worker };
}
