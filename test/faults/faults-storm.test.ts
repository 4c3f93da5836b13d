// F21 (faults/storm.ts): 100 signals of 250 KB at one run awaiting review, and at three at once,
// beside a steady stream of intakes, on the dev server and on the real server (skipped with one line
// where no Go toolchain can build it). A file of its own so it runs beside the other fault files.
import { describe, expect, it } from 'vitest';
import { signalStorm } from '../../faults/storm';
import { runScenario } from '../../faults/scenarios';
import { realServerOrSkip } from '../e2e/real-temporal-suite';

const check = async (sc: ReturnType<typeof signalStorm>) => {
  const row = await runScenario(sc, 'short');
  console.log(`${row.id} ${row.pass ? 'PASS' : 'FAIL'} ${JSON.stringify(row.measured)}`);
  expect(row.pass, JSON.stringify(row.measured)).toBe(true);
};

describe('F21 on the dev server', () => {
  it('one victim: no stall, no 500, the decision answered as documented, no task left failing', () => check(signalStorm({ victims: 1 })), 600_000);
  it('three victims at once: the same', () => check(signalStorm({ victims: 3 })), 600_000);
});

const bin = realServerOrSkip('F21 on the real Temporal server');
if (bin) {
  describe('F21 on the real Temporal server', () => {
    it('one victim: no stall, no 500, the decision answered as documented, no task left failing', () => check(signalStorm({ victims: 1, realTemporal: bin })), 600_000);
    it('three victims at once: the same', () => check(signalStorm({ victims: 3, realTemporal: bin })), 600_000);
  });
}
