// F19 (faults/door.ts): the 28 x 1.9 MB flood straight to Temporal that once ended the worker
// process, on the dev server and on the real server (skipped with one line where no Go toolchain
// can build it). A file of its own so it runs beside the other fault files.
import { describe, expect, it } from 'vitest';
import { doorFlood } from '../../faults/door';
import { runScenario } from '../../faults/scenarios';
import { realServerOrSkip } from '../e2e/real-temporal-suite';

const check = async (sc: ReturnType<typeof doorFlood>) => {
  const row = await runScenario(sc, 'short');
  console.log(`${row.id} ${row.pass ? 'PASS' : 'FAIL'} ${JSON.stringify(row.measured)}`);
  expect(row.pass, JSON.stringify(row.measured)).toBe(true);
};

describe('F19 on the dev server', () => {
  it('holds: each refused at the door, the worker lives, every review promotes once', () => check(doorFlood()), 420_000);
});

const bin = realServerOrSkip('F19 on the real Temporal server');
if (bin) {
  describe('F19 on the real Temporal server', () => {
    it('holds: each refused at the door, the worker lives, every review promotes once', () => check(doorFlood({ realTemporal: bin })), 420_000);
  });
}
