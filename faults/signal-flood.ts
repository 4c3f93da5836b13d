// A flood of approve signals sent straight to Temporal at one intake workflow of a running embedded
// stack (`npm start`): malformed payloads and well-formed ones without a proof, as anyone who can
// reach the frontend could send. It stages one intake through the API (the demo partner key), waits
// until it awaits review, sends the signals with a bounded number in flight, then says whether the
// worker process survived (its pid and restarts in DATA_DIR/stack.json) and what the workflow holds.
// Loopback only; every loop is bounded in count and in time.
import fs from 'node:fs';
import path from 'node:path';
import { realJpeg } from '../bench/lib/images';
import { parseCli } from '../lib/cli';
import { loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { readRunFile, RUN_FILE, type RunFile } from '../lib/stack-run';
import { DEMO_ARTIST } from '../scripts/stack-hooks';
import { intakeWorkflowId } from '../workflows/messages';
import { malformedPayloads } from './resilience';
import { stackTemporalClient } from '../temporal/connection';
import { isFirstReview } from '../lib/intake/vocabulary';

const INTAKE = '/api/private/portfolio-intake/v1';

const { values: args } = parseCli('Flood one intake workflow of a running `npm start` stack with approve signals (malformed, and well-formed without a proof); report whether the worker survived.', 'npm run faults:flood --', {
  options: {
    signals: { type: 'string', default: '10000', description: 'signals to send (1-50000)' },
    'in-flight': { type: 'string', default: '64', description: 'signals in flight at once (1-512)' },
    'malformed-share': { type: 'string', default: '0.5', description: 'share of malformed payloads (0-1); the rest are well-formed without a proof' },
    'deadline-seconds': { type: 'string', default: '300', description: 'stop sending after this long (10-1800)' },
    'watch-seconds': { type: 'string', default: '240', description: 'after the flood, watch the workflow and the worker this long at most (10-1800)' },
    'submission-id': { type: 'string', description: 'flood this submission (awaiting_review) instead of staging a new one' },
  },
});

function num(name: keyof typeof args, min: number, max: number): number {
  const v = Number(args[name]);
  if (!Number.isFinite(v) || v < min || v > max) {
    console.error(`--${name} must be a number from ${min} to ${max}`);
    process.exit(64);
  }
  return v;
}
const total = Math.floor(num('signals', 1, 50_000));
const inFlight = Math.floor(num('in-flight', 1, 512));
const malformedShare = num('malformed-share', 0, 1);
const deadlineMs = num('deadline-seconds', 10, 1800) * 1000;
const watchMs = num('watch-seconds', 10, 1800) * 1000;

const cfg = loadConfigOrExit(toolConfigSchema);
const run = readRunFile(cfg.DATA_DIR);
if (!run?.apiUrl) {
  console.error(`no running stack on ${path.join(cfg.DATA_DIR, RUN_FILE)}: start one (npm start) or set DATA_DIR`);
  process.exit(69);
}
const isLoopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
const apiHost = new URL(run.apiUrl).hostname;
const temporalHost = run.temporalAddress.split(':')[0]!;
if (!isLoopback(apiHost) || !isLoopback(temporalHost)) {
  console.error(`refused: loopback only (API ${run.apiUrl}, Temporal ${run.temporalAddress})`);
  process.exit(64);
}
console.log(`[flood] stack ${path.join(cfg.DATA_DIR, RUN_FILE)}: API ${run.apiUrl}, Temporal ${run.temporalAddress}, worker pid ${run.pids.worker}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const key = fs.readFileSync(path.join(cfg.DATA_DIR, 'secrets', 'demo-partner-key'), 'utf8').trim();
const partner = { 'x-api-key': key };

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${run!.apiUrl}${url}`, {
    method,
    headers: { ...partner, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/** Create, PUT and upload-complete one intake as the demo partner; wait (60 s at most) until it awaits review. */
async function stageForReview(): Promise<string> {
  const bytes = realJpeg(8 * 1024);
  const created = await call('POST', `${INTAKE}/submissions`, {
    idempotencyKey: `flood-${Date.now()}-${process.pid}`,
    tenantId: 'demo-tenant',
    artistCanonicalId: DEMO_ARTIST,
    source: 'partner_api',
    fileName: 'flood.jpg',
    mimeType: 'image/jpeg',
    sizeBytes: bytes.length,
    rightsPosture: 'artist_attested',
    consentPosture: 'client_consented',
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  const id = created.body.data.submission.submissionId as string;
  const upload = created.body.data.upload as { url: string; headers: Record<string, string> };
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes, signal: AbortSignal.timeout(30_000) });
  if (put.status !== 200) throw new Error(`PUT: ${put.status}`);
  const done = await call('POST', `${INTAKE}/submissions/${id}/upload-complete`);
  if (done.status >= 300) throw new Error(`upload-complete: ${done.status} ${JSON.stringify(done.body).slice(0, 300)}`);
  for (const until = Date.now() + 60_000; Date.now() < until; await sleep(250)) {
    const st = (await call('GET', `${INTAKE}/submissions/${id}`)).body?.data?.intakeStatus;
    if (isFirstReview(st)) return id;
  }
  throw new Error(`submission ${id} not awaiting_review within 60 s`);
}

/** The i-th payload: malformed (the fault suite's generator) or well-formed without a proof. */
function payloadsOf(n: number): unknown[] {
  const malformed = malformedPayloads('approve', Math.max(1, Math.round(n * malformedShare)), 4242);
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const bad = i % 100 < malformedShare * 100;
    out.push(bad ? malformed[i % malformed.length] : { requestId: `flood-noproof-${i}`, by: { actorId: 'operator:flood', credentialId: 'cred_flood' }, reviewNotes: `flood ${i}` });
  }
  return out;
}

const workerOf = (r: RunFile | undefined) => ({ pid: r?.pids.worker, restarts: r?.restarts.worker ?? 0 });
const id = args['submission-id'] ?? (await stageForReview());
const workflowId = intakeWorkflowId(id);
console.log(`[flood] workflow ${workflowId}: ${total} approve signals, ${inFlight} in flight, malformed share ${malformedShare}`);
const before = workerOf(readRunFile(cfg.DATA_DIR));
const { client, connection } = stackTemporalClient({ temporalAddress: run.temporalAddress, dataDir: cfg.DATA_DIR, temporalTls: run.temporalTls });
const tally = { sent: 0, failed: 0, errors: new Map<string, number>() };
const t0 = Date.now();
try {
  const handle = client.workflow.getHandle(workflowId);
  const payloads = payloadsOf(total);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < total && Date.now() - t0 < deadlineMs; i = next++) {
      try {
        await handle.signal('approve', payloads[i] as never); // no handler: the run keeps it unhandled, the server caps the count
        tally.sent++;
      } catch (err) {
        tally.failed++;
        const m = (err as Error).message.slice(0, 120);
        tally.errors.set(m, (tally.errors.get(m) ?? 0) + 1);
      }
      if ((tally.sent + tally.failed) % 1000 === 0) console.log(`[flood] ${tally.sent + tally.failed} done (${tally.failed} failed), ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  console.log(`[flood] sent ${tally.sent}, failed ${tally.failed} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const [m, n] of tally.errors) console.log(`[flood]   ${n} x ${m}`);
  // The worker works through the signals, in workflow tasks that may fail (a task over the SDK's
  // 5 s limit) and be retried: watch until no workflow task is pending for three looks in a row,
  // or --watch-seconds.
  let idle = 0;
  for (const until = Date.now() + watchMs; Date.now() < until && idle < 3; ) {
    await sleep(2000);
    const d = await handle.describe();
    const task = d.raw.pendingWorkflowTask;
    idle = task ? 0 : idle + 1;
    const w = workerOf(readRunFile(cfg.DATA_DIR));
    console.log(
      `[flood] +${((Date.now() - t0) / 1000).toFixed(0)} s: workflow ${d.status.name}, history ${d.historyLength} events, ` +
        `${task ? `workflow task pending (attempt ${task.attempt})` : 'no workflow task pending'}; worker pid ${w.pid}, restarts ${w.restarts}`,
    );
  }
} finally {
  await connection.close();
}
const after = workerOf(readRunFile(cfg.DATA_DIR));
const survived = after.pid === before.pid && after.restarts === before.restarts;
console.log(`[flood] worker ${survived ? 'survived' : 'did NOT survive'}: pid ${before.pid} -> ${after.pid}, restarts ${before.restarts} -> ${after.restarts} (its exit is in the npm start log)`);
process.exitCode = survived ? 0 : 1;
