// F20 (faults/search-scenario.ts): kill -9 of OpenSearch, of an indexer process and of the API,
// each in the middle of an indexing batch, on a stack with the OpenSearch backend. A file of its
// own so it runs beside the other fault files, and skips (with one line) where OpenSearch is not
// installed, except under CI=true (test/helpers/opensearch.ts).
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../faults/scenarios';
import { F20 } from '../../faults/search-scenario';
import { OPENSEARCH_RUNS } from '../helpers/opensearch';

describe.skipIf(!OPENSEARCH_RUNS)(`${F20.id}: ${F20.fault}`, () => {
  it(`holds: ${F20.holds}`, async () => {
    const row = await runScenario(F20, 'short');
    console.log(`${row.id} ${row.pass ? 'PASS' : 'FAIL'} ${JSON.stringify(row.measured)}`);
    expect(row.pass, JSON.stringify(row.measured)).toBe(true);
  }, 300_000);
});
