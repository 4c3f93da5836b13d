// `npm run bench`: every benchmark of issue 7 in one command, one after another (each script starts
// and stops its own stack, so no run disturbs the next), then one summary table of R1-R8 read back
// from bench/results/*.json with the targets unchanged and met / missed beside them.
// --quick: smaller sizes and counts to check the runner itself (not the figures of record).
// --data-dir: keep the seeded directory databases between runs (1M studios took 1,401 s to seed from a fresh clone, 773 s of it the search documents).
// --only R1,R5: a subset.
import { spawnSync } from 'node:child_process';
import { parseCli } from '../lib/cli';
import fs from 'node:fs';
import path from 'node:path';
import { childEnv, PROJECT_ROOT } from '../lib/config';
import { verdict } from './lib/targets';

// What each run measures; --quick shrinks it (the arguments are chosen once the options are read).
const RUNS: { ids: string[]; script: string }[] = [
  { ids: ['R1'], script: 'bench/http-overhead.ts' },
  { ids: ['R2', 'R3', 'R4', 'R9', 'R10'], script: 'bench/directory.ts' },
  { ids: ['R5', 'R6', 'R7'], script: 'bench/temporal-throughput.ts' },
  { ids: ['R8'], script: 'bench/worker-memory.ts' },
];
const OTHERS = 'The others have scripts of their own: bench:media (M1-M2), bench:webhooks (W1), bench:w2 (W2), bench:console (C1), bench:similar (S1), bench:cutover (I1), bench:agents (A1-A2), bench:intake, bench:auth.';
const { values } = parseCli(`The R benchmarks (${RUNS.flatMap((r) => r.ids).join(', ')}), each with its baseline measured in the same run, then the summary table.\n${OTHERS}`, 'npm run bench --', {
  options: {
    quick: { type: 'boolean', default: false, description: 'small sizes, to check the runner (not figures of record)' },
    'data-dir': { type: 'string', description: 'keep the seeded directory databases here between runs' },
    only: { type: 'string', description: `a subset, e.g. R1,R5 (of ${RUNS.flatMap((r) => r.ids).join(', ')})` },
  },
});
const Q = values.quick;
const quickArgs: Record<string, string[]> = {
  'bench/http-overhead.ts': ['--seconds', '3', '--rounds', '1'],
  'bench/directory.ts': ['--sizes', '10000,100000', '--requests', '60'],
  'bench/temporal-throughput.ts': ['--intakes', '40'],
  'bench/worker-memory.ts': ['--open', '500'],
};
const runs = RUNS.map((r) => ({
  ...r,
  args: [...(Q ? (quickArgs[r.script] ?? []) : []), ...(r.script === 'bench/directory.ts' && values['data-dir'] ? ['--data-dir', values['data-dir']] : [])],
}));
const only = values.only?.split(',').map((s) => s.trim().toUpperCase());
const failed: string[] = [];
const started = Date.now();
for (const r of runs) {
  if (only && !r.ids.some((id) => only.includes(id))) continue;
  console.log(`\n===== ${r.ids.join(', ')}: ${r.script} ${r.args.join(' ')}`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', r.script, ...r.args], { cwd: PROJECT_ROOT, env: childEnv({}), stdio: 'inherit' });
  if (res.status !== 0) failed.push(`${r.script} (exit ${res.status ?? res.signal})`);
}

const read = (name: string): any => {
  const f = path.join(PROJECT_ROOT, 'bench', 'results', `${name}.json`);
  return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : undefined;
};
const rows: { id: string; figure: string; value: number | undefined; target: string; verdict: string; measuredAt: string }[] = [];
const add = (id: string, figure: string, value: number | undefined, target: string, measuredAt?: string) =>
  rows.push({ id, figure, value, target, verdict: verdict(value, target), measuredAt: measuredAt ?? '-' });
const r1 = read('http-overhead-info');
add('R1', 'GET /health/live req/s, ours / bare Express 5', r1?.ratio, '>= 0.85', r1?.measuredAt);
const dir = read('directory');
for (const f of (dir?.figures ?? []) as { id: string; figure: string; value: number; target: string }[]) add(f.id, f.figure, f.value, f.target, dir.measuredAt);
if (!dir?.figures?.some((f: { id: string }) => f.id === 'R4')) add('R4', 'GET /search p95 at 1M / FTS5 bm25 top-20 p95', undefined, '<= 1.0');
if (!dir?.figures?.some((f: { id: string }) => f.id === 'R10')) add('R10', 'GET /search p95 at 1M / tantivy bm25 top-20 + exact count p95', undefined, 'none yet');
if (!dir?.figures?.some((f: { id: string }) => f.id === 'R9')) add('R9', 'GET /search req/s at 1M, 8 in flight / FTS5 bm25 top-20 queries/s', undefined, '>= 1.0');
const tt = read('temporal-throughput');
for (const f of (tt?.rows ?? []) as { id: string; figure: string; ratio: number; target: string }[]) add(f.id, f.figure, f.ratio, f.target, tt.measuredAt);
const mem = read('worker-memory');
for (const f of (mem?.rows ?? []) as { id: string; figure: string; ratio: number; target: string }[]) add(f.id, f.figure, f.ratio, f.target, mem.measuredAt);
console.log(`\nSummary (${Math.round((Date.now() - started) / 1000)} s${Q ? ', --quick: not figures of record' : ''})`);
console.table(rows);
if (failed.length) {
  console.error(`failed: ${failed.join('; ')}`);
  process.exitCode = 1;
}
