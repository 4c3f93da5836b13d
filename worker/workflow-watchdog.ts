// Is the workflow thread making progress? Every activation a worker hands to its workflow threads is
// timed, from when the worker takes it to when its completion is back (the time a run spends in the
// thread, and the time it waits there behind others). The SDK's own deadlock detector ends one
// activation at WORKER_ISOLATE_TIMEOUT_SECONDS; an activation still in flight WORKER_STALL_SECONDS
// after it was taken means the thread is wedged past that (a timeout that never fired, a thread
// gone, runs queued behind one that spins). Then `onStall` is called once: the worker process stops
// polling (readiness sees its heartbeat say so) and exits for its supervisor to start it again
// (worker/main.ts). /metrics shows the oldest activation's age and every activation's time.
//
// The SDK has no public hook per activation: its Worker passes each one to `handleActivation`,
// bound when the worker starts running, so the wrapper is set on the instance before `run()`.
// test/integration/worker-watchdog.test.ts fails if a new SDK stops calling it.
import type { Worker } from '@temporalio/worker';
import { Gauge, Histogram, type Registry } from 'prom-client';

export interface WatchdogOptions {
  stallSeconds: number;
  /** Called once, when the oldest activation in flight passes stallSeconds. */
  onStall: (s: { oldestSeconds: number; runId: string | undefined; inFlight: number }) => void;
  registry?: Registry | undefined;
  /** How often the ages are looked at (ms). */
  everyMs?: number;
  now?: () => number;
}

export interface WorkflowWatchdog {
  /** Seconds the oldest activation in flight has been in flight (0 with none). */
  oldestSeconds(): number;
  inFlight(): number;
  /** Activations completed since the start (each worker's). */
  completed(): number;
  /** Has onStall been called. */
  stalled(): boolean;
  stop(): void;
}

type Handle = (...args: unknown[]) => Promise<unknown>;

/** Time every activation of `workers` (call before their run()). */
export function watchWorkflowThreads(workers: Worker[], o: WatchdogOptions): WorkflowWatchdog {
  const now = o.now ?? (() => performance.now());
  const inFlight = new Map<number, { at: number; runId: string | undefined }>();
  let seq = 0;
  let completed = 0;
  let stalled = false;
  const seconds = o.registry
    ? new Histogram({
        name: 'intake_worker_activation_seconds',
        help: 'Workflow activations by how long they took, from the worker taking one to its completion (the thread time and the wait behind others)',
        buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 10, 30, 60],
        registers: [o.registry],
      })
    : undefined;
  const oldest = (): { s: number; runId: string | undefined } => {
    let first: { at: number; runId: string | undefined } | undefined;
    for (const v of inFlight.values()) if (!first || v.at < first.at) first = v;
    return first ? { s: (now() - first.at) / 1000, runId: first.runId } : { s: 0, runId: undefined };
  };
  if (o.registry) {
    new Gauge({ name: 'intake_worker_oldest_activation_seconds', help: 'Age of the oldest workflow activation in flight (0: none); past WORKER_STALL_SECONDS the worker restarts', registers: [o.registry], collect() { this.set(oldest().s); } });
    new Gauge({ name: 'intake_worker_activations_in_flight', help: 'Workflow activations in flight in this worker', registers: [o.registry], collect() { this.set(inFlight.size); } });
    new Gauge({ name: 'intake_worker_stalled', help: '1 once the workflow thread was found stalled (the worker is stopping to be restarted)', registers: [o.registry], collect() { this.set(stalled ? 1 : 0); } });
  }
  for (const w of workers) {
    const target = w as unknown as { handleActivation?: Handle };
    const original = target.handleActivation;
    if (typeof original !== 'function') throw new Error('@temporalio/worker no longer has Worker.handleActivation: worker/workflow-watchdog.ts needs another way to time activations');
    target.handleActivation = async function (this: unknown, ...args: unknown[]) {
      const id = seq++;
      const runId = (args[1] as { activation?: { runId?: string } } | undefined)?.activation?.runId;
      inFlight.set(id, { at: now(), runId });
      try {
        return await original.apply(this, args);
      } finally {
        const started = inFlight.get(id);
        inFlight.delete(id);
        completed++;
        if (started) seconds?.observe((now() - started.at) / 1000);
      }
    };
  }
  const timer = setInterval(() => {
    if (stalled) return;
    const o1 = oldest();
    if (o1.s < o.stallSeconds) return;
    stalled = true;
    o.onStall({ oldestSeconds: Math.round(o1.s), runId: o1.runId, inFlight: inFlight.size });
  }, o.everyMs ?? 1000);
  timer.unref();
  return {
    oldestSeconds: () => oldest().s,
    inFlight: () => inFlight.size,
    completed: () => completed,
    stalled: () => stalled,
    stop: () => clearInterval(timer),
  };
}
