// Nothing wedges (issue 22, item 1): Updates whose payload is not their shape, sent straight to
// Temporal as anyone who can reach its frontend could, are refused by the workflow's validators
// before history, recorded as refused with what was wrong, and never reach an activity; a real
// decision after them applies. A signal of the same names changes nothing: the run has no signal
// handlers (workflows/compat.ts retired them).
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptDecision } from '../../activities/accept-decision';
import { transitionOf } from '../../lib/intake/lifecycle';
import { decisionUpdates, intakeStateQuery, intakeWorkflowId, uploadCompleteUpdate } from '../../workflows/messages';

const { approve: approveUpdate, reject: rejectUpdate } = decisionUpdates;
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, putUpload, stageAndVerify, submissionBody } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let operator: TestCredential;
beforeAll(async () => {
  stack = await startTestStack({ env: { LOG_LEVEL: 'warn' } });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
});
afterAll(async () => stack?.stop());

const handle = (id: string) => stack.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(id));
/** Sent as raw JSON would be: the typed definitions do not stop a caller outside TypeScript. */
const raw = (payload: unknown) => payload as never;
/** An Update straight to Temporal, which the validator must refuse (nothing reaches history). */
const refused = (id: string, update: typeof approveUpdate | typeof rejectUpdate | typeof uploadCompleteUpdate, payload: unknown) =>
  expect(handle(id).executeUpdate(update.name, { args: [raw(payload)] })).rejects.toBeInstanceOf(WorkflowUpdateFailedError);

const refusals = (id: string) =>
  stack.sql<{ decision: string; requestId: string; reason: string; claimedActorId: string | null; claimedCredentialId: string | null; detail: string }[]>`
    select decision, request_id, reason, claimed_actor_id, claimed_credential_id, detail from decision_refusals where submission_id = ${id} order by id`;

/** The shapes of the issue, plus the ones around them. */
const MALFORMED_DECISIONS: [typeof approveUpdate | typeof rejectUpdate, unknown][] = [
  [approveUpdate, { requestId: 'x', by: null, reviewNotes: null, proof: { protected: 1, payload: [], signature: {} } }],
  [rejectUpdate, { requestId: 'y', by: { actorId: 'operator:eve' }, reasonCode: 'duplicate', reviewNotes: 'dup', proof: { protected: 'a', payload: 'b', signature: 'c' } }],
  [approveUpdate, null],
  [approveUpdate, 'approve'],
  [approveUpdate, { requestId: 12, by: { actorId: 'a', credentialId: 'c' }, reviewNotes: 'ok' }],
  [rejectUpdate, { requestId: 'z', by: { actorId: 'a', credentialId: 'c' }, reasonCode: 'because' }],
  [approveUpdate, { requestId: 'w', by: { actorId: 'a', credentialId: 'c' }, reviewNotes: 'ok', seenMatches: 'all' }],
];

describe('malformed Updates change nothing and are recorded as refused; signals change nothing', () => {
  it('the deciding activity refuses a malformed decision instead of throwing', async () => {
    const { id } = await stageAndVerify(stack, partner);
    const [row] = await stack.sql<{ verifiedSha256: string }[]>`select verified_sha256 from submissions where submission_id = ${id}`;
    const accept = acceptDecision({ sql: stack.sql, log: { warn: () => {} } });
    const transition = transitionOf({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required' }, 'approve', { submissionId: id });
    const decision = { decision: 'approve' as const, requestId: 'old-run', by: raw(null), reviewNotes: raw(null), proof: raw({ protected: 1 }), sha256: row!.verifiedSha256, transition };
    expect(await accept(decision)).toEqual({ accepted: false, reason: 'signal_malformed' });
    const reject = { ...decision, decision: 'reject' as const, requestId: 'old-run-2', by: raw({ actorId: 'operator:eve' }), reasonCode: 'duplicate' as const, reviewNotes: 'x' };
    expect(await accept({ ...reject, transition: transitionOf({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required' }, 'reject', { submissionId: id }) })).toEqual({ accepted: false, reason: 'signal_malformed' });
    expect((await refusals(id)).map((r) => [r.requestId, r.reason, r.claimedActorId])).toEqual([
      ['old-run', 'signal_malformed', null],
      ['old-run-2', 'signal_malformed', 'operator:eve'],
    ]);
    const [after] = await stack.sql`select intake_status from submissions where submission_id = ${id}`;
    expect(after!.intakeStatus).toBe('awaiting_review');
  });

  it('decision shapes that wedged a submission are refused in the workflow; the operator’s real approval is applied', async () => {
    const { id } = await stageAndVerify(stack, partner);
    for (const [update, payload] of MALFORMED_DECISIONS) await refused(id, update, payload);
    // A signal of the same name, even a well-formed one, has no handler: nothing is recorded or taken.
    await handle(id).signal('approve', raw({ requestId: 'signalled', by: { actorId: operator.actorId, credentialId: 'c' }, reviewNotes: 'ok' }));
    const recorded = await eventually(async () => {
      const r = await refusals(id);
      return r.length === MALFORMED_DECISIONS.length ? r : undefined;
    });
    expect(recorded.every((r) => r.reason === 'signal_malformed')).toBe(true);
    // Recorded as each handler finishes (not necessarily in the order sent).
    const byId = (requestId: string) => recorded.find((r) => r.requestId === requestId);
    expect(byId('x')).toMatchObject({ decision: 'approve', claimedActorId: null, claimedCredentialId: null });
    expect(byId('x')!.detail).toContain('by: expected an object');
    expect(byId('x')!.detail).toContain('proof.protected');
    expect(byId('y')).toMatchObject({ decision: 'reject', claimedActorId: 'operator:eve', claimedCredentialId: null });
    expect(byId('y')!.detail).toContain('by.credentialId');
    // Payloads without a readable request id get the run's own.
    expect(recorded.filter((r) => r.requestId.startsWith('malformed:')).length).toBe(3);
    expect(recorded.some((r) => r.requestId === 'signalled')).toBe(false);

    // Nothing moved: the row, the workflow and the status read all say awaiting_review.
    const [row] = await stack.sql`select intake_status from submissions where submission_id = ${id}`;
    expect(row!.intakeStatus).toBe('awaiting_review');
    expect(await handle(id).query(intakeStateQuery)).toMatchObject({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required' });
    const status = await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: partner.headers });
    expect(status.body.data.intakeStatus).toBe('awaiting_review');
    // No activity ever ran on them: no pending activity is retrying.
    const described = await handle(id).describe();
    expect(described.raw.pendingActivities ?? []).toEqual([]);

    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Rights attested, looks good.' } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ outcome: 'settled', data: { intakeStatus: 'promoted_to_media_store' } });
    expect((await stack.sql`select 1 from media_documents where submission_id = ${id}`).length).toBe(1);
  });

  it('a malformed upload-complete is refused; the partner’s real one verifies the bytes', async () => {
    const bytes = jpegBytes(2048);
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: bytes.length }) });
    expect(created.status).toBe(201);
    const id = created.body.data.submission.submissionId as string;
    expect((await putUpload(created.body.data.upload.url, bytes, 'image/jpeg')).status).toBe(200);
    await refused(id, uploadCompleteUpdate, { requestId: 'u1', by: { actorId: 42, credentialId: 'c' } });
    await refused(id, uploadCompleteUpdate, undefined);
    const recorded = await eventually(async () => {
      const r = await refusals(id);
      return r.length === 2 ? r : undefined;
    });
    expect(recorded.map((r) => [r.decision, r.reason])).toEqual([
      ['upload_complete', 'signal_malformed'],
      ['upload_complete', 'signal_malformed'],
    ]);
    expect(await handle(id).query(intakeStateQuery)).toMatchObject({ intakeStatus: 'staged' });
    const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ outcome: 'settled', data: { intakeStatus: 'awaiting_review' } });
  });
});
