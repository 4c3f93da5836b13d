// W1 (issue 15): how soon a partner hears of a transition. p50 and p95 from the event row written
// (webhook_events.occurred_at, the transition's own transaction time) to the receiver's verified
// receipt (standardwebhooks), with 20 intakes in flight, beside the bare signal -> activity done
// round trip of the R7 baseline measured in the same run (alternating rounds, as R5-R7 do).
// Run: npm run bench:webhooks [-- --intakes 60 --inflight 20 --rounds 3]
import crypto from 'node:crypto';
import { parseCli } from '../lib/cli';
import { startBare } from './lib/bare';
import { benchCall as call, intakeBody } from './lib/intake';
import { realJpeg } from './lib/images';
import { printTable, writeResults } from './lib/results';
import { startBenchStack, type BenchStack } from './lib/stack';
import { boundedLoad, round, summarize } from './lib/stats';
import { startReceiver } from './lib/webhook-receiver';
import { isFirstReview } from '../lib/intake/vocabulary';

const { values } = parseCli('W1: transition (event row) -> verified webhook receipt, p50/p95, against the bare signal -> activity round trip.', 'npm run bench:webhooks --', {
  options: {
    intakes: { type: 'string', default: '60', description: 'intakes per round' },
    inflight: { type: 'string', default: '20', description: 'intakes in flight' },
    rounds: { type: 'string', default: '3', description: 'rounds' },
    seconds: { type: 'string', default: '300', description: 'time bound of the run' },
  },
});
const N = Number(values.intakes);
const INFLIGHT = Number(values.inflight);
const ROUNDS = Math.max(1, Number(values.rounds));
const MAX_MS = Number(values.seconds) * 1000;
const INTAKE = '/api/private/portfolio-intake/v1';


/** One intake to promoted: create, PUT, upload-complete (waits for the verdict), approve. */
async function intake(s: BenchStack, bytes: Buffer, key: string): Promise<string> {
  const created = await call(s, 'POST', `${INTAKE}/submissions`, s.partner.headers, intakeBody(s, { key, sizeBytes: bytes.length }));
  const id = created.data.submission.submissionId as string;
  const put = await fetch(created.data.upload.url, { method: 'PUT', headers: created.data.upload.headers, body: bytes });
  await put.arrayBuffer();
  let state = (await call(s, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, s.partner.headers)).data.intakeStatus;
  for (let i = 0; i < 600 && !isFirstReview(state); i++) {
    if (state === 'verification_failed') throw new Error(`${id} failed verification`);
    await new Promise((r) => setTimeout(r, 50));
    state = (await call(s, 'GET', `${INTAKE}/submissions/${id}`, s.partner.headers)).data.intakeStatus;
  }
  await call(s, 'POST', `${INTAKE}/submissions/${id}/approve`, s.operator.headers, { reviewNotes: 'Bench approval.' });
  return id;
}

const stack = await startBenchStack();
const bare = await startBare(stack);
const receiver = await startReceiver();
try {
  const reg = await call(stack, 'POST', `${INTAKE}/webhook-endpoints`, stack.partner.headers, { url: receiver.url });
  receiver.secrets.push(reg.data.secret);
  const bytes = realJpeg(64 * 1024, { minimal: true });
  const run = crypto.randomBytes(3).toString('hex');
  // Warm-up of both sides, not measured.
  await boundedLoad(async (i) => void (await intake(stack, bytes, `warm-${run}-${i}`)), { count: 10, concurrency: INFLIGHT, maxMs: MAX_MS });
  await boundedLoad(async (i) => void (await bare.run(`bare-warm-${run}-${i}`)), { count: 10, concurrency: INFLIGHT, maxMs: MAX_MS });
  await receiver.waitFor((a) => a.length >= 30, 60_000);
  const warmIds = new Set(receiver.accepted().map((x) => x.id));

  const ids: string[] = [];
  const bareMs: number[] = [];
  const perRound = Math.ceil(N / ROUNDS);
  for (let r = 0; r < ROUNDS; r++) {
    const count = Math.min(perRound, N - r * perRound);
    if (count <= 0) break;
    await boundedLoad(async (i) => void ids.push(await intake(stack, bytes, `w1-${run}-${r}-${i}`)), { count, concurrency: INFLIGHT, maxMs: MAX_MS });
    await boundedLoad(async (i) => void bareMs.push((await bare.run(`bare-${run}-${r}-${i}`)).signalToActivityMs), { count, concurrency: INFLIGHT, maxMs: MAX_MS });
  }
  const expected = ids.length * 3;
  const complete = await receiver.waitFor((a) => a.filter((x) => !warmIds.has(x.id)).length >= expected, 120_000);
  const events = await stack.sql<{ eventId: string; eventType: string; occurredAt: Date }[]>`
    select event_id, event_type, occurred_at from webhook_events where submission_id = any(${ids})`;
  const written = new Map(events.map((e) => [e.eventId, e]));
  const firstReceipt = new Map<string, number>();
  for (const x of receiver.accepted()) if (written.has(x.id) && !firstReceipt.has(x.id)) firstReceipt.set(x.id, x.wallMs);
  const latency = [...firstReceipt].map(([id, at]) => at - written.get(id)!.occurredAt.getTime());
  const byType: Record<string, number[]> = {};
  for (const [id, at] of firstReceipt) (byType[written.get(id)!.eventType] ??= []).push(at - written.get(id)!.occurredAt.getTime());
  const ours = summarize(latency);
  const base = summarize(bareMs);
  const rows = [
    { id: 'W1 p50', figure: 'event row written -> verified receipt / bare signal -> activity done', ours: round(ours.p50), baseline: round(base.p50), ratio: round(ours.p50 / base.p50) },
    { id: 'W1 p95', figure: 'the same, p95', ours: round(ours.p95), baseline: round(base.p95), ratio: round(ours.p95 / base.p95) },
  ];
  printTable(`W1: ${ids.length} intakes (${expected} events; received ${firstReceipt.size}${complete ? '' : ', INCOMPLETE'}), ${INFLIGHT} in flight; ${bareMs.length} bare workflows`, rows);
  const profile = Object.entries(byType).map(([type, xs]) => ({ type, ...summarize(xs) }));
  printTable('W1 profile: per event type (ms)', profile);
  const file = writeResults('webhook-latency', { intakes: ids.length, inflight: INFLIGHT, events: expected, received: firstReceipt.size, rows, ours, bare: base, profile });
  console.log(`\nwritten: ${file}`);
} finally {
  await receiver.close();
  await bare.stop();
  await stack.stop();
}
