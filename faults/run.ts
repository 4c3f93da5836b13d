// `npm run faults [-- --short] [-- --only F1,F4]`: every fault scenario (F1-F15, F19, F20, F21), one row each; exit 1 if any fails.
import { writeResults } from '../bench/lib/results';
import { parseCli } from '../lib/cli';
import { runScenario, SCENARIOS, type Row } from './scenarios';

const { values } = parseCli(`The fault suite ${SCENARIOS[0]!.id}-${SCENARIOS.at(-1)!.id} (${SCENARIOS.length} scenarios): each scenario starts its own stack, injects its fault and checks the books.`, 'npm run faults --', { options: { short: { type: 'boolean', default: false, description: 'the short sizes (what the test suite runs)' }, only: { type: 'string', description: `a subset, e.g. F1,F4. The scenarios:\n${SCENARIOS.map((s) => `      ${s.id}  ${s.fault}`).join('\n')}` } } });
const size = values.short ? 'short' : 'long';
const only = values.only?.split(',');
const rows: Row[] = [];
for (const sc of SCENARIOS.filter((x) => !only || only.includes(x.id))) {
  process.stderr.write(`${sc.id} ${sc.fault} ...\n`);
  const row = await runScenario(sc, size);
  rows.push(row);
  process.stderr.write(`${sc.id} ${row.pass ? 'PASS' : 'FAIL'} ${JSON.stringify(row.measured)}\n`);
}
console.log(`\nfault suite (${size})`);
console.table(rows.map((r) => ({ id: r.id, fault: r.fault, holds: r.holds, measured: Object.entries(r.measured).map(([k, v]) => `${k}=${v}`).join(' '), result: r.pass ? 'PASS' : 'FAIL' })));
writeResults(`faults-${size}`, { rows });
process.exit(rows.every((r) => r.pass) ? 0 : 1);
