// W2 (issue 23): does a slow partner receiver slow intake? p50 of upload-complete -> awaiting_review
// for 20 intakes in flight with a receiver that takes 10 s per request attached to the partner's
// organization (every intake's events go to it; each attempt gives up after 5 s and is retried),
// divided by the same p50 with no endpoint at all, in one run on one stack (`npm start` processes).
// Rounds alternate (without, with, with, without, ...) so that the machine's other load falls on
// both sides; between rounds the endpoint is deleted and its deliveries cancelled, so "without" is clean;
// each batch starts after a quiet spell (--settle-ms) so the previous batch's tail is not counted.
// Target <= 1.1. Webhook delivery runs on its own task queue with its own slots, one deliverer per endpoint.
// `--delay-ms 0` is the control: the same with a receiver that answers at once (what delivering costs at all).
// Run: npm run bench:w2 [-- --rounds 5 --inflight 20 --delay-ms 10000]
import crypto from 'node:crypto';
import { parseCli } from '../lib/cli';
import { benchCall as call, intakeBody } from './lib/intake';
import { realJpeg } from './lib/images';
import { cpuByGroup, cpuSpent } from './lib/process-cpu';
import { printTable, writeResults } from './lib/results';
import { startBenchStack, type BenchStack } from './lib/stack';
import { boundedLoad, round, summarize } from './lib/stats';
import { startReceiver } from './lib/webhook-receiver';
import { isFirstReview } from '../lib/intake/vocabulary';

const { values } = parseCli('W2: upload-complete -> awaiting_review p50 with a slow webhook receiver attached / without, one run.', 'npm run bench:w2 --', {
  options: {
    rounds: { type: 'string', default: '5', description: 'alternating rounds with and without the receiver (a round\'s p50 varies by 15% or more on a shared machine: more rounds, steadier figure)' },
    inflight: { type: 'string', default: '20', description: 'intakes per batch' },
    'delay-ms': { type: 'string', default: '10000', description: 'how long the receiver takes per request (0: the control)' },
    seconds: { type: 'string', default: '300', description: 'time bound of the run' },
    /** Quiet time before each batch: a batch's tail (search attributes, events, previews) must not fall on the next one. */
    'settle-ms': { type: 'string', default: '3000', description: 'quiet time before each batch' },
    'webhook-process': { type: 'boolean', default: false, description: 'webhook delivery in a worker process of its own (WORKER_ROLE=webhooks)' },
  },
});
const ROUNDS = Math.max(1, Number(values.rounds));
const INFLIGHT = Number(values.inflight);
/** Intakes per round: one batch, all in flight at once. */
const N = INFLIGHT;
const MAX_MS = Number(values.seconds) * 1000;
const INTAKE = '/api/private/portfolio-intake/v1';

/** One intake up to awaiting_review; returns the ms from sending upload-complete to awaiting_review. */
async function verifyMs(s: BenchStack, bytes: Buffer, key: string): Promise<number> {
  const created = await call(s, 'POST', `${INTAKE}/submissions`, s.partner.headers, intakeBody(s, { key, sizeBytes: bytes.length }));
  const id = created.data.submission.submissionId as string;
  await (await fetch(created.data.upload.url, { method: 'PUT', headers: created.data.upload.headers, body: bytes })).arrayBuffer();
  const t0 = performance.now();
  let state = (await call(s, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, s.partner.headers)).data.intakeStatus;
  for (let i = 0; i < 6000 && !isFirstReview(state); i++) {
    if (state === 'verification_failed') throw new Error(`${id} failed verification`);
    await new Promise((r) => setTimeout(r, 10));
    state = (await call(s, 'GET', `${INTAKE}/submissions/${id}`, s.partner.headers)).data.intakeStatus;
  }
  return performance.now() - t0;
}

async function phase(s: BenchStack, bytes: Buffer, label: string): Promise<number[]> {
  const samples: number[] = [];
  await boundedLoad(async (i) => void samples.push(await verifyMs(s, bytes, `w2-${label}-${i}`)), { count: N, concurrency: INFLIGHT, maxMs: MAX_MS });
  return samples;
}

const stack = await startBenchStack({
  webhookWorker: values['webhook-process'] === true,
  env: {
    // Every intake stays open (awaiting_review): no quota in the way. Fast retries: more pressure from the slow lanes.
    QUOTA_STAGED_SUBMISSIONS: '1000000',
    QUOTA_STAGED_BYTES: String(1024 ** 4),
    WEBHOOK_RETRY_INITIAL_SECONDS: '1',
    WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '2',
    WEBHOOK_SWEEP_SECONDS: '1',
  },
});
const receiver = await startReceiver({ delayMs: Number(values['delay-ms']) });

/** Attach the slow receiver to the partner's organization; returns the endpoint id. */
async function attach(s: BenchStack): Promise<string> {
  const reg = await call(s, 'POST', `${INTAKE}/webhook-endpoints`, s.partner.headers, { url: receiver.url });
  receiver.secrets.push(reg.data.secret);
  return reg.data.endpointId as string;
}

/** Delete the endpoint and wait (bounded) until its deliverer cancelled its deliveries: nothing of it still runs. */
async function detach(s: BenchStack, endpointId: string): Promise<void> {
  const res = await fetch(`${s.apiUrl}${INTAKE}/webhook-endpoints/${endpointId}`, { method: 'DELETE', headers: s.partner.headers });
  if (res.status >= 300) throw new Error(`DELETE endpoint: ${res.status}`);
  for (let i = 0; i < 300; i++) {
    const [open] = await s.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId} and status in ('pending', 'delivering')`;
    if (open!.n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.warn(`endpoint ${endpointId}: deliveries still open after 30 s`);
}

try {
  const bytes = realJpeg(64 * 1024, { minimal: true });
  const run = crypto.randomBytes(3).toString('hex');
  // Warm-up, not measured, of both sides: the first delivery in a process compiles its code paths and
  // prepares its statements on each pooled connection, a one-off that would otherwise fall on round 1.
  await phase(stack, bytes, `warm-${run}`);
  const warmEndpoint = await attach(stack);
  await phase(stack, bytes, `warm-with-${run}`);
  await detach(stack, warmEndpoint);
  const samples = { without: [] as number[], with: [] as number[] };
  /** CPU ms each kind of process spent during the measured batches, per side: where the difference goes. */
  const cpu = { without: new Map<string, number>(), with: new Map<string, number>() };
  const perRound: { round: number; side: string; p50: number; p95: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 === 0 ? (['without', 'with'] as const) : (['with', 'without'] as const)) {
      const endpointId = side === 'with' ? await attach(stack) : undefined;
      await new Promise((res) => setTimeout(res, Number(values['settle-ms'])));
      const cpuBefore = cpuByGroup();
      const xs = await phase(stack, bytes, `${side}-${run}-${r}`);
      for (const [g, ms] of cpuSpent(cpuBefore, cpuByGroup())) cpu[side].set(g, (cpu[side].get(g) ?? 0) + ms);
      if (endpointId) await detach(stack, endpointId);
      samples[side].push(...xs);
      const { p50, p95 } = summarize(xs);
      perRound.push({ round: r + 1, side, p50, p95 });
    }
  }
  const without = summarize(samples.without);
  const withSlow = summarize(samples.with);
  const [lanes] = await stack.sql<{ open: number; attempts: number }[]>`
    select count(distinct (endpoint_id, submission_id))::int as open,
           (select count(*)::int from webhook_attempts) as attempts
    from webhook_deliveries where status in ('pending', 'delivering')`;

  const ratio = round(withSlow.p50 / without.p50);
  const rows = [
    { id: 'W2 p50', figure: 'upload-complete -> awaiting_review, slow receiver attached / none', ours: round(withSlow.p50), baseline: round(without.p50), ratio, target: '<= 1.1', met: ratio <= 1.1 },
    { id: 'W2 p95', figure: 'the same, p95 (reported, no target)', ours: round(withSlow.p95), baseline: round(without.p95), ratio: round(withSlow.p95 / without.p95) },
  ];
  printTable(`W2: ${ROUNDS} rounds of ${N} intakes each side, all in flight; receiver answers after ${values['delay-ms']} ms (attempts give up at 5 s); ${receiver.all.length} requests reached it, ${lanes!.attempts} attempts logged, ${lanes!.open} (endpoint, submission) lanes open at the end`, rows);
  printTable('W2 per round (ms): the spread between rounds of one side is the noise of the machine', perRound);
  const groups = [...new Set([...cpu.without.keys(), ...cpu.with.keys()])].sort();
  const cpuRows = groups
    .map((g) => ({ process: g, without_ms: round(cpu.without.get(g) ?? 0), with_ms: round(cpu.with.get(g) ?? 0), added_ms: round((cpu.with.get(g) ?? 0) - (cpu.without.get(g) ?? 0)) }))
    .filter((r) => r.without_ms > 0 || r.with_ms > 0);
  printTable('W2 profile: CPU ms spent by each kind of process during the measured batches, all rounds of each side', cpuRows);
  const file = writeResults(values['webhook-process'] ? 'webhook-isolation-process' : 'webhook-isolation', { rounds: ROUNDS, intakesPerRound: N, delayMs: Number(values['delay-ms']), webhookProcess: values['webhook-process'] === true, rows, without, withSlow, perRound, cpu: cpuRows, receiverRequests: receiver.all.length, openLanes: lanes!.open });
  console.log(`\nwritten: ${file}`);
} finally {
  await receiver.close();
  await stack.stop();
}
