// R8 (issue 7): resident memory of the worker process with N intakes open (awaiting review) / with
// none open, on one embedded stack (worker as its own process; RSS from /proc/<pid>/status).
// Run: npm run bench:memory [-- --open 5000 --concurrency 16 --seconds 600 --cache 500]
import crypto from 'node:crypto';
import { parseCli } from '../lib/cli';
import fs from 'node:fs';
import { intakeBody } from './lib/intake';
import { realJpeg } from './lib/images';
import { startBenchStack, type BenchStack } from './lib/stack';
import { boundedLoad, round } from './lib/stats';
import { printTable, writeResults } from './lib/results';

const { values } = parseCli('Worker memory with many open intake workflows.', 'npm run bench:memory --', {
  options: {
    open: { type: 'string', default: '5000', description: 'intake workflows left open' },
    concurrency: { type: 'string', default: '16', description: 'starts in flight' },
    seconds: { type: 'string', default: '600', description: 'time bound of the run' },
    bytes: { type: 'string', default: '2048', description: 'upload size' },
    cache: { type: 'string', default: '500', description: 'the worker\'s workflow cache size' },
  },
});
const OPEN = Number(values.open);
const CONCURRENCY = Number(values.concurrency);
const MAX_MS = Number(values.seconds) * 1000;
const BYTES = Number(values.bytes);
const INTAKE = '/api/private/portfolio-intake/v1';
const CACHE = Number(values.cache);

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Median of a few samples a second apart, after the worker has been idle for a while. */
async function steadyRss(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 5000));
  const xs: number[] = [];
  for (let i = 0; i < 5; i++) {
    xs.push(rssMiB(pid));
    await new Promise((r) => setTimeout(r, 1000));
  }
  return round(xs.sort((a, b) => a - b)[2]!, 1);
}

async function openIntake(s: BenchStack, bytes: Buffer, key: string): Promise<string> {
  const res = await fetch(`${s.apiUrl}${INTAKE}/submissions`, {
    method: 'POST',
    headers: { ...s.partner.headers, 'content-type': 'application/json' },
    body: JSON.stringify(intakeBody(s, { key, sizeBytes: bytes.length })),
  });
  const created = (await res.json()) as any;
  if (res.status !== 201) throw new Error(`create ${res.status}`);
  const up = created.data.upload;
  await (await fetch(up.url, { method: 'PUT', headers: up.headers, body: bytes })).arrayBuffer();
  const id = created.data.submission.submissionId as string;
  const done = await fetch(`${s.apiUrl}${INTAKE}/submissions/${id}/upload-complete`, { method: 'POST', headers: s.partner.headers });
  await done.arrayBuffer();
  return id;
}

// Every intake this bench opens is one partner's: the open-submission quota (100 by default) is
// raised above them, or the creates past it answer 429 quota_exceeded and R8 measures nothing.
const QUOTA = { QUOTA_STAGED_SUBMISSIONS: String(OPEN + 100), QUOTA_STAGED_BYTES: String((OPEN + 100) * BYTES * 2) };
console.log(`R8: the partner's open-submission quota set to ${QUOTA.QUOTA_STAGED_SUBMISSIONS} (QUOTA_STAGED_SUBMISSIONS) for ${OPEN} open intakes`);
const stack = await startBenchStack({ env: { WORKER_MAX_CACHED_WORKFLOWS: String(CACHE), ...QUOTA } });
try {
  const pid = stack.workerPid()!;
  const bytes = realJpeg(BYTES);
  const run = crypto.randomBytes(3).toString('hex');
  // Warm the worker (bundle loaded, every code path run), closing each warm-up intake again, so
  // the baseline has none open.
  await boundedLoad(
    async (i) => {
      const id = await openIntake(stack, bytes, `warm-${run}-${i}`);
      await (await fetch(`${stack.apiUrl}${INTAKE}/submissions/${id}/approve`, { method: 'POST', headers: { ...stack.operator.headers, 'content-type': 'application/json' }, body: JSON.stringify({ reviewNotes: 'Bench warm-up.' }) })).arrayBuffer();
    },
    { count: 20, concurrency: 4, maxMs: 60_000 },
  );
  const idle = await steadyRss(pid);
  const t = performance.now();
  const times = await boundedLoad(async (i) => void (await openIntake(stack, bytes, `open-${run}-${i}`)), { count: OPEN, concurrency: CONCURRENCY, maxMs: MAX_MS });
  const opened = times.length;
  const [waiting] = await stack.sql<{ n: number }[]>`select count(*)::int as n from submissions where intake_status = 'awaiting_review'`;
  const loaded = await steadyRss(pid);
  // What one cached run holds: the growth over the runs the sticky cache keeps (the rest are evicted and hold nothing).
  const cached = Math.min(waiting!.n, CACHE);
  const perRun = cached > 0 ? round((loaded - idle) / cached, 2) : NaN;
  const rows = [
    { id: 'R8', figure: `worker RSS with ${waiting!.n} intakes awaiting review / with 0 open`, ours: loaded, baseline: idle, ratio: round(loaded / idle), target: '<= 2' },
    { id: 'R8/run', figure: `MiB per cached run ((loaded - idle) / ${cached} cached)`, ours: perRun, baseline: '-', ratio: '-', target: 'report' },
  ];
  printTable(`R8 (sticky cache ${CACHE}): ${opened} intakes opened in ${round((performance.now() - t) / 1000, 1)} s (${CONCURRENCY} in flight); RSS in MiB`, rows);
  const file = writeResults('worker-memory', { requestedOpen: OPEN, opened, awaitingReview: waiting!.n, rssMiB: { idle, loaded }, mibPerCachedRun: perRun, rows, maxCachedWorkflows: CACHE, note: 'idle = after 20 warm-up intakes, all approved (none open)' });
  console.log(`\nwritten: ${file}`);
} finally {
  await stack.stop();
}
