// R5, R6, R7 (issue 7) on one embedded stack (API and worker as processes, as `npm start` runs
// them), each beside its baseline in the same run: a bare workflow of the same shape on the same
// dev server, run by a worker with the same concurrency options.
//  R5  intakes/s end to end over HTTP (create, PUT, upload-complete, approve -> promoted), fixed in-flight cap
//      / bare workflows/s (start, signal, activity, signal, activity)                      target >= 0.6 (issue 12)
//  R6  history events per completed intake, beside the bare workflow of the same shape      target <= 30 (issue 44)
//  R7  p50 upload-complete -> awaiting_review visible over HTTP / p50 signal -> activity done (bare)  target <= 1.2 (issue 12)
// With --temporal both, the whole measurement runs on the dev server, then on the real Temporal
// server (PostgreSQL persistence, SQL visibility), and a last table sets the two side by side.
// Run: npm run bench:temporal [-- --intakes 200 --inflight 8 --bytes 204800 --seconds 180 --rounds 4 --image minimal|photo --temporal dev|server|both]
import crypto from 'node:crypto';
import { parseCli } from '../lib/cli';
import { intakeWorkflowId, uploadCompleteUpdate } from '../workflows/messages';
import { firstSignal } from './bare/workflows';
import { startBare, type Bare } from './lib/bare';
import { EVENT_TYPE_NAMES, medianPhases, phasesAfterMessage } from './lib/history-phases';
import { benchCall as call, intakeBody } from './lib/intake';
import { distinctJpegs } from './lib/images';
import { startBenchStack, type BenchStack } from './lib/stack';
import { TEMPORAL_SERVER_DIR, temporalServerAt } from '../scripts/tools/temporal-server';
import { boundedLoad, round, summarize } from './lib/stats';
import { printTable, writeResults } from './lib/results';
import { cpuByGroup, cpuSpent, threadCpuMs } from './lib/process-cpu';
import { isFirstReview } from '../lib/intake/vocabulary';

const { values } = parseCli('R5-R7: intakes/s, history events and upload-complete latency against a bare workflow of the same shape.', 'npm run bench:temporal --', {
  options: {
    intakes: { type: 'string', default: '200', description: 'intakes per round' },
    inflight: { type: 'string', default: '8', description: 'intakes in flight' },
    bytes: { type: 'string', default: String(200 * 1024), description: 'upload size' },
    seconds: { type: 'string', default: '180', description: 'time bound of the run' },
    // R5-R7 are about orchestration: by default the image is a real JPEG of few pixels (padded to
    // --bytes), so decoding costs next to nothing; `photo` decodes a 512 x 512 noise JPEG, whose
    // cost verification adds to every intake (that cost on its own: npm run bench:media).
    image: { type: 'string', default: 'minimal', description: 'minimal (few pixels, padded) or photo (512 x 512 noise)' },
    rounds: { type: 'string', default: '4', description: 'alternating rounds of ours and the bare workflow' },
    build: { type: 'boolean', default: false, description: 'run the API and the worker from dist/ with plain node, as production does (needs npm run build)' },
    replicas: { type: 'string', default: '1', description: 'API and worker processes of each kind; above 1 behind HAProxy (npm start -- --replicas N)' },
    temporal: { type: 'string', default: 'dev', description: 'dev (the dev server, SQLite), server (the real Temporal server on PostgreSQL; npm run setup -- --only temporal-server builds it) or both, one after the other' },
  },
});
if (!['dev', 'server', 'both'].includes(values.temporal)) {
  console.error(`--temporal must be dev, server or both (not ${values.temporal})`);
  process.exit(64);
}
const ROUNDS = Math.max(1, Number(values.rounds));
const N = Number(values.intakes);
const INFLIGHT = Number(values.inflight);
const BYTES = Number(values.bytes);
const MAX_MS = Number(values.seconds) * 1000;
const INTAKE = '/api/private/portfolio-intake/v1';
const POLL_MS = 50; // how often both sides look for the next state


/** Per intake, ms spent in each client step (R5: where an intake's wall time goes). */
const steps: Record<string, number[]> = { create: [], put: [], 'upload-complete -> awaiting_review': [], approve: [] };
const bareSteps: Record<string, number[]> = { start: [], 'signal -> activity done': [], 'signal -> result': [] };

/** One intake; returns ms from upload-complete sent to awaiting_review seen over HTTP. */
async function intake(s: BenchStack, bytes: Buffer, key: string): Promise<{ id: string; toReviewMs: number }> {
  const t0 = performance.now();
  const created = await call(s, 'POST', `${INTAKE}/submissions`, s.partner.headers, intakeBody(s, { key, sizeBytes: bytes.length }));
  const id = created.data.submission.submissionId as string;
  const up = created.data.upload;
  const tPut = performance.now();
  const put = await fetch(up.url, { method: 'PUT', headers: up.headers, body: bytes });
  await put.arrayBuffer();
  const t = performance.now();
  steps.create!.push(tPut - t0);
  steps.put!.push(t - tPut);
  let state = (await call(s, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, s.partner.headers)).data.intakeStatus;
  while (!isFirstReview(state)) {
    if (state === 'verification_failed') throw new Error(`${id} failed verification`);
    await new Promise((r) => setTimeout(r, POLL_MS));
    state = (await call(s, 'GET', `${INTAKE}/submissions/${id}`, s.partner.headers)).data.intakeStatus;
  }
  const toReviewMs = performance.now() - t;
  steps['upload-complete -> awaiting_review']!.push(toReviewMs);
  const tApprove = performance.now();
  const approved = await call(s, 'POST', `${INTAKE}/submissions/${id}/approve`, s.operator.headers, { reviewNotes: 'Bench approval.' });
  steps.approve!.push(performance.now() - tApprove);
  if (approved.data.intakeStatus !== 'promoted_to_media_store') throw new Error(`${id}: ${approved.data.intakeStatus}`);
  return { id, toReviewMs };
}

/** One bare workflow; returns ms from the first signal to its activity completed (seen by query). */
async function bare(b: Bare, id: string): Promise<number> {
  const r = await b.run(id);
  bareSteps.start!.push(r.startMs);
  bareSteps['signal -> activity done']!.push(r.signalToActivityMs);
  bareSteps['signal -> result']!.push(r.signalToResultMs);
  return r.signalToActivityMs;
}

const REPLICAS = Math.max(1, Number(values.replicas));
const FROM_BUILD = values.build === true;
type Row = { id: string; figure: string; ours: number; baseline: number; ratio: number; target: string };

/** R5-R7 on one stack (the dev server, or the real server when `REAL`). */
async function measure(REAL: boolean): Promise<{ setup: string; rows: Row[] }> {
  for (const xs of [...Object.values(steps), ...Object.values(bareSteps)]) xs.length = 0;
  /** How this run's processes ran, in the titles and the results file's name. */
  const SETUP = `${REAL ? 'real Temporal server (PostgreSQL)' : 'Temporal dev server (SQLite)'}, ${FROM_BUILD ? 'dist/ (plain node)' : 'tsx'}, ${REPLICAS} API + ${REPLICAS} worker${REPLICAS > 1 ? 's behind HAProxy' : ''}`;
  const realTemporal = REAL ? temporalServerAt(TEMPORAL_SERVER_DIR) : undefined;
  if (REAL && !realTemporal) throw new Error(`--temporal server: no build in ${TEMPORAL_SERVER_DIR}; npm run setup -- --only temporal-server`);
  const stack = await startBenchStack({ replicas: REPLICAS, fromBuild: FROM_BUILD, ...(realTemporal ? { realTemporal } : {}) });
  const bareSide = await startBare(stack);
  const client = bareSide.client;
  try {
    // One image per intake (made before the clock runs): each a different upload, as partners send.
    const WARM = 10;
    const images = await distinctJpegs(WARM + N, BYTES, { minimal: values.image !== 'photo' });
    const imageOf = (i: number) => images[i]!;
    const run = crypto.randomBytes(3).toString('hex');
    // warm-up both sides
    await boundedLoad(async (i) => void (await intake(stack, imageOf(i), `warm-${run}-${i}`)), { count: WARM, concurrency: INFLIGHT, maxMs: MAX_MS });
    await boundedLoad(async (i) => void (await bare(bareSide, `bare-warm-${run}-${i}`)), { count: WARM, concurrency: INFLIGHT, maxMs: MAX_MS });

    for (const xs of [...Object.values(steps), ...Object.values(bareSteps)]) xs.length = 0; // drop the warm-up
    const ids: string[] = [];
    const toReview: number[] = [];
    const bareIds: string[] = [];
    const signalToActivity: number[] = [];
    let intakeSeconds = 0;
    let bareSeconds = 0;
    // Where the CPU goes (R5 is bound by it on a small machine): by process over the intake rounds
    // and over the bare rounds, and by thread in the worker over the intake rounds.
    const cpu = { intake: new Map<string, number>(), bare: new Map<string, number>(), workerThreads: new Map<string, number>() };
    const add = (into: Map<string, number>, spent: Map<string, number>) => {
      for (const [k, ms] of spent) into.set(k, (into.get(k) ?? 0) + ms);
    };
    const workerPid = stack.workerPid();
    // Both sides alternate in ROUNDS batches, so a slow spell of the machine (this is a shared
    // 2-core box) lands on both rather than on whichever side happened to run then.
    const perRound = Math.ceil(N / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      const count = Math.min(perRound, N - round * perRound);
      if (count <= 0) break;
      let t = performance.now();
      let cpu0 = cpuByGroup({ under: process.pid });
      const threads0 = workerPid === undefined ? new Map<string, number>() : threadCpuMs(workerPid);
      await boundedLoad(
        async (i) => {
          const r = await intake(stack, imageOf(WARM + round * perRound + i), `bench-${run}-${round}-${i}`);
          ids.push(r.id);
          toReview.push(r.toReviewMs);
        },
        { count, concurrency: INFLIGHT, maxMs: MAX_MS },
      );
      intakeSeconds += (performance.now() - t) / 1000;
      add(cpu.intake, cpuSpent(cpu0, cpuByGroup({ under: process.pid })));
      if (workerPid !== undefined) add(cpu.workerThreads, cpuSpent(threads0, threadCpuMs(workerPid)));
      t = performance.now();
      cpu0 = cpuByGroup({ under: process.pid });
      await boundedLoad(
        async (i) => {
          const id = `bare-${run}-${round}-${i}`;
          signalToActivity.push(await bare(bareSide, id));
          bareIds.push(id);
        },
        { count, concurrency: INFLIGHT, maxMs: MAX_MS },
      );
      bareSeconds += (performance.now() - t) / 1000;
      add(cpu.bare, cpuSpent(cpu0, cpuByGroup({ under: process.pid })));
    }

    const intakeEvents = await Promise.all(ids.slice(0, 20).map(async (id) => (await client.workflow.getHandle(intakeWorkflowId(id)).fetchHistory()).events ?? []));
    const bareEvents = await Promise.all(bareIds.slice(0, 20).map(async (id) => (await client.workflow.getHandle(id).fetchHistory()).events ?? []));
    const typeCounts = (events: { eventType?: unknown }[]) => {
      const c: Record<string, number> = {};
      for (const e of events) {
        const name = EVENT_TYPE_NAMES[Number(e.eventType)] ?? String(e.eventType);
        c[name] = (c[name] ?? 0) + 1;
      }
      return c;
    };
    const ie = summarize(intakeEvents.map((e) => e.length));
    const be = summarize(bareEvents.map((e) => e.length));
    const intakeRate = ids.length / intakeSeconds;
    const bareRate = bareIds.length / bareSeconds;
    const r7 = summarize(toReview);
    const b7 = summarize(signalToActivity);
    const rows: Row[] = [
      { id: 'R5', figure: 'intakes/s end to end / bare workflows/s', ours: round(intakeRate), baseline: round(bareRate), ratio: round(intakeRate / bareRate), target: '>= 0.6' },
      // Issue 12: no more events per intake than the 31 before it (the bare shape is shown beside).
      { id: 'R6', figure: 'history events per completed intake (baseline: the bare shape)', ours: ie.p50, baseline: be.p50, ratio: ie.p50, target: '<= 30' },
      { id: 'R7', figure: 'p50 upload-complete -> awaiting_review (HTTP) / p50 signal -> activity done (bare)', ours: r7.p50, baseline: b7.p50, ratio: round(r7.p50 / b7.p50), target: '<= 1.2' },
    ];
    printTable(`R5-R7: ${ids.length} intakes (${BYTES} B) and ${bareIds.length} bare workflows, ${INFLIGHT} in flight; ${SETUP}`, rows);
    const ic = typeCounts(intakeEvents[0] ?? []);
    const bc = typeCounts(bareEvents[0] ?? []);
    const types = [...new Set([...Object.keys(ic), ...Object.keys(bc)])].sort();
    printTable('R6 breakdown: event types of one completed intake vs one bare workflow', types.map((ty) => ({ eventType: ty, intake: ic[ty] ?? 0, bare: bc[ty] ?? 0 })));
    // Profiles: client steps per intake and per bare workflow (R5), and the server-side phases after
    // upload-complete / the first signal, read from the recorded histories (R7).
    const stepRows = [
      ...Object.entries(steps).map(([step, xs]) => ({ side: 'intake', step, ...summarize(xs) })),
      ...Object.entries(bareSteps).map(([step, xs]) => ({ side: 'bare', step, ...summarize(xs) })),
    ];
    printTable('R5 profile: wall time per client step (ms)', stepRows);
    const perItem = (m: Map<string, number>, n: number, k: string) => round((m.get(k) ?? 0) / Math.max(1, n), 1);
    const groups = [...new Set([...cpu.intake.keys(), ...cpu.bare.keys()])].sort((a, b) => (cpu.intake.get(b) ?? 0) - (cpu.intake.get(a) ?? 0));
    const cpuRows = groups.map((g) => ({ process: g, intake: perItem(cpu.intake, ids.length, g), bare: perItem(cpu.bare, bareIds.length, g) }));
    const ours = cpuRows.filter((r) => r.process !== 'outside this bench');
    cpuRows.push({ process: 'total (this bench)', intake: round(ours.reduce((x, r) => x + r.intake, 0), 1), bare: round(ours.reduce((x, r) => x + r.bare, 0), 1) });
    printTable('R5 profile: CPU ms per intake and per bare workflow, by process (the bare worker runs in the bench client)', cpuRows);
    const threadRows = [...cpu.workerThreads.keys()].map((th) => ({ thread: th, ms: perItem(cpu.workerThreads, ids.length, th) })).filter((r) => r.ms > 0).sort((a, b) => b.ms - a.ms);
    printTable("R5 profile: the worker's CPU ms per intake, by thread (MainThread: activities; WorkerThread: workflow code)", threadRows);
    const intakePhases = medianPhases(intakeEvents.map((e) => phasesAfterMessage(e, uploadCompleteUpdate.name)));
    const barePhases = medianPhases(bareEvents.map((e) => phasesAfterMessage(e, firstSignal.name)));
    printTable('R7 profile: server-side phases after upload-complete (intake), from 20 histories', intakePhases);
    printTable('R7 profile: server-side phases after the first signal (bare), from 20 histories', barePhases);
    const file = writeResults(`temporal-throughput${REAL ? '-server' : ''}${FROM_BUILD ? '-build' : ''}${REPLICAS > 1 ? `-replicas${REPLICAS}` : ''}`, {
      setup: SETUP,
      replicas: REPLICAS,
      fromBuild: FROM_BUILD,
      profile: { steps: stepRows, intakePhases, barePhases, cpu: cpuRows, workerThreads: threadRows },
      intakes: ids.length,
      bare: bareIds.length,
      inflight: INFLIGHT,
      bytes: BYTES,
      rows,
      r7: { intakeToReviewMs: r7, bareSignalToActivityMs: b7 },
      historyEvents: { intake: ie, bare: be, intakeTypes: ic, bareTypes: bc },
    });
    console.log(`\nwritten: ${file}`);
    return { setup: SETUP, rows };
  } finally {
    await bareSide.stop();
    await stack.stop();
  }
}

const sides = values.temporal === 'both' ? [false, true] : [values.temporal === 'server'];
if (sides.includes(true) && !temporalServerAt(TEMPORAL_SERVER_DIR)) throw new Error(`--temporal ${values.temporal}: no build in ${TEMPORAL_SERVER_DIR}; npm run setup -- --only temporal-server`);
const results: { setup: string; rows: Row[] }[] = [];
for (const real of sides) results.push(await measure(real));
if (results.length === 2) {
  const [dev, server] = results as [{ setup: string; rows: Row[] }, { setup: string; rows: Row[] }];
  const both = dev.rows.map((d, i) => {
    const s = server.rows[i]!;
    return { id: d.id, 'dev: ours': d.ours, 'dev: baseline': d.baseline, 'dev: ratio': d.ratio, 'server: ours': s.ours, 'server: baseline': s.baseline, 'server: ratio': s.ratio, target: d.target };
  });
  printTable(`R5-R7 on both servers (R6: events; ratio R5, R7: ours / bare on the same server). dev: ${dev.setup}; server: ${server.setup}`, both);
  console.log(`\nwritten: ${writeResults(`temporal-throughput-both${FROM_BUILD ? '-build' : ''}${REPLICAS > 1 ? `-replicas${REPLICAS}` : ''}`, { dev, server, both })}`);
}
