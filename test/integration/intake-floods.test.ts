// No decision drowned (F16-F18): decisions and upload-completes sent straight to Temporal, as anyone
// who reaches its frontend could, against a real dev server and PostgreSQL. Validators refuse them
// before history; the run continues as new before its history grows long; a run that is gone is
// resumed from the row; and the operator's real decision is applied or answered 503, never
// "accepted" and then dropped, never 500.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNALS_PER_RUN } from '../../temporal/limits';
import { intakeWorkflowId } from '../../workflows/messages';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, putUpload, stageAndVerify, submissionBody } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let operator: TestCredential;
/** The stack's error lines: a failing answer is shown with what the API logged for it. */
const errorLines: string[] = [];
beforeAll(async () => {
  stack = await startTestStack({ env: { LOG_LEVEL: 'error', RECONCILE_SECONDS: '2' }, logDestination: { write: (line) => void errorLines.push(line) } });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
});
afterAll(async () => stack?.stop());

const handle = (id: string) => stack.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(id));
const raw = (payload: unknown) => payload as never;

/** Run `n` tasks, `width` at a time. */
async function pool(n: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await task(next++);
  }));
}

/** Send raw Updates; count how each ended. */
async function updates(id: string, name: string, n: number, payload: (i: number) => unknown) {
  const seen = { refused: 0, other: [] as string[] };
  await pool(n, 32, async (i) => {
    try {
      await handle(id).executeUpdate(name, { args: [raw(payload(i))] });
      seen.other.push('accepted');
    } catch (err) {
      // Refused by the validator, or by the server's door: more than history.maxInFlightUpdates (10)
      // Updates of one run at once answer RESOURCE_EXHAUSTED before any reaches the workflow.
      const atDoor = /concurrent in-flight updates/.test(`${(err as Error).message} ${(err as { cause?: { message?: string } }).cause?.message ?? ''}`);
      if (err instanceof WorkflowUpdateFailedError || atDoor) seen.refused++;
      else {
        const e = err as Error & { cause?: { message?: string } };
        seen.other.push(e.message === 'Workflow Update failed' ? `${e.name}: ${e.message} (${e.cause?.message ?? ''})` : e.message);
      }
    }
  });
  return seen;
}

/**
 * The operator's real approve through the API, as docs/errors.md tells a client to send it: again
 * after a 503's Retry-After; after a 202 `pending` (not known whether it was applied), read the
 * status and send it again only if it has not moved. Every answer seen; never a 500.
 */
async function approveUntilSettled(id: string, timeoutMs = 60_000) {
  const answers: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'looks right' } });
    answers.push(r.status);
    expect(r.status, `${JSON.stringify(r.body)}\n${errorLines.filter((l) => l.includes(String(r.body.requestId))).join('\n')}`).not.toBe(500);
    if (Date.now() > deadline) return { last: r, answers };
    if (r.status === 503) {
      await new Promise((res) => setTimeout(res, Math.min(2000, Number(r.headers.get?.('retry-after') ?? 1) * 1000)));
      continue;
    }
    if (r.status === 202 && r.body.outcome === 'pending') {
      const moved = await eventually(async () => (await status(id)) !== 'awaiting_review', 10_000).catch(() => false);
      if (!moved) continue;
    }
    return { last: r, answers };
  }
}

/** What the server said to a refused signal (the client wraps it). */
const whyNot = (err: Error) => `${err.message}: ${(err.cause as { details?: string } | undefined)?.details ?? ''}`;

const refusalCounts = async (id: string) => {
  const [r] = await stack.sql<{ kept: number; counted: number }[]>`
    select (select count(*)::int from decision_refusals where submission_id = ${id}) as kept,
           coalesce((select refused::int from decision_refusal_overflow where submission_id = ${id}), 0) as counted`;
  return r!;
};

const status = async (id: string) => (await stack.sql<{ intakeStatus: string }[]>`select intake_status from submissions where submission_id = ${id}`)[0]!.intakeStatus;

const unsigned = (i: number) => ({ requestId: `flood-${i}`, by: { actorId: operator.actorId, credentialId: 'made-up' }, reviewNotes: 'approve me' });
const MB19 = 'x'.repeat(1_900_000);

describe('F16: a flood of malformed and oversized decisions wedges nothing', () => {
  it('10,000 malformed decisions and 28 of 1.9 MB, straight to Temporal; the operator’s approve then applies', { timeout: 600_000 }, async () => {
    const { id, done } = await stageAndVerify(stack, partner);
    expect(done.body.data.intakeStatus).toBe('awaiting_review');
    const firstRun = (await handle(id).describe()).runId;
    const before = (await handle(id).describe()).historyLength;

    // Updates a validator refuses never reach history.
    const malformed = await updates(id, 'approve', 5000, (i) => (i % 2 ? { requestId: `m-${i}`, by: null, reviewNotes: 7 } : `approve-${i}`));
    expect(malformed).toEqual({ refused: 5000, other: [] });
    expect((await handle(id).describe()).historyLength).toBe(before);
    // Oversized ones are refused too; several at once can make the worker's answer larger than the
    // server takes (a refusal echoes its request), so some may end with the run instead: none is taken.
    const big = await updates(id, 'approve', 28, (i) => ({ requestId: `big-${i}`, by: { actorId: operator.actorId, credentialId: 'c' }, reviewNotes: MB19 }));
    expect(big.other.filter((o) => o === 'accepted')).toEqual([]);

    // Signals are written to history by the server whatever the workflow does with them (it has no
    // handler for them: they change nothing), up to history.maximumSignalsPerExecution
    // (SIGNALS_PER_RUN, temporal/limits.ts) per run; past that the server refuses them. One sent
    // while a run hands over to the next may be answered "already completed". Either way the
    // sender's problem, not the submission's.
    const unsent: string[] = [];
    const send = (name: string, payload: unknown) => handle(id).signal(name, raw(payload)).catch((err: Error) => void unsent.push(whyNot(err)));
    await pool(5000, 32, (i) => send('reject', { requestId: i, reasonCode: 'nope' }));
    const smallSent = 5000 - unsent.length;
    expect(smallSent).toBeGreaterThan(0);
    expect(unsent.filter((m) => !/limit for signal events|already completed/.test(m))).toEqual([]);
    // The 1.9 MB ones never reach a run: the server refuses them above its blob limit (temporal/limits.ts).
    const bigUnsent: string[] = [];
    for (let i = 0; i < 28; i++) await handle(id).signal('approve', raw({ requestId: `bigsig-${i}`, by: { actorId: 'a', credentialId: 'c' }, reviewNotes: MB19 })).catch((err: Error) => void bigUnsent.push(whyNot(err)));
    expect(bigUnsent).toHaveLength(28);
    expect(bigUnsent.every((m) => /Blob data size exceeds limit/.test(m)), bigUnsent[0]).toBe(true);
    // No run grew past its bound: the current one is short, and still the first.
    expect((await handle(id).describe()).historyLength).toBeLessThan(1500);
    expect((await handle(id).describe()).runId).toBe(firstRun);

    // The run was never terminated (nor resumed); the row never moved.
    expect(await status(id)).toBe('awaiting_review');
    const settled = await approveUntilSettled(id);
    expect(settled.last.status, JSON.stringify(settled.last.body)).toBe(200);
    expect(settled.last.body.data.intakeStatus).toBe('promoted_to_media_store');
    const resumed = await stack.sql<{ n: number }[]>`select count(*)::int as n from intake_resumptions where submission_id = ${id}`;
    expect(resumed[0]!.n).toBe(0);

    // Refusals are recorded up to the cap and counted beyond it: every malformed Update (the
    // oversized ones aside: some land in a run that ended). A signal is no decision: none is recorded.
    let last = { kept: 0, counted: 0 };
    const counts = await eventually(async () => {
      last = await refusalCounts(id);
      return last.kept + last.counted >= 5000 ? last : undefined;
    }, 60_000).catch(() => expect.fail(`refusals recorded + counted: ${JSON.stringify(last)}`));
    expect(counts.kept).toBe(100);
  });
});

describe('F17: the operator’s decision is never drowned in unsigned ones', () => {
  it('600 unsigned approvals straight to Temporal with the real approve in the middle: applied or 503, never accepted-then-dropped', { timeout: 300_000 }, async () => {
    const { id } = await stageAndVerify(stack, partner);
    const flood = updates(id, 'approve', 600, unsigned);
    await new Promise((r) => setTimeout(r, 300));
    const settled = await approveUntilSettled(id);
    const seen = await flood;
    // Refused by the validator, or ended with the run the real approve closed: none taken.
    const runEnded = ['workflow execution already completed', 'workflow update was aborted by closing workflow'];
    expect(seen.other.filter((o) => !runEnded.includes(o))).toEqual([]);
    // Applied (200), or taken and still working behind the flood (202 accepted / pending): then it
    // must end applied, never dropped.
    expect([200, 202], JSON.stringify(settled.last.body)).toContain(settled.last.status);
    if (settled.last.status === 202) await eventually(async () => (await status(id)) === 'promoted_to_media_store', 60_000);
    else expect(settled.last.body.data.intakeStatus).toBe('promoted_to_media_store');
    expect(await status(id)).toBe('promoted_to_media_store');
    const refused = await stack.sql<{ reason: string; n: number }[]>`
      select reason, count(*)::int as n from decision_refusals where submission_id = ${id} group by reason`;
    // Each unsigned approval was refused for its missing proof (the ones after the approval for the state).
    expect(refused.every((r) => ['proof_missing', 'invalid_transition'].includes(r.reason))).toBe(true);
  });

  it(`600 unsigned approval signals: past ${SIGNALS_PER_RUN} the server refuses them, the ones taken change nothing (the run has no signal handler), and the real approve applies`, { timeout: 300_000 }, async () => {
    const { id } = await stageAndVerify(stack, partner);
    const unsent: string[] = [];
    await pool(600, 32, (i) => handle(id).signal('approve', raw(unsigned(i))).catch((err: Error) => void unsent.push(whyNot(err))));
    expect(unsent.length).toBeGreaterThanOrEqual(100);
    expect(unsent.filter((m) => !/limit for signal events/.test(m))).toEqual([]);
    const settled = await approveUntilSettled(id);
    expect(settled.last.status, JSON.stringify(settled.last.body)).toBe(200);
    expect(settled.last.body.data.intakeStatus).toBe('promoted_to_media_store');
    // Nothing was recorded for them: no decision was ever offered.
    expect(await refusalCounts(id)).toEqual({ kept: 0, counted: 0 });
    const [promoting] = await stack.sql`select actor_id from intake_events where submission_id = ${id} and to_status = 'promoting'`;
    expect(promoting!.actorId).toBe(operator.actorId);
  });
});

describe('F18: a run that is gone is resumed from the row', () => {
  it('a terminated run awaiting review: approve answers 503 workflow_resuming, the reconciler resumes it within its interval, the approve then applies', { timeout: 120_000 }, async () => {
    const { id } = await stageAndVerify(stack, partner);
    const old = await handle(id).describe();
    await handle(id).terminate('F18: an operator terminated it by hand');
    const early = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'looks right' } });
    // Unless the reconciler was quicker than this request.
    if (early.status !== 200) {
      expect(early.status).toBe(503);
      expect(early.body.code).toBe('workflow_resuming');
    }
    const resumed = await eventually(async () => {
      const [r] = await stack.sql<{ closedAs: string; resumedFrom: string; note: string; closedRunId: string }[]>`
        select closed_as, resumed_from, note, closed_run_id from intake_resumptions where submission_id = ${id}`;
      return r;
    }, 20_000);
    expect(resumed).toMatchObject({ closedAs: 'terminated', resumedFrom: 'awaiting_review', closedRunId: old.runId, note: 'resumed after its run was terminated' });
    expect((await handle(id).describe()).status.name).toBe('RUNNING');
    const settled = await approveUntilSettled(id);
    expect(settled.last.status, JSON.stringify(settled.last.body)).toBe(200);
    expect(settled.last.body.data.intakeStatus).toBe('promoted_to_media_store');
    // Once resumed, a second pass changes nothing.
    expect(await stack.reconcile()).toEqual([]);
  });

  it('a terminated run still staged is resumed, and its upload completes', { timeout: 120_000 }, async () => {
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: 2048 }) });
    const id = created.body.data.submission.submissionId as string;
    await handle(id).terminate('F18: staged');
    expect(await eventually(async () => (await stack.reconcile()).includes(id) || (await stack.sql`select 1 from intake_resumptions where submission_id = ${id}`).length > 0, 20_000)).toBe(true);
    expect((await putUpload(created.body.data.upload.url, jpegBytes(2048))).status).toBe(200);
    const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.intakeStatus).toBe('awaiting_review');
  });
});

describe('E3: a forged upload-complete is not acted on', () => {
  it('an upload-complete naming a made-up actor, or the partner without the API’s proof, is refused before history; one before the PUT leaves the submission staged', async () => {
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: 2048 }) });
    const id = created.body.data.submission.submissionId as string;
    const forged = await updates(id, 'uploadComplete', 1, () => ({ requestId: 'forged', by: { actorId: 'mallory', credentialId: 'x' } }));
    expect(forged).toEqual({ refused: 1, other: [] });
    // Naming the partner, straight to Temporal, without the proof the API signs (issue 55): refused
    // before history, so the partner's own call is not answered 409 afterwards.
    const unproven = await updates(id, 'uploadComplete', 1, () => ({ requestId: 'unproven', by: { actorId: partner.actorId, credentialId: partner.keyId ?? 'x' } }));
    expect(unproven).toEqual({ refused: 1, other: [] });
    // A proof for another submission does not carry over either.
    const other = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: 2048 }) });
    const otherId = other.body.data.submission.submissionId as string;
    const foreign = await stack.api.deps.decisionSigner.sign({ submissionId: otherId, decision: 'upload_complete', actorId: partner.actorId, credentialId: 'x', sha256: '', requestId: 'foreign', detailsHash: '' });
    expect(await updates(id, 'uploadComplete', 1, () => ({ requestId: 'foreign', by: { actorId: partner.actorId, credentialId: 'x' }, proof: foreign }))).toEqual({ refused: 1, other: [] });
    // As the partner through the API, but before the bytes: refused, recorded, still staged.
    const early = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect([early.status, early.body.code]).toEqual([409, 'upload_missing']);
    expect(await status(id)).toBe('staged');
    const history = JSON.stringify((await handle(id).fetchHistory()).events);
    expect(history).not.toContain('mallory');
    expect(history).not.toContain('unproven');
    const refused = await eventually(async () => {
      const r = await stack.sql<{ requestId: string; reason: string; claimedActorId: string }[]>`
        select request_id, reason, claimed_actor_id from decision_refusals where submission_id = ${id} order by id`;
      return r.length === 4 ? r : undefined;
    });
    expect(refused.map((r) => [r.requestId === early.body.requestId ? 'early' : r.requestId, r.reason, r.claimedActorId]).sort()).toEqual([
      ['early', 'object_missing', partner.actorId],
      ['foreign', 'proof_mismatch', partner.actorId],
      ['forged', 'actor_not_partner', 'mallory'],
      ['unproven', 'proof_missing', partner.actorId],
    ]);
    // The real upload is then taken.
    expect((await putUpload(created.body.data.upload.url, jpegBytes(2048))).status).toBe(200);
    const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect(done.body.data.intakeStatus).toBe('awaiting_review');
  });
});

describe('F18: a run gone while promoting', () => {
  it('the approval is undone with a recorded promotion_failed, the decision is asked again, and the next approve promotes', { timeout: 120_000 }, async () => {
    const own = await startTestStack({ worker: false, env: { LOG_LEVEL: 'silent', RECONCILE_SECONDS: '0', TRANSITION_WAIT_MS: '1000' } });
    try {
      // Storage "away" after the copy: the promotion keeps retrying, the row stays promoting.
      await own.startWorker({ afterMediaCopy: async () => { throw new Error('storage away (test)'); } });
      const p = await apiKeyActor(own, { permissions: ['portfolio_intake:stage'] });
      const op = await bearerActor(own, { permissions: ['portfolio_intake:review'], operator: true });
      const { id } = await stageAndVerify(own, p);
      const approve = () => call(own, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: op.headers, body: { reviewNotes: 'looks right' } });
      const first = await approve();
      expect(first.status, JSON.stringify(first.body)).toBe(202);
      expect(first.body.data.intakeStatus).toBe('promoting');
      const h = own.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(id));
      await h.terminate('F18: gone while promoting');
      await own.stopWorker();
      await own.startWorker();
      expect(await own.reconcile()).toEqual([id]);
      const back = await eventually(async () => {
        const [r] = await own.sql<{ intakeStatus: string }[]>`select intake_status from submissions where submission_id = ${id}`;
        return r!.intakeStatus === 'awaiting_review' && r;
      });
      expect(back).toBeTruthy();
      const [audit] = await own.sql<{ resumedFrom: string; closedAs: string }[]>`select resumed_from, closed_as from intake_resumptions where submission_id = ${id}`;
      expect(audit).toEqual({ resumedFrom: 'promoting', closedAs: 'terminated' });
      const second = await approve();
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body.data.intakeStatus).toBe('promoted_to_media_store');
    } finally {
      await own.stop();
    }
  });
});

describe('F18: a submission whose runs keep closing', () => {
  it('is resumed three times, then a staged one is ended expired with the reason recorded', { timeout: 120_000 }, async () => {
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: 2048 }) });
    const id = created.body.data.submission.submissionId as string;
    const closeAndReconcile = async (k: number) => {
      await handle(id).terminate(`F18: closed by hand (${k})`);
      // The interval's own pass may be first; either way the closed run is handled once.
      await eventually(async () => {
        await stack.reconcile();
        const [r] = await stack.sql<{ n: number }[]>`select count(*)::int as n from intake_resumptions where submission_id = ${id}`;
        return r!.n === k;
      }, 20_000);
    };
    for (let k = 1; k <= 3; k++) {
      await closeAndReconcile(k);
      expect((await handle(id).describe()).status.name).toBe('RUNNING');
    }
    await closeAndReconcile(4);
    const [row] = await stack.sql<{ intakeStatus: string }[]>`select intake_status from submissions where submission_id = ${id}`;
    expect(row!.intakeStatus).toBe('expired');
    const [ended] = await stack.sql<{ note: string }[]>`select note from intake_events where submission_id = ${id} and to_status = 'expired'`;
    expect(ended!.note).toMatch(/^ended: its workflow runs kept closing \(3 resumptions/);
    const upload = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect([upload.status, upload.body.code]).toEqual([409, 'invalid_transition']);
  });
});
