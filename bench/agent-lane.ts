// A1 (issue 36): awaiting_review -> classification recorded by the reference classifier (its own
// process, its own key, npm run classifier), p50 over N submissions staged one after another while
// it runs; reported with its share of M1 (verifying a 12 MP JPEG, measured in this run). Then the
// classifier's throughput: N submissions waiting, the classifier started on them, classifications
// per second after its model loaded, and per CPU-second of the classifier process.
// Run: npm run bench:agents [-- --submissions 50]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { parseCli } from '../lib/cli';
import { createApiKey } from '../lib/identity/api-keys';
import { upsertMapping } from '../lib/identity/actors';
import { realJpeg } from './lib/images';
import { benchCall, intakeBody } from './lib/intake';
import { processCpuMs } from './lib/process-cpu';
import { printTable, writeResults } from './lib/results';
import { spawnNode, startBenchStack, stopChild, type BenchStack } from './lib/stack';
import { round, summarize } from './lib/stats';
import { verifyLikeM1, writePhoto12mp } from './lib/verification';

const { values } = parseCli('A1: awaiting_review to a recorded classification by the reference classifier, p50; its throughput per core.', 'npm run bench:agents --', {
  options: {
    submissions: { type: 'string', default: '50', description: 'submissions per phase' },
    seconds: { type: 'string', default: '300', description: 'time bound of each phase' },
  },
});
const N = Number(values.submissions);
const MAX_MS = Number(values.seconds) * 1000;
const INTAKE = '/api/private/portfolio-intake/v1';

async function stage(s: BenchStack): Promise<string> {
  const bytes = realJpeg(200 * 1024);
  const created = await benchCall(s, 'POST', `${INTAKE}/submissions`, s.partner.headers, intakeBody(s, { sizeBytes: bytes.length }));
  const put = await fetch(created.data.upload.url, { method: 'PUT', headers: { 'content-type': 'image/jpeg', 'content-length': String(bytes.length) }, body: new Uint8Array(bytes) });
  if (put.status !== 200) throw new Error(`PUT: ${put.status}`);
  const id = created.data.submission.submissionId as string;
  await benchCall(s, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, s.partner.headers);
  return id;
}


async function classified(s: BenchStack, ids: string[]): Promise<Map<string, { awaiting: Date; at: Date }>> {
  const rows = await s.sql<{ submissionId: string; awaitingSince: Date; createdAt: Date }[]>`
    select c.submission_id, s.awaiting_since, c.created_at from classifications c join submissions s using (submission_id)
    where c.submission_id = any(${ids}) and c.superseded_at is null`;
  return new Map(rows.map((r) => [r.submissionId, { awaiting: r.awaitingSince, at: r.createdAt }]));
}

async function until(what: () => Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await what()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const s = await startBenchStack();
let classifier: ChildProcess | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-agents-'));
try {
  const { keyId, key } = await createApiKey(s.sql, { organizationId: s.partner.organizationId, label: 'reference classifier' });
  await upsertMapping(s.sql, {
    actorId: 'bench-classifier', credentialKind: 'api_key', credentialSubject: keyId, role: 'classifier',
    permissions: ['agent_context:read', 'portfolio_intake:classify'], organizationId: s.partner.organizationId, selfService: false,
  });
  const env = { CLASSIFIER_API_URL: s.apiUrl, CLASSIFIER_API_KEY: key, CLASSIFIER_IDLE_MS: '100', CLASSIFIER_BATCH: '5' };
  console.log(`stack at ${s.apiUrl}; classifier process: npm run classifier with its own key`);

  // Phase 1, A1: the classifier waits on an empty queue; submissions arrive one after another.
  classifier = spawnNode('classifier/main.ts', env, undefined, 'inherit');
  await new Promise((r) => setTimeout(r, 8000)); // its model loads (reported below as the start cost)
  const a1Ids: string[] = [];
  const phase1End = Date.now() + MAX_MS;
  for (let i = 0; i < N && Date.now() < phase1End; i++) {
    a1Ids.push(await stage(s));
    await new Promise((r) => setTimeout(r, 250));
  }
  await until(async () => (await classified(s, a1Ids)).size === a1Ids.length, MAX_MS);
  const a1 = [...(await classified(s, a1Ids)).values()].map((x) => x.at.getTime() - x.awaiting.getTime());
  await stopChild(classifier);
  classifier = undefined;

  // Phase 2, throughput: N submissions waiting, then the classifier (stopped once they are all classified).
  const waiting: string[] = [];
  for (let i = 0; i < N; i++) waiting.push(await stage(s));
  const started = Date.now();
  classifier = spawnNode('classifier/main.ts', env, undefined, 'inherit');
  const pid = classifier.pid!;
  let cpuAtFirst = 0;
  let firstAt = 0;
  await until(async () => {
    const n = (await classified(s, waiting)).size;
    if (n > 0 && !firstAt) {
      firstAt = Date.now();
      cpuAtFirst = processCpuMs(pid);
    }
    return n === waiting.length;
  }, MAX_MS);
  const cpuAtEnd = processCpuMs(pid);
  const rows2 = [...(await classified(s, waiting)).values()].map((x) => x.at.getTime()).sort((a, b) => a - b);
  await stopChild(classifier);
  classifier = undefined;
  const spanS = (rows2[rows2.length - 1]! - rows2[0]!) / 1000;
  const perSecond = (rows2.length - 1) / spanS;
  const cpuS = (cpuAtEnd - cpuAtFirst) / 1000;

  // M1 in this run: verifying a 12 MP JPEG, p50 of 5.
  const file = path.join(dir, 'photo.jpg');
  await writePhoto12mp(file);
  await verifyLikeM1(file);
  const m1: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await verifyLikeM1(file);
    m1.push(performance.now() - t);
  }
  const a = summarize(a1);
  const m = summarize(m1);
  printTable(`agent lane: ${a1.length} submissions (A1), ${rows2.length} waiting (throughput), machine ${os.cpus().length} cores`, [
    { id: 'A1', figure: 'p50 awaiting_review -> classification recorded (reference classifier) / p50 M1 (verify a 12 MP JPEG)', ours_ms: round(a.p50), baseline_ms: round(m.p50), ratio: round(a.p50 / m.p50, 2) },
    { id: 'A1 p95', figure: 'p95 awaiting_review -> classification recorded', ours_ms: round(a.p95), baseline_ms: '-', ratio: '-' },
    { id: 'A2', figure: 'classifications per second, one classifier process (after its model loaded)', ours_ms: round(perSecond, 2), baseline_ms: '-', ratio: '-' },
    { id: 'A2 per core', figure: 'classifications per CPU-second of the classifier process', ours_ms: round((rows2.length - 1) / cpuS, 2), baseline_ms: '-', ratio: '-' },
    { id: 'A2 start', figure: 'classifier start to its first classification (model load included), ms', ours_ms: firstAt - started, baseline_ms: '-', ratio: '-' },
  ]);
  console.log(`\nwritten: ${writeResults('agent-lane', { a1: a, m1: m, throughput: { perSecond, cpuSeconds: cpuS, count: rows2.length, startMs: firstAt - started } })}`);
} finally {
  await stopChild(classifier);
  fs.rmSync(dir, { recursive: true, force: true });
  await s.stop();
}
