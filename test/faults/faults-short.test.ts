// The short form of the fault suite (faults/scenarios.ts) in every test run: fewer intakes and
// kills than `npm run faults`, the same scenarios, real processes killed by pid, books checked.
import { describe, expect, it } from 'vitest';
import { RESILIENCE_SCENARIOS } from '../../faults/resilience';
import { runScenario, SCENARIOS } from '../../faults/scenarios';
import { F20 } from '../../faults/search-scenario';

// F11-F15 run in faults-resilience.test.ts, F19 in faults-door.test.ts and F21 in
// faults-storm.test.ts (both on both servers), and F20 (it needs OpenSearch) in faults-search.test.ts,
// beside these.
describe.each(SCENARIOS.filter((sc) => !RESILIENCE_SCENARIOS.includes(sc) && sc !== F20 && sc.id !== 'F19' && sc.id !== 'F21'))('$id: $fault', (sc) => {
  it(`holds: ${sc.holds}`, async () => {
    const row = await runScenario(sc, 'short');
    console.log(`${row.id} ${row.pass ? 'PASS' : 'FAIL'} ${JSON.stringify(row.measured)}`);
    expect(row.pass, JSON.stringify(row.measured)).toBe(true);
  }, 300_000);
});
