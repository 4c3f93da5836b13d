// Running it in production (issue 17): rate limits and quotas shared through PostgreSQL, the API's
// /metrics read by a Prometheus text parser, and the Web UI's summary and current-details line.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intakeWorkflowId } from '../../workflows/messages';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, stageAndVerify, submissionBody } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

type Family = { name: string; type: string; metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string }[] };

/** The families parsed by parse-prometheus-text-format (which throws on a malformed sample line), and the raw text. */
async function scrape(stack: TestStack, headers: Record<string, string> = {}): Promise<Map<string, Family> & { text: string }> {
  const res = await fetch(`${stack.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const families = parsePrometheusTextFormat(text) as Family[];
  return Object.assign(new Map(families.map((f) => [f.name, f])), { text });
}
const valueOf = (m: Map<string, Family>, name: string, labels: Record<string, string> = {}) =>
  m.get(name)?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));

describe('rate limits, quotas and metrics', () => {
  let stack: TestStack;
  let partner: TestCredential & { organizationId?: string };
  let other: TestCredential & { organizationId?: string };
  beforeAll(async () => {
    stack = await startTestStack({
      env: { RATE_LIMITS_ENABLED: 'true', RATE_LIMIT_READ_PER_MINUTE: '5', QUOTA_STAGED_SUBMISSIONS: '3', QUOTA_STAGED_BYTES: '10000', METRICS_TOKEN: 'metrics-token-0123456789' },
    });
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    other = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  });
  afterAll(async () => stack?.stop());
  const token = { authorization: 'Bearer metrics-token-0123456789' };

  it('counts reads per credential: the sixth read in a minute is 429 with Retry-After and RateLimit headers; another credential is served', async () => {
    const { id } = await stageAndVerify(stack, partner);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: partner.headers });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('ratelimit-policy')).toBe('"read";q=5;w=60');
        expect(last.headers.get('ratelimit')).toMatch(/^"read";r=4;t=\d+$/);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last!.body).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('ratelimit')).toMatch(/^"read";r=0;t=\d+$/);
    // Another credential in the same seconds has its own window (a 404 for someone else's submission, not a 429).
    expect((await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: other.headers })).status).toBe(404);
    // The counters live in PostgreSQL (shared by every replica), keyed by credential.
    const rows = await stack.sql<{ points: number }[]>`select points from rate_limits where key like 'read:cred:%' order by points desc limit 1`;
    expect(rows[0]!.points).toBe(6);

    const m = await scrape(stack, token);
    expect(Number(valueOf(m, 'rate_limit_refusals_total', { limit: 'read' })?.value)).toBe(1);
  });

  it('refuses creates beyond the staged quota of an organization with 429 quota_exceeded, leaving nothing half-created', async () => {
    // Count: 5 at once from one organization, quota 3.
    const a = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => call(stack, 'POST', `${INTAKE}/submissions`, { headers: a.headers, body: submissionBody(a, { sizeBytes: 1000 }) })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429]);
    const refused = replies.find((r) => r.status === 429)!;
    expect(refused.body.code).toBe('quota_exceeded');
    expect(refused.headers.get('retry-after')).toBe('60');
    const rows = await stack.sql<{ submissionId: string }[]>`select submission_id from submissions where partner_organization_id = ${a.organizationId!}`;
    expect(rows).toHaveLength(3);
    const claims = await stack.sql`select 1 from idempotency_records where actor_id = ${a.actorId}`;
    expect(claims).toHaveLength(3); // the refused requests' idempotency claims were rolled back
    for (const r of rows) await stack.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(r.submissionId)).describe();

    // Bytes: 4000 + 4000 fit in 10000; another 4000 does not; a smaller one still does.
    const b = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const create = (sizeBytes: number) => call(stack, 'POST', `${INTAKE}/submissions`, { headers: b.headers, body: submissionBody(b, { sizeBytes }) });
    expect((await create(4000)).status).toBe(201);
    expect((await create(4000)).status).toBe(201);
    expect((await create(4000)).body.code).toBe('quota_exceeded');
    expect((await create(1500)).status).toBe(201);
  });

  it('counts every open submission (staged, verifying, awaiting_review) and their declared bytes in the quota; a decided one frees its place', async () => {
    // Count: three verified (awaiting_review) and none staged still fill the quota of 3.
    const a = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { id, done } = await stageAndVerify(stack, a);
      expect(done.body.data.intakeStatus).toBe('awaiting_review');
      ids.push(id);
    }
    const create = (p: TestCredential, sizeBytes: number) => call(stack, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body: submissionBody(p, { sizeBytes }) });
    const refused = await create(a, 1000);
    expect([refused.status, refused.body.code]).toEqual([429, 'quota_exceeded']);
    expect(refused.body.detail).toMatch(/3 submissions \(6144 declared bytes\) open/);
    // A rejected one is decided: it no longer counts.
    const operator = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review'] });
    const rejected = await call(stack, 'POST', `${INTAKE}/submissions/${ids[0]}/reject`, { headers: operator.headers, body: { reasonCode: 'other', reviewNotes: 'Not for us.' } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect((await create(a, 1000)).status).toBe(201);

    // Bytes: two verified of 4000 (8000 of 10000) leave no room for 4000, but for 1500.
    const b = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    for (let i = 0; i < 2; i++) expect((await stageAndVerify(stack, b, jpegBytes(4000))).done.body.data.intakeStatus).toBe('awaiting_review');
    expect((await create(b, 4000)).body.code).toBe('quota_exceeded');
    expect((await create(b, 1500)).status).toBe(201);
  });

  it('serves /metrics only with the metrics token; request durations by route template, queue depth and age, transitions', async () => {
    expect((await fetch(`${stack.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${stack.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    const c = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    await stageAndVerify(stack, c);
    const [count] = await stack.sql<{ n: number }[]>`select count(*)::int as n from submissions where intake_status = 'awaiting_review'`;
    const awaiting = count!.n;
    const m = await eventually(async () => {
      const x = await scrape(stack, token);
      return Number(valueOf(x, 'intake_transitions_total', { status: 'awaiting_review' })?.value ?? 0) >= awaiting && x;
    }, 5000, 100);
    // The first transition, create, is counted too.
    const [staged] = await stack.sql<{ n: number }[]>`select count(*)::int as n from submissions`;
    expect(Number(valueOf(m, 'intake_transitions_total', { status: 'staged' })?.value ?? 0)).toBe(staged!.n);
    expect(Number(valueOf(m, 'intake_review_queue_depth')?.value)).toBe(awaiting);
    expect(Number(valueOf(m, 'intake_review_queue_oldest_age_seconds')?.value)).toBeGreaterThanOrEqual(0);
    expect(Number(valueOf(m, 'intake_submissions', { status: 'awaiting_review' })?.value)).toBe(awaiting);
    // The webhook backlog, as PostgreSQL has it at the scrape (the alerts' WebhookBacklogOld reads the age).
    const [open] = await stack.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where status in ('pending', 'delivering')`;
    expect(Number(valueOf(m, 'webhook_deliveries_open')?.value)).toBe(open!.n);
    expect(Number(valueOf(m, 'webhook_oldest_open_delivery_age_seconds')?.value)).toBeGreaterThanOrEqual(0);
    // (the parser keeps a histogram's buckets but not its labels: those are read from the sample lines)
    expect(m.get('http_request_duration_seconds')!.type).toBe('HISTOGRAM');
    const created = new RegExp(`^http_request_duration_seconds_count\\{method="POST",route="${INTAKE}/submissions",status="201"\\} (\\d+)$`, 'm').exec(m.text);
    expect(Number(created?.[1])).toBeGreaterThanOrEqual(1);
    // Route templates, not raw paths: one series for every submission id.
    const routes = [...m.text.matchAll(/^http_request_duration_seconds_count\{[^}]*route="([^"]*)"/gm)].map((x) => x[1]);
    expect(routes.some((r) => /sub_[0-9a-f]/.test(r!))).toBe(false);
    expect(routes).toContain(`${INTAKE}/submissions/{submissionId}`);
    expect(m.get('process_cpu_user_seconds_total')).toBeDefined();
  });

  it('counts the signal routes\' refusals for want of a worker in temporal_call_failures_total', async () => {
    const e = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: e.headers, body: submissionBody(e, { sizeBytes: 1000 }) });
    const id = created.body.data.submission.submissionId as string;
    const before = Number(valueOf(await scrape(stack, token), 'temporal_call_failures_total', { operation: 'worker_check' })?.value ?? 0);
    await stack.stopWorker();
    // Past the shared worker check's reuse window (api/temporal/workflow-calls.ts), a stopped worker is seen at once.
    await new Promise((r) => setTimeout(r, stack.api.deps.cfg.WORKER_CHECK_REUSE_MS));
    try {
      const refused = await eventually(async () => {
        const r = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: e.headers });
        return r.status === 503 && r;
      }, 10_000, 200);
      expect(refused.body.code).toBe('workflow_unavailable');
      const after = Number(valueOf(await scrape(stack, token), 'temporal_call_failures_total', { operation: 'worker_check' })?.value ?? 0);
      expect(after).toBeGreaterThan(before);
    } finally {
      await stack.startWorker();
    }
  });

  it('gives every intake workflow a Web UI summary and a current-details line that follows the state', async () => {
    const d = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const { id } = await stageAndVerify(stack, d, undefined, { fileName: 'koi-sleeve.jpg' });
    const handle = stack.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(id));
    const described = await handle.describe();
    expect(await described.staticSummary()).toBe(`koi-sleeve.jpg: 2048 bytes of image/jpeg for tenant ${d.organizationId}`);
    expect(await described.staticDetails()).toContain(`**Submission** ${id}`);
    const details = await eventually(async () => {
      // Through the client's data converter: the query's answer is an encrypted payload too (the Web UI reads it through the codec endpoint).
      const meta = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
      return meta.currentDetails?.startsWith('awaiting review since') && meta.currentDetails;
    }, 10_000, 100);
    expect(details).toMatch(/^awaiting review since \d{4}-\d\d-\d\dT/);
  });
});

describe('the create rate limit per organization', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { RATE_LIMITS_ENABLED: 'true', RATE_LIMIT_CREATE_PER_MINUTE: '3' } });
  });
  afterAll(async () => stack?.stop());

  it('is shared by every key of an organization: a second key gets no fresh window; another organization does', async () => {
    const first = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const second = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'], organizationId: first.organizationId! });
    const elsewhere = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const create = (p: TestCredential & { organizationId?: string }) => call(stack, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body: submissionBody(p, { sizeBytes: 1000 }) });

    expect((await create(first)).status).toBe(201);
    expect((await create(first)).status).toBe(201);
    const third = await create(second); // the second key's first create: the organization's third
    expect(third.status).toBe(201);
    expect(third.headers.get('ratelimit-policy')).toBe('"create";q=3;w=60');
    expect(third.headers.get('ratelimit')).toMatch(/^"create";r=0;t=\d+$/); // the tightest window: the organization's
    const refused = await create(second);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(refused.body.detail).toMatch(/your organization/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await create(first)).status).toBe(429);
    // Another organization has its own window; nothing was created by the refused requests.
    expect((await create(elsewhere)).status).toBe(201);
    const [n] = await stack.sql<{ n: number }[]>`select count(*)::int as n from submissions where partner_organization_id = ${first.organizationId!}`;
    expect(n!.n).toBe(3);
    const rows = await stack.sql<{ key: string; points: number }[]>`select key, points from rate_limits where key = ${`create:org:${first.organizationId}`}`;
    expect(rows[0]!.points).toBeGreaterThanOrEqual(4);
  });
});
