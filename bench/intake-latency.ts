// Latency of each intake route on the embedded stack (issue 4's report), with GET /health/live
// through the same server as the baseline of the same run. Starts the whole stack as `npm start`
// does (API and worker as their own processes), runs N intakes with a fixed number in flight
// (create, PUT, upload-complete, status, approve or reject), plus review-queue reads and artist
// resolution requests, and counts history events of completed intake workflows.
// Run: npm run bench:intake [-- --intakes 200 --concurrency 4 --bytes 204800 --seconds 240]
import crypto from 'node:crypto';
import { parseCli } from '../lib/cli';
import { intakeWorkflowId } from '../workflows/messages';
import { realJpeg } from './lib/images';
import { startBenchStack, type BenchStack } from './lib/stack';
import { boundedLoad, round, summarize } from './lib/stats';
import { printTable, writeResults } from './lib/results';
import { stackTemporalClient } from '../temporal/connection';
import { isFirstReview } from '../lib/intake/vocabulary';

const { values } = parseCli('Intake latency: create to awaiting_review and promoted, p50/p95.', 'npm run bench:intake --', {
  options: {
    intakes: { type: 'string', default: '200', description: 'intakes measured' },
    concurrency: { type: 'string', default: '4', description: 'intakes in flight' },
    bytes: { type: 'string', default: String(200 * 1024), description: 'upload size' },
    seconds: { type: 'string', default: '240', description: 'time bound of the run' },
    warmup: { type: 'string', default: '10', description: 'unmeasured intakes first' },
    'reject-every': { type: 'string', default: '5', description: 'every Nth intake is rejected instead of approved' },
  },
});
const INTAKES = Number(values.intakes);
const CONCURRENCY = Number(values.concurrency);
const BYTES = Number(values.bytes);
const MAX_MS = Number(values.seconds) * 1000;
const WARMUP = Number(values.warmup);
const REJECT_EVERY = Number(values['reject-every']);
const INTAKE = '/api/private/portfolio-intake/v1';

type Route = 'create' | 'put' | 'uploadComplete' | 'status' | 'approve' | 'reject' | 'reviewQueue' | 'artistResolution' | 'healthLive';
const samples = new Map<Route, number[]>();
const record = (r: Route, ms: number) => (samples.get(r) ?? samples.set(r, []).get(r)!).push(ms);


async function timed(route: Route | null, url: string, init: RequestInit, expect: number[]): Promise<{ status: number; body: any }> {
  const t = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  const ms = performance.now() - t;
  if (!expect.includes(res.status)) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text.slice(0, 300)}`);
  if (route) record(route, ms);
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

function json(headers: Record<string, string>, method: string, body?: unknown): RequestInit {
  return { method, headers: { ...headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
}

type Outcome = { id: string; kind: 'promoted' | 'rejected' };

async function oneIntake(s: BenchStack, i: number, measure: boolean, bytes: Buffer, runId: string): Promise<Outcome> {
  const m = (r: Route) => (measure ? r : null);
  const created = await timed(
    m('create'),
    `${s.apiUrl}${INTAKE}/submissions`,
    json(s.partner.headers, 'POST', {
      idempotencyKey: `bench-${runId}-${measure ? 'm' : 'w'}-${i}`,
      tenantId: s.partner.organizationId,
      artistCanonicalId: `artist-bench-${i % 50}`,
      source: 'partner_api',
      fileName: `bench-${i}.jpg`,
      mimeType: 'image/jpeg',
      sizeBytes: bytes.length,
      rightsPosture: 'artist_attested',
      consentPosture: 'client_consented',
    }),
    [201],
  );
  const id = created.body.data.submission.submissionId as string;
  const upload = created.body.data.upload as { url: string; headers: Record<string, string> };
  await timed(m('put'), upload.url, { method: 'PUT', headers: upload.headers, body: bytes }, [200]);
  const done = await timed(m('uploadComplete'), `${s.apiUrl}${INTAKE}/submissions/${id}/upload-complete`, json(s.partner.headers, 'POST'), [200]);
  if (!isFirstReview(done.body.data.intakeStatus)) throw new Error(`${id}: ${done.body.data.intakeStatus}`);
  await timed(m('status'), `${s.apiUrl}${INTAKE}/submissions/${id}`, { headers: s.partner.headers }, [200]);
  if (i % REJECT_EVERY === REJECT_EVERY - 1) {
    await timed(m('reject'), `${s.apiUrl}${INTAKE}/submissions/${id}/reject`, json(s.operator.headers, 'POST', { reasonCode: 'quality_insufficient', reviewNotes: 'Too blurry to publish.' }), [200]);
    return { id, kind: 'rejected' };
  }
  {
    const approved = await timed(m('approve'), `${s.apiUrl}${INTAKE}/submissions/${id}/approve`, json(s.operator.headers, 'POST', { reviewNotes: 'Rights attested, approved.' }), [200]);
    if (approved.body.data.intakeStatus !== 'promoted_to_media_store') throw new Error(`${id}: ${approved.body.data.intakeStatus}`);
  }
  return { id, kind: 'promoted' };
}

const stack = await startBenchStack();
try {
  const runId = crypto.randomBytes(3).toString('hex');
  const bytes = realJpeg(BYTES);
  process.stderr.write(`stack ready at ${stack.apiUrl}; warm-up ${WARMUP} intakes ...\n`);
  await boundedLoad(async (i) => void (await oneIntake(stack, i, false, bytes, runId)), { count: WARMUP, concurrency: CONCURRENCY, maxMs: MAX_MS });

  process.stderr.write(`measuring ${INTAKES} intakes, ${CONCURRENCY} in flight, ${BYTES} bytes each ...\n`);
  const ids: Outcome[] = [];
  const started = performance.now();
  // Beside the intakes, one more lane reads the review queue, resolves artists and hits the
  // baseline route, so all of them are measured under the same load.
  let stop = false;
  const sideLane = (async () => {
    let k = 0;
    while (!stop && performance.now() - started < MAX_MS) {
      await timed('healthLive', `${stack.apiUrl}/api/v1/health/live`, {}, [200]);
      await timed('reviewQueue', `${stack.apiUrl}${INTAKE}/review-queue?limit=20`, { headers: stack.operator.headers }, [200]);
      await timed(
        'artistResolution',
        `${stack.apiUrl}${INTAKE}/artist-resolution-requests`,
        json(stack.partner.headers, 'POST', {
          idempotencyKey: `bench-ar-${runId}-${k++}`,
          tenantId: stack.partner.organizationId,
          source: 'partner_api',
          instagramHandle: `@bench_${k % 97}`,
        }),
        [200, 201],
      );
    }
  })();
  await boundedLoad(async (i) => void ids.push(await oneIntake(stack, i, true, bytes, runId)), { count: INTAKES, concurrency: CONCURRENCY, maxMs: MAX_MS });
  const elapsed = performance.now() - started;
  stop = true;
  await sideLane;

  // History events per completed intake workflow.
  const { client, connection } = stackTemporalClient(stack);
  const eventCounts: Record<string, number[]> = { promoted: [], rejected: [] };
  for (const { id, kind } of ids.slice(0, 30)) {
    const history = await client.workflow.getHandle(intakeWorkflowId(id)).fetchHistory();
    eventCounts[kind]!.push(history.events?.length ?? 0);
  }
  await connection.close();

  const baseline = summarize(samples.get('healthLive') ?? []);
  const rows = (['create', 'put', 'uploadComplete', 'status', 'approve', 'reject', 'reviewQueue', 'artistResolution', 'healthLive'] as Route[]).map((r) => {
    const s = summarize(samples.get(r) ?? []);
    return { route: r, n: s.n, p50_ms: s.p50, p95_ms: s.p95, p50_vs_live: round(s.p50 / baseline.p50, 1), p95_vs_live: round(s.p95 / baseline.p95, 1) };
  });
  printTable(`intake routes on the embedded stack: ${ids.length} intakes in ${round(elapsed / 1000, 1)} s, ${CONCURRENCY} in flight, ${BYTES} B each`, rows);
  const events = Object.fromEntries(Object.entries(eventCounts).map(([k, v]) => [k, { workflows: v.length, min: Math.min(...v), max: Math.max(...v) }]));
  printTable('history events per completed intake workflow', Object.entries(events).map(([kind, e]) => ({ kind, ...e })));
  const file = writeResults('intake-latency', { intakes: ids.length, concurrency: CONCURRENCY, bytes: BYTES, elapsedSeconds: round(elapsed / 1000, 1), routes: rows, historyEvents: events });
  console.log(`\nwritten: ${file}`);
} finally {
  await stack.stop();
}
