// The reconciler sees every open row (issue 43, item 6): it walks the open submissions from
// PostgreSQL, a bounded number per pass, so no closed run starves behind newer ones, and a
// submission this Temporal never knew (a lost temporal.db, a new cluster) gets a fresh run from
// the state its row records. Real Temporal dev servers and a real PostgreSQL.
import { stateFlagsOf } from '../../lib/intake/lifecycle';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathVariable } from '../../lib/config';
import { transitionOf } from '../../lib/intake/lifecycle';
import { applyTransition } from '../../lib/intake/transitions';
import { freePort } from '../../lib/net/free-port';
import { findTemporalCli } from '../../temporal/cli-path';
import { startDevServer, type DevServer } from '../../temporal/dev-server';
import { runningAmong } from '../../worker/reconcile-walk';
import { intakeWorkflowId } from '../../workflows/messages';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, putUpload, stageAndVerify, submissionBody, writeStagedAround } from '../helpers/intake';
import { createTestDatabase, eventually, startTestStack, uid, type TestStack } from '../helpers/stack';

const statusOf = async (stack: TestStack, id: string) =>
  (await stack.sql<{ intakeStatus: string }[]>`select intake_status from submissions where submission_id = ${id}`)[0]!.intakeStatus;

const create = async (stack: TestStack, partner: TestCredential) => {
  const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: 2048 }) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.data.submission.submissionId as string, uploadUrl: created.body.data.upload.url as string };
};

/** Until visibility lists none of `ids` as running (it follows a termination by a moment). */
const noneRunning = (client: Client, ids: string[]) => eventually(async () => (await runningAmong(client, ids)).size === 0, 20_000);

describe('the reconciler walks the open rows, a bounded number per pass', () => {
  let stack: TestStack;
  let partner: TestCredential;
  beforeAll(async () => {
    stack = await startTestStack({ env: { RECONCILE_SECONDS: '0', RECONCILE_ROWS_PER_PASS: '3' } });
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  }, 120_000);
  afterAll(async () => stack?.stop());

  it('7 open submissions with terminated runs and 3 rows a pass: each is resumed once, all within 3 passes, none over 3 in one pass', { timeout: 120_000 }, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await create(stack, partner)).id);
    const client = stack.api.deps.temporal.client;
    for (const id of ids) await client.workflow.getHandle(intakeWorkflowId(id)).terminate('issue 43: closed by hand');
    await noneRunning(client, ids);

    const passes: string[][] = [];
    for (let k = 0; k < 3; k++) passes.push(await stack.reconcile());
    expect(passes.map((p) => p.length)).toEqual([3, 3, 1]);
    // Oldest first: the first pass takes the oldest, the last the newest.
    expect(passes.flat()).toEqual(ids);
    const audit = await stack.sql<{ submissionId: string; n: number }[]>`
      select submission_id, count(*)::int as n from intake_resumptions where submission_id = any(${ids}) group by submission_id`;
    expect(audit.map((a) => a.n)).toEqual(ids.map(() => 1));
    for (const id of ids) expect((await client.workflow.getHandle(intakeWorkflowId(id)).describe()).status.name).toBe('RUNNING');
    // One list query names them running, so a round describes none of them.
    expect(await eventually(async () => (await runningAmong(client, ids)).size === ids.length, 20_000)).toBe(true);
    // The walk wrapped around: the next round finds every run running and resumes nothing.
    for (let k = 0; k < 3; k++) expect(await stack.reconcile()).toEqual([]);
  });
});

describe('an older closed run does not starve behind newer ones', () => {
  let stack: TestStack;
  let partner: TestCredential;
  beforeAll(async () => {
    stack = await startTestStack({ env: { RECONCILE_SECONDS: '0' } });
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  }, 120_000);
  afterAll(async () => stack?.stop());

  it('a terminated intake is resumed in one pass though 205 intake runs closed after it (visibility, newest first, showed it never)', { timeout: 180_000 }, async () => {
    const { id } = await create(stack, partner);
    const client = stack.api.deps.temporal.client;
    await client.workflow.getHandle(intakeWorkflowId(id)).terminate('issue 43: the older one');
    // 205 intake runs closed after it, on a queue no worker polls (their submissions are gone).
    const nobody = uid('tq-nobody-');
    const newer = Array.from({ length: 205 }, () => uid('sub_gone_'));
    for (let i = 0; i < newer.length; i += 15)
      await Promise.all(newer.slice(i, i + 15).map(async (s) => {
        const h = await client.workflow.start('portfolioIntake', { workflowId: intakeWorkflowId(s), taskQueue: nobody, args: [{}] });
        await h.terminate('issue 43: a newer closed run');
      }));
    const closedAfter = `WorkflowType = 'portfolioIntake' AND ExecutionStatus = 'Terminated' AND TaskQueue = '${nobody}'`;
    await eventually(async () => (await client.workflow.count(closedAfter)).count === 205, 30_000);
    await noneRunning(client, [id]);

    expect(await stack.reconcile()).toEqual([id]);
    expect(await statusOf(stack, id)).toBe('staged');
    expect((await client.workflow.getHandle(intakeWorkflowId(id)).describe()).status.name).toBe('RUNNING');
  });
});

describe('an open row the reconciler cannot resume', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false, env: { RECONCILE_SECONDS: '0' } });
  }, 120_000);
  afterAll(async () => stack?.stop());

  it('a row back in awaiting_review whose run completed (a database restored from before the decision): not resumed, counted once as not_resumable run_completed', { timeout: 120_000 }, async () => {
    const worker = await stack.startWorkerWith({ WORKER_METRICS_PORT: String(await freePort()) });
    try {
      const partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
      const op = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
      const { id } = await stageAndVerify(stack, partner);
      const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: op.headers, body: { reviewNotes: 'looks right' } });
      expect([approved.status, approved.body.data?.intakeStatus], JSON.stringify(approved.body)).toEqual([200, 'promoted_to_media_store']);
      const h = stack.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(id));
      await eventually(async () => (await h.describe()).status.name === 'COMPLETED', 20_000);
      // The whole row as it was (a restore): its status and the flags written with it.
      const flags = stateFlagsOf('awaiting_review');
      await stack.sql`update submissions set intake_status = 'awaiting_review', is_open = ${flags.isOpen}, is_undecided = ${flags.isUndecided}, is_deciding = ${flags.isDeciding},
        review_status = 'review_required' where submission_id = ${id}`;

      expect(await worker.reconcile()).toEqual([]);
      expect(await worker.reconcile()).toEqual([]);
      expect(await statusOf(stack, id)).toBe('awaiting_review');
      expect(await stack.sql`select 1 from intake_resumptions where submission_id = ${id}`).toHaveLength(0);
      const metrics = await (await fetch(worker.metricsUrl!)).text();
      expect(metrics).toContain('intake_runs_resumed_total{closed_as="completed",outcome="not_resumable",reason="run_completed"} 1\n');
    } finally {
      await worker.stop();
    }
  });
});

const cliPath = findTemporalCli({ explicit: process.env.TEMPORAL_CLI_PATH, pathVar: pathVariable() });

describe.skipIf(!cliPath)('a submission this Temporal never knew', () => {
  let fresh: DevServer;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let before: TestStack;
  let after: TestStack | undefined;
  beforeAll(async () => {
    fresh = await startDevServer({ cliPath: cliPath!, port: await freePort(), readyTimeoutMs: 60_000 });
    db = await createTestDatabase();
  }, 120_000);
  afterAll(async () => {
    await after?.stop();
    await before?.stop();
    await fresh?.stop();
    await db?.drop();
  });

  it('open rows in staged, verifying, awaiting_review and promoting, pointed at an empty Temporal: approve answers 503 workflow_resuming, one pass starts a run for each from its row, each then promotes exactly once', { timeout: 240_000 }, async () => {
    // Made against the shared dev server; the promotion's storage "away", so one stays promoting.
    before = await startTestStack({ databaseUrl: db.url, worker: false, env: { RECONCILE_SECONDS: '0', TRANSITION_WAIT_MS: '1000' } });
    await before.startWorker({ afterMediaCopy: async () => { throw new Error('storage away (test)'); } });
    const partner = await apiKeyActor(before, { permissions: ['portfolio_intake:stage'] });
    const op = await bearerActor(before, { permissions: ['portfolio_intake:review'], operator: true });
    const staged = await create(before, partner);
    const verifying = await create(before, partner);
    expect((await putUpload(verifying.uploadUrl, jpegBytes(2048))).status).toBe(200);
    const awaiting = (await stageAndVerify(before, partner)).id;
    const promoting = (await stageAndVerify(before, partner)).id;
    const first = await call(before, 'POST', `${INTAKE}/submissions/${promoting}/approve`, { headers: op.headers, body: { reviewNotes: 'looks right' } });
    expect([first.status, first.body.data?.intakeStatus], JSON.stringify(first.body)).toEqual([202, 'promoting']);
    // The upload completed as the route records it, the moment before the cluster was lost.
    const [owner] = await before.sql<{ partnerActorId: string; credentialId: string }[]>`
      select partner_actor_id, credential_id from submissions where submission_id = ${verifying.id}`;
    await before.sql.begin((tx) =>
      applyTransition(tx, transitionOf({ intakeStatus: 'staged', reviewStatus: 'review_required' }, 'upload_complete', {
        submissionId: verifying.id,
        by: { actorId: owner!.partnerActorId, credentialId: owner!.credentialId },
      })),
    );
    await before.stop();
    const ids = [staged.id, verifying.id, awaiting, promoting];

    // The same database and files against an empty Temporal; the rows were made a while ago.
    after = await startTestStack({ databaseUrl: db.url, env: { RECONCILE_SECONDS: '0', TEMPORAL_ADDRESS: fresh.address, DATA_DIR: before.dataDir } });
    await after.sql`update submissions set created_at = created_at - interval '10 minutes' where submission_id = any(${ids})`;
    expect(await Promise.all(ids.map((id) => statusOf(after!, id)))).toEqual(['staged', 'verifying', 'awaiting_review', 'promoting']);
    const operator = await bearerActor(after, { permissions: ['portfolio_intake:review'], operator: true });
    const approve = (id: string) => call(after!, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'looks right' } });
    const early = await approve(awaiting);
    expect([early.status, early.body.code]).toEqual([503, 'workflow_resuming']);

    expect([...(await after.reconcile())].sort()).toEqual([...ids].sort());
    const audit = await after.sql<{ submissionId: string; closedRunId: string | null; closedAs: string; resumedFrom: string; note: string }[]>`
      select submission_id, closed_run_id, closed_as, resumed_from, note from intake_resumptions order by submission_id`;
    expect(audit).toEqual(
      ids
        .map((id, i) => ({ submissionId: id, closedRunId: null, closedAs: 'not_found', resumedFrom: ['staged', 'verifying', 'awaiting_review', 'promoting'][i], note: 'resumed after its run was unknown to this Temporal' }))
        .sort((a, b) => a.submissionId.localeCompare(b.submissionId)),
    );
    // Its runs are there now: a second pass starts nothing.
    expect(await after.reconcile()).toEqual([]);

    // Staged: the upload completes on the new run.
    writeStagedAround(before, staged.id, jpegBytes(2048));
    const done = await call(after, 'POST', `${INTAKE}/submissions/${staged.id}/upload-complete`, { headers: partner.headers });
    expect([done.status, done.body.data?.intakeStatus], JSON.stringify(done.body)).toEqual([200, 'awaiting_review']);
    // Verifying: verified again. Promoting: the approval undone (its proof went with the lost run), asked again.
    for (const id of [verifying.id, promoting]) expect(await eventually(async () => (await statusOf(after!, id)) === 'awaiting_review', 30_000)).toBe(true);

    for (const id of ids) {
      const r = await approve(id);
      expect([r.status, r.body.data?.intakeStatus], `${id}: ${JSON.stringify(r.body)}`).toEqual([200, 'promoted_to_media_store']);
    }
    const promotions = await after.sql<{ submissionId: string; n: number }[]>`
      select submission_id, count(*)::int as n from intake_events
      where submission_id = any(${ids}) and to_status = 'promoted_to_media_store' group by submission_id`;
    expect(promotions.map((p) => p.n)).toEqual([1, 1, 1, 1]);
    const documents = await after.sql<{ n: number }[]>`select count(distinct media_store_document_id)::int as n from submissions where submission_id = any(${ids})`;
    expect(documents[0]!.n).toBe(4);
    expect(await after.reconcile()).toEqual([]);
  });
});
