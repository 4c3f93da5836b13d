// The short form of issue 22's fault scenarios F11-F15 (faults/resilience.ts), in every test run:
// malformed signals straight to Temporal, PostgreSQL and Temporal killed under load, the worker
// stopped and killed under a real `npm start`, the API killed during creates. A file of its own so
// it runs beside F1-F10.
import { describe, expect, it } from 'vitest';
import { RESILIENCE_SCENARIOS } from '../../faults/resilience';
import { runScenario } from '../../faults/scenarios';

describe.each(RESILIENCE_SCENARIOS)('$id: $fault', (sc) => {
  it(`holds: ${sc.holds}`, async () => {
    const row = await runScenario(sc, 'short');
    console.log(`${row.id} ${row.pass ? 'PASS' : 'FAIL'} ${JSON.stringify(row.measured)}`);
    expect(row.pass, JSON.stringify(row.measured)).toBe(true);
  }, 420_000);
});
