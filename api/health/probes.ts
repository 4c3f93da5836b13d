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
  /** How old a worker's last heartbeat may be for it to count as alive. */
  livenessSeconds: number;
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
    livenessSeconds: deps.cfg.READY_WORKER_LIVENESS_SECONDS,
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
 * At least one worker is alive on the task queue. Workers heartbeat to the server every
 * WORKER_HEARTBEAT_SECONDS with their status, and the server keeps each one's last heartbeat: a
 * worker is alive while its last heartbeat is fresh (within `livenessSeconds`) and it has not
 * announced its shutdown, so a killed worker turns readiness `blocked` as fast as a stopped one.
 * Its poller must also have been seen within the window. A worker with no heartbeat yet (just
 * started), and every worker on a server without worker heartbeats (older servers: no worker
 * list), counts by the poller window alone.
 */
export async function workerPolls(d: ProbeDeps): Promise<{ ok: boolean; pollers: number }> {
  try {
    return await d.temporal.withDeadline(deadline(d.deadlineMs), async () => {
      const svc = d.temporal.workflowService;
      // Both asked at once: the pollers, and the workers' last heartbeats.
      const [desc, workers] = await Promise.all([
        svc.describeTaskQueue({ namespace: d.namespace, taskQueue: { name: d.taskQueue, kind: TASK_QUEUE_KIND_NORMAL }, taskQueueType: TASK_QUEUE_TYPE_WORKFLOW }),
        svc.listWorkers({ namespace: d.namespace, pageSize: 1000 }).catch(() => undefined),
      ]);
      const now = Date.now() / 1000;
      const fresh = desc.pollers.filter((p) => Number(p.lastAccessTime?.seconds ?? 0) >= now - d.pollerWindowSeconds);
      if (fresh.length === 0) return { ok: false, pollers: 0 };
      const beats = (workers?.workersInfo ?? []).map((w) => w.workerHeartbeat).filter((hb) => hb?.workerIdentity && hb.taskQueue === d.taskQueue);
      // A poller is alive unless its worker's last heartbeat is stale or announced the shutdown; a
      // worker that has polled but not yet sent its first heartbeat (just started) counts by its poll.
      const last = new Map<string, { at: number; stopping: boolean }>();
      for (const hb of beats) {
        const at = Number(hb?.heartbeatTime?.seconds ?? 0);
        const prev = last.get(hb!.workerIdentity!);
        if (!prev || at >= prev.at) last.set(hb!.workerIdentity!, { at, stopping: (hb?.status ?? 0) >= WORKER_STATUS_SHUTTING_DOWN });
      }
      const live = fresh.filter((p) => {
        const hb = last.get(p.identity ?? '');
        return !hb || (!hb.stopping && hb.at >= now - d.livenessSeconds);
      });
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
