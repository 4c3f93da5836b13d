// Decisions that cannot be forged (issue 14, item 3) and operators reading any submission (item 2),
// on the real stack: decision Updates are sent by hand with the Temporal client, as anyone who can
// reach the Temporal frontend could (the run has no signal handlers to send to).
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { temporalDataConverter } from '../../temporal/connection';
import crypto from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertMapping } from '../../lib/identity/actors';
import { LOCAL_ISSUER } from '../../lib/identity';
import { createDecisionSigner, detailsHash } from '../../lib/intake/decision-proof';
import type { DecisionProof } from '../../lib/intake/vocabulary';
import type { DecisionPayload } from '../../lib/intake/decisions';
import { intakeStateQuery, intakeWorkflowId } from '../../workflows/messages';

type ApproveSignal = DecisionPayload<'approve'>;
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { eventually, startTestStack, uid, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let operator: TestCredential;
const logLines: string[] = [];
beforeAll(async () => {
  stack = await startTestStack({ env: { LOG_LEVEL: 'warn' }, logDestination: { write: (line) => void logLines.push(line) } });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
});
afterAll(async () => stack?.stop());

const handle = (id: string) => stack.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(id));
/** A decision Update straight to Temporal: refused by its validator (before history) or, accepted, by the deciding activity; never taken. */
const forge = async (id: string, name: 'approve' | 'reject', payload: unknown) => {
  try {
    const answer = await handle(id).executeUpdate<{ taken: boolean }, [never]>(name, { args: [payload as never] });
    expect(answer.taken).toBe(false);
  } catch (err) {
    if (!(err instanceof WorkflowUpdateFailedError)) throw err;
  }
};

async function awaitingReview(): Promise<string> {
  const { id, done } = await stageAndVerify(stack, partner);
  expect(done.body.data.intakeStatus).toBe('awaiting_review');
  return id;
}

/** The refusal the worker recorded for this decision (it has processed it by then). */
const refusalOf = (id: string, requestId: string) =>
  eventually(async () => {
    const [r] = await stack.sql<{ reason: string; decision: string; claimedActorId: string; proofActorId: string | null }[]>`
      select reason, decision, claimed_actor_id, proof_actor_id from decision_refusals where submission_id = ${id} and request_id = ${requestId}`;
    return r;
  });

/** Nothing moved: the row, its events and the workflow all still say awaiting_review. */
async function expectUnchanged(id: string) {
  const [row] = await stack.sql`select intake_status, review_status from submissions where submission_id = ${id}`;
  expect(row).toMatchObject({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required' });
  const events = await stack.sql`select to_status from intake_events where submission_id = ${id} order by id`;
  expect(events.map((e) => e.toStatus)).toEqual(['staged', 'verifying', 'awaiting_review']);
  expect(await handle(id).query(intakeStateQuery)).toMatchObject({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required' });
  expect((await stack.sql`select 1 from media_documents where submission_id = ${id}`).length).toBe(0);
}

/** The approve Update (with its proof) the API sent for a submission, read back from the workflow history. */
async function approveSignalOf(id: string): Promise<ApproveSignal> {
  const history = await handle(id).fetchHistory();
  const ev = history.events!.find(
    (e) =>
      e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED &&
      e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'approve',
  );
  // The history holds it encrypted (temporal/payload-codec.ts): copied as someone who may decode it would (on-call, the codec endpoint).
  const [payload] = await temporalDataConverter(stack.cfg).payloadCodecs![0]!.decode([ev!.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.args!.payloads![0]!]);
  return defaultPayloadConverter.fromPayload(payload!) as ApproveSignal;
}

describe('a decision without a valid proof changes nothing', () => {
  it('a forged approve (made-up actor, no proof; made-up proof; a proof signed with another key) does not promote; the real decision still does', async () => {
    const id = await awaitingReview();
    const forged = { by: { actorId: 'nobody', credentialId: 'none' }, reviewNotes: 'Approved by nobody.' };

    const noProof = uid('forged-');
    await forge(id, 'approve', { requestId: noProof, ...forged });
    expect(await refusalOf(id, noProof)).toMatchObject({ reason: 'proof_missing', decision: 'approve', claimedActorId: 'nobody', proofActorId: null });
    await expectUnchanged(id);

    const madeUp = uid('forged-');
    const garbage: DecisionProof = { protected: 'eyJhbGciOiJFZERTQSJ9', payload: Buffer.from('{"sid":"x"}').toString('base64url'), signature: 'AAAA' };
    await forge(id, 'approve', { requestId: madeUp, ...forged, proof: garbage });
    expect(await refusalOf(id, madeUp)).toMatchObject({ reason: 'proof_invalid' });

    // Well-formed, with every claim right, but signed with the attacker's own Ed25519 key.
    const attacker = await createDecisionSigner({ DECISION_SIGNING_KEY: crypto.generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), DATA_DIR: stack.dataDir });
    const [row] = await stack.sql<{ verifiedSha256: string }[]>`select verified_sha256 from submissions where submission_id = ${id}`;
    const otherKey = uid('forged-');
    const by = { actorId: operator.actorId, credentialId: `${LOCAL_ISSUER}#${operator.subject}` };
    const proof = await attacker.sign({
      submissionId: id, decision: 'approve', actorId: by.actorId, credentialId: by.credentialId, sha256: row!.verifiedSha256, requestId: otherKey,
      detailsHash: detailsHash({ reviewNotes: forged.reviewNotes }),
    });
    await forge(id, 'approve', { requestId: otherKey, by, reviewNotes: forged.reviewNotes, proof });
    expect(await refusalOf(id, otherKey)).toMatchObject({ reason: 'proof_invalid', claimedActorId: operator.actorId });
    await expectUnchanged(id);

    // A refusal is also a warning line in the worker's log.
    expect(logLines.some((l) => l.includes('decision refused') && l.includes(id) && l.includes('"level":40'))).toBe(true);

    // The workflow kept waiting: the operator's decision through the API promotes.
    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Rights attested, approved.' } });
    expect(approved.status).toBe(200);
    expect(approved.body.data.intakeStatus).toBe('promoted_to_media_store');
    const [promoting] = await stack.sql`select actor_id from intake_events where submission_id = ${id} and to_status = 'promoting'`;
    expect(promoting!.actorId).toBe(operator.actorId);
  });

  it('a forged reject does not reject', async () => {
    const id = await awaitingReview();
    const requestId = uid('forged-');
    await forge(id, 'reject', { requestId, by: { actorId: 'nobody', credentialId: 'none' }, reasonCode: 'content_policy', reviewNotes: 'Forged rejection.' });
    expect(await refusalOf(id, requestId)).toMatchObject({ reason: 'proof_missing', decision: 'reject' });
    await expectUnchanged(id);
  });

  it('a proof replayed from another submission (Update copied from its history) does not promote', async () => {
    const decided = await awaitingReview();
    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${decided}/approve`, { headers: operator.headers, body: { reviewNotes: 'Rights attested, approved.' } });
    expect(approved.body.data.intakeStatus).toBe('promoted_to_media_store');
    const copied = await approveSignalOf(decided);
    expect(copied.proof).toBeDefined();

    const target = await awaitingReview();
    // As it was, and with a fresh request id.
    await forge(target, 'approve', copied);
    expect(await refusalOf(target, copied.requestId)).toMatchObject({ reason: 'proof_mismatch', proofActorId: operator.actorId });
    const fresh = uid('replayed-');
    await forge(target, 'approve', { ...copied, requestId: fresh });
    expect(await refusalOf(target, fresh)).toMatchObject({ reason: 'proof_mismatch' });
    await expectUnchanged(target);
  });

  it('a proof the API issued for an operator since deactivated does not promote', async () => {
    const id = await awaitingReview();
    const subject = uid('user-');
    const actorId = uid('operator-');
    const mapping = {
      actorId, credentialKind: 'bearer' as const, credentialSubject: subject, credentialIssuer: LOCAL_ISSUER, role: 'operator',
      permissions: ['portfolio_intake:review' as const], organizationId: 'platform', isHumanOperator: true, selfService: false,
    };
    await upsertMapping(stack.sql, mapping);
    const [row] = await stack.sql<{ verifiedSha256: string }[]>`select verified_sha256 from submissions where submission_id = ${id}`;
    const requestId = uid('stale-');
    const signal = { requestId, by: { actorId, credentialId: `${LOCAL_ISSUER}#${subject}` }, reviewNotes: 'Approved before leaving.' };
    // Minted with the API's own key while the operator was mapped (as the approve route does).
    const proof = await stack.api.deps.decisionSigner.sign({
      submissionId: id, decision: 'approve', actorId, credentialId: signal.by.credentialId, sha256: row!.verifiedSha256, requestId,
      detailsHash: detailsHash({ reviewNotes: signal.reviewNotes }),
    });
    await upsertMapping(stack.sql, { ...mapping, active: false });
    await forge(id, 'approve', { ...signal, proof });
    expect(await refusalOf(id, requestId)).toMatchObject({ reason: 'operator_not_active', proofActorId: actorId });
    await expectUnchanged(id);
  });
});

describe('operators read any submission over the API', () => {
  it('an operator bearer token gets any partner submission’s status view; partners still only their own', async () => {
    const id = await awaitingReview();
    // The status view is the workflow's query, which follows the row within moments.
    const r = await eventually(async () => {
      const got = await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: operator.headers });
      return got.status !== 200 || got.body.data.intakeStatus === 'awaiting_review' ? got : undefined;
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ submissionId: id, intakeStatus: 'awaiting_review', reviewStatus: 'review_required' });
    expect(JSON.stringify(r.body)).not.toMatch(/staging\/|credential/i);
    expect((await call(stack, 'GET', `${INTAKE}/submissions/sub_${'0'.repeat(24)}`, { headers: operator.headers })).status).toBe(404);

    const otherPartner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    expect((await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: otherPartner.headers })).status).toBe(404);
    // A bearer token without portfolio_intake:review (and not a stage actor) is refused.
    const member = await bearerActor(stack, { permissions: ['search:read'] });
    expect((await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: member.headers })).body.code).toBe('permission_denied');
    const operatorWithout = await bearerActor(stack, { permissions: [], operator: true });
    expect((await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: operatorWithout.headers })).status).toBe(403);
  });

  it('the preview route serves operators the image of any verified submission, and no partner key', async () => {
    const id = await awaitingReview();
    const res = await fetch(`${stack.url}${INTAKE}/submissions/${id}/preview?size=thumb`, { headers: operator.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect((await fetch(`${stack.url}${INTAKE}/submissions/${id}/preview`, { headers: partner.headers })).status).toBe(403);
  });
});
