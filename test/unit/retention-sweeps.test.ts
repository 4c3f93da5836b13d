import { describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { startRetentionSweeps } from '../../worker/retention';
import { eventually } from '../helpers/eventually';

const log = createLogger({ name: 'test', level: 'silent' });

describe('the retention sweep', () => {
  it('drains full batches in one sweep, stops at a short one, and survives a failed sweep', async () => {
    const answers: (number | Error)[] = [new Error('database away'), 200, 200, 7];
    const calls: { retentionSeconds: number; limit: number }[] = [];
    const sweeps = startRetentionSweeps({
      purge: async (p) => {
        calls.push(p);
        const a = answers.shift() ?? 0;
        if (a instanceof Error) throw a;
        return a;
      },
      retentionSeconds: 42,
      everySeconds: 1,
      log,
    });
    // the second sweep (a second after the first) drains and stops at the short batch
    await eventually(async () => calls.length >= 4, 10_000, 10);
    await sweeps.stop();
    // Sweep 1 failed at once; sweep 2 took 200 + 200 + 7 and stopped at the short batch.
    expect(calls).toHaveLength(4);
    expect(calls.every((c) => c.retentionSeconds === 42 && c.limit === 200)).toBe(true);
    expect(answers).toEqual([]);
  });

  it('does nothing when switched off', async () => {
    let called = false;
    const sweeps = startRetentionSweeps({ purge: async () => ((called = true), 0), retentionSeconds: 1, everySeconds: 0, log });
    await sweeps.stop();
    expect(called).toBe(false);
  });
});
