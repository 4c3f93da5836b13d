// The workflow-thread watchdog (worker/workflow-watchdog.ts): activations timed from the worker's
// handleActivation; the oldest one in flight past the stall bound calls onStall once, with its run.
import type { Worker } from '@temporalio/worker';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { watchWorkflowThreads } from '../../worker/workflow-watchdog';

/** A stand-in for the SDK's Worker: what the watchdog wraps is its handleActivation. */
function fakeWorker() {
  const pending: (() => void)[] = [];
  const w = {
    handleActivation(_state: unknown, a: { activation: { runId: string } }) {
      return new Promise<string>((resolve) => pending.push(() => resolve(a.activation.runId)));
    },
  };
  return { w, finishOne: () => pending.shift()?.(), activate: (runId: string) => (w as unknown as { handleActivation: (s: unknown, a: unknown) => Promise<string> }).handleActivation(undefined, { activation: { runId } }) };
}

describe('the workflow-thread watchdog', () => {
  it('times activations; past the bound the oldest in flight calls onStall once, with its run', async () => {
    let t = 0;
    const stalls: { oldestSeconds: number; runId: string | undefined; inFlight: number }[] = [];
    const registry = new Registry();
    const f = fakeWorker();
    const dog = watchWorkflowThreads([f.w as unknown as Worker], { stallSeconds: 45, onStall: (s) => stalls.push(s), registry, now: () => t, everyMs: 5 /* t in ms, as performance.now() */ });
    try {
      const first = f.activate('run-a');
      t = 10_000;
      void f.activate('run-b');
      expect(dog.inFlight()).toBe(2);
      f.finishOne();
      expect(await first).toBe('run-a'); // what the SDK's method answers is passed through
      expect(dog.completed()).toBe(1);
      expect(dog.oldestSeconds()).toBe(0);
      t = 30_000;
      expect(dog.oldestSeconds()).toBe(20);
      await new Promise((r) => setTimeout(r, 30));
      expect(stalls).toEqual([]);
      t = 56_000; // run-b has been in flight 46 s
      await new Promise((r) => setTimeout(r, 30));
      t = 90_000;
      await new Promise((r) => setTimeout(r, 30));
      expect(stalls).toEqual([{ oldestSeconds: 46, runId: 'run-b', inFlight: 1 }]);
      expect(dog.stalled()).toBe(true);
      const text = await registry.metrics();
      expect(text).toMatch(/^intake_worker_activation_seconds_count 1$/m);
      expect(text).toMatch(/^intake_worker_oldest_activation_seconds 80$/m);
      expect(text).toMatch(/^intake_worker_stalled 1$/m);
    } finally {
      dog.stop();
    }
  });

  it('refuses an SDK whose worker has no handleActivation, rather than watch nothing', () => {
    expect(() => watchWorkflowThreads([{} as Worker], { stallSeconds: 45, onStall: () => {} })).toThrow(/handleActivation/);
  });
});
