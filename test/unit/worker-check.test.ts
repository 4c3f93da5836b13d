// The signal routes' worker check, shared (api/temporal/workflow-calls.ts sharedWorkerCheck): one
// check serves the requests that come while it is on its way; "a worker is there" stands for the
// reuse window from when it was asked; "no worker" is asked again by the very next request.
import { describe, expect, it } from 'vitest';
import { sharedWorkerCheck } from '../../api/temporal/workflow-calls';

/** A check whose answers the test gives, one per call, when it chooses; and a clock it moves. */
function harness(reuseMs: number) {
  let clock = 0;
  const pending: ((there: boolean) => void)[] = [];
  const check = sharedWorkerCheck(() => new Promise<boolean>((resolve) => pending.push(resolve)), reuseMs, () => clock);
  return {
    check,
    asked: () => pending.length,
    answer: async (there: boolean) => {
      pending[pending.length - 1]!(there);
      await new Promise((r) => setImmediate(r));
    },
    advance: (ms: number) => void (clock += ms),
  };
}

describe('the shared worker check', () => {
  it('asks once for the requests that come while a check is on its way', async () => {
    const h = harness(1000);
    const answers = [h.check(), h.check(), h.check()];
    expect(h.asked()).toBe(1);
    await h.answer(true);
    expect(await Promise.all(answers)).toEqual([true, true, true]);
  });

  it('keeps "a worker is there" for the window from when it was asked, then asks again', async () => {
    const h = harness(1000);
    const first = h.check();
    h.advance(300); // the check itself took 300 ms
    await h.answer(true);
    expect(await first).toBe(true);
    h.advance(650); // 950 ms after it was asked
    expect(await h.check()).toBe(true);
    expect(h.asked()).toBe(1);
    h.advance(50); // 1000 ms: the window is over
    const again = h.check();
    expect(h.asked()).toBe(2);
    await h.answer(false);
    expect(await again).toBe(false);
  });

  it('never keeps "no worker": the next request asks again and sees a worker that is back', async () => {
    const h = harness(1000);
    const none = h.check();
    await h.answer(false);
    expect(await none).toBe(false);
    const back = h.check();
    expect(h.asked()).toBe(2);
    await h.answer(true);
    expect(await back).toBe(true);
  });

  it('asks for every request when the window is 0', async () => {
    const h = harness(0);
    const a = h.check();
    await h.answer(true);
    await a;
    const b = h.check();
    expect(h.asked()).toBe(2);
    await h.answer(true);
    expect(await b).toBe(true);
  });

  it('hands a failed check to every request that shared it, and asks again after', async () => {
    let calls = 0;
    const check = sharedWorkerCheck(async () => {
      calls++;
      if (calls === 1) throw new Error('unreachable');
      return true;
    }, 1000, () => 0);
    const shared = [check(), check()];
    for (const r of await Promise.allSettled(shared)) expect(r.status).toBe('rejected');
    expect(await check()).toBe(true);
    expect(calls).toBe(2);
  });
});
