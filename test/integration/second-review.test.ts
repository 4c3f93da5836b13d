// A second operator where it matters (issue 44 item 6) on the real stack: an approval the policy
// holds (a flagged similar image, a classifier's content flag >= 0.5) waits in
// awaiting_second_review; partners keep seeing awaiting_review with reviewStatus
// second_review_required and hear no new event; the same operator approving again is refused (409
// second_operator_required at the route, `same_operator` by the deciding activity for an Update sent
// around the API); a different operator's approval promotes; either may reject; the review queue
// says who approved first and why a second is needed.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detailsHash } from '../../lib/intake/decision-proof';
import { intakeWorkflowId } from '../../workflows/messages';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, stageAndVerify } from '../helpers/intake';
import { unrelated } from '../helpers/similar-images';
import { startTestStack, uid, type TestStack } from '../helpers/stack';
import { upsertMapping } from '../../lib/identity/actors';

let stack: TestStack;
let partner: TestCredential;
let otherPartner: TestCredential;
let classifier: TestCredential;
let first: TestCredential;
let second: TestCredential;

beforeAll(async () => {
  // The second-review policy's similar-image half on (the test stacks turn it off: their images look alike).
  stack = await startTestStack({ env: { SECOND_REVIEW_SIMILAR_MATCHES: 'true' } });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  otherPartner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  classifier = await apiKeyActor(stack, { permissions: ['agent_context:read', 'portfolio_intake:classify'], organizationId: partner.organizationId!, selfService: false, role: 'classifier' });
  first = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
  second = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
}, 120_000);
afterAll(async () => stack?.stop());

const approve = (id: string, who: TestCredential, reviewNotes = 'Looked at the matches: the partner owns this work.') =>
  call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: who.headers, body: { reviewNotes } });
const reject = (id: string, who: TestCredential) => call(stack, 'POST', `${INTAKE}/submissions/${id}/reject`, { headers: who.headers, body: { reasonCode: 'rights_unclear', reviewNotes: 'Not theirs.' } });
const rowOf = async (id: string) => (await stack.sql<{ intakeStatus: string; reviewStatus: string; secondReviewReasons: string[] | null }[]>`
  select intake_status, review_status, second_review_reasons from submissions where submission_id = ${id}`)[0]!;
const eventsOf = async (id: string) => stack.sql<{ type: string }[]>`select event_type as type from webhook_events where submission_id = ${id} order by seq`;

/** The same bytes under two artists: the second one's review shows the first (another artist's pending work) as a flagged match. */
async function copiedPair(): Promise<{ original: string; copy: string }> {
  const bytes = jpegBytes(4096);
  const a = await stageAndVerify(stack, otherPartner, bytes, { artistCanonicalId: uid('artist-a-') });
  const b = await stageAndVerify(stack, partner, bytes, { artistCanonicalId: uid('artist-b-') });
  for (const r of [a, b]) expect(r.done.body.data.intakeStatus, JSON.stringify(r.done.body)).toBe('awaiting_review');
  return { original: a.id, copy: b.id };
}

describe('a second operator where the policy asks for one', () => {
  it('a flagged match holds the first approval; the same operator is refused; a different one promotes', async () => {
    const { original, copy } = await copiedPair();

    const held = await approve(copy, first);
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    // Partners (and the route's answer) keep seeing awaiting_review; the review status says why it waits.
    expect(held.body.data).toMatchObject({ intakeStatus: 'awaiting_review', reviewStatus: 'second_review_required', governance: { reviewRequired: true, promotedToMediaStore: false } });
    expect(await rowOf(copy)).toEqual({ intakeStatus: 'awaiting_second_review', reviewStatus: 'second_review_required', secondReviewReasons: [`similar_image:${original}`] });
    const seen = await call(stack, 'GET', `${INTAKE}/submissions/${copy}`, { headers: partner.headers });
    expect(seen.body.data).toMatchObject({ intakeStatus: 'awaiting_review', reviewStatus: 'second_review_required' });
    const listed = await call(stack, 'GET', `${INTAKE}/submissions?intakeStatus=awaiting_review&limit=100`, { headers: partner.headers });
    expect(listed.body.data.map((s: { submissionId: string }) => s.submissionId)).toContain(copy);
    expect((await call(stack, 'GET', `${INTAKE}/submissions?intakeStatus=awaiting_second_review`, { headers: partner.headers })).status).toBe(400);
    // No event for partners: they heard awaiting_review once.
    expect((await eventsOf(copy)).map((e) => e.type)).toEqual(['submission.staged', 'submission.awaiting_review']);
    const [line] = await stack.sql<{ trigger: string; actorId: string; fromStatus: string }[]>`
      select trigger, actor_id, from_status from intake_events where submission_id = ${copy} and to_status = 'awaiting_second_review'`;
    expect(line).toEqual({ trigger: 'first_approval', actorId: first.actorId, fromStatus: 'awaiting_review' });

    // The queue says who approved first and why a second operator is needed.
    const queue = await call(stack, 'GET', `${INTAKE}/review-queue?limit=100`, { headers: second.headers });
    expect(queue.status, JSON.stringify(queue.body)).toBe(200);
    const item = queue.body.data.find((q: { submissionId: string }) => q.submissionId === copy);
    expect(item?.secondReview).toMatchObject({ firstApprovedBy: first.actorId, reasons: [`similar_image:${original}`], firstNotes: 'Looked at the matches: the partner owns this work.' });
    expect(queue.body.data.find((q: { submissionId: string }) => q.submissionId === original)?.secondReview).toBeNull();

    // The same operator again: refused at the route, nothing changed.
    const again = await approve(copy, first);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('second_operator_required');
    expect((await rowOf(copy)).intakeStatus).toBe('awaiting_second_review');

    const done = await approve(copy, second, 'Second look: agreed.');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ intakeStatus: 'promoted_to_media_store', reviewStatus: 'approved' });
    const [draft] = await stack.sql<{ approvedBy: string }[]>`select approved_by from media_documents where submission_id = ${copy}`;
    expect(draft?.approvedBy).toBe(second.actorId);
    expect((await eventsOf(copy)).map((e) => e.type)).toEqual(['submission.staged', 'submission.awaiting_review', 'submission.promoted']);
  }, 120_000);

  it('either operator may reject a held approval: the one who approved first, here', async () => {
    const { copy } = await copiedPair();
    expect((await approve(copy, first)).body.data.reviewStatus).toBe('second_review_required');
    const r = await reject(copy, first);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ intakeStatus: 'rejected', reviewStatus: 'rejected', rejectReason: 'rights_unclear' });
  }, 120_000);

  it('an approval Update sent around the API in the first operator’s name, with a valid proof, is refused by the deciding activity (same_operator) and recorded', async () => {
    const { copy } = await copiedPair();
    expect((await approve(copy, first)).body.data.reviewStatus).toBe('second_review_required');
    const [row] = await stack.sql<{ verifiedSha256: string; credentialId: string }[]>`
      select s.verified_sha256, e.credential_id from submissions s join intake_events e using (submission_id)
      where s.submission_id = ${copy} and e.trigger = 'first_approval'`;
    const requestId = uid('again-');
    const signal = { requestId, by: { actorId: first.actorId, credentialId: row!.credentialId }, reviewNotes: 'Approving my own approval.' };
    // Minted with the API's own key (as if the route's check had been raced past).
    const proof = await stack.api.deps.decisionSigner.sign({
      submissionId: copy, decision: 'approve', actorId: first.actorId, credentialId: signal.by.credentialId, sha256: row!.verifiedSha256, requestId,
      detailsHash: detailsHash({ reviewNotes: signal.reviewNotes }),
    });
    const handle = stack.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(copy));
    let answer: { taken: boolean; reason?: string; intakeStatus?: string } | undefined;
    try {
      answer = await handle.executeUpdate<{ taken: boolean; reason?: string; intakeStatus?: string }, [never]>('approve', { args: [{ ...signal, proof } as never] });
    } catch (err) {
      if (!(err instanceof WorkflowUpdateFailedError)) throw err;
    }
    expect(answer).toMatchObject({ taken: false, reason: 'same_operator', intakeStatus: 'awaiting_second_review' });
    const [refusal] = await stack.sql<{ reason: string; proofActorId: string }[]>`select reason, proof_actor_id from decision_refusals where submission_id = ${copy} and request_id = ${requestId}`;
    expect(refusal).toEqual({ reason: 'same_operator', proofActorId: first.actorId });
    expect(await rowOf(copy)).toMatchObject({ intakeStatus: 'awaiting_second_review', reviewStatus: 'second_review_required' });
    // The run is still waiting for the second operator.
    const done = await approve(copy, second, 'Second look: agreed.');
    expect(done.body.data, JSON.stringify(done.body)).toMatchObject({ intakeStatus: 'promoted_to_media_store' });
  }, 120_000);

  it('the same person under a second mapping (the same identity subject, another issuer) is the same operator: refused (same_operator), recorded', async () => {
    const { copy } = await copiedPair();
    expect((await approve(copy, first)).body.data.reviewStatus).toBe('second_review_required');
    // One person, mapped again under another issuer: a second operator mapping, not a second operator.
    const twin = { actorId: uid('operator-twin-'), issuer: 'https://idp.example.test/other' };
    await upsertMapping(stack.sql, {
      actorId: twin.actorId, credentialKind: 'bearer', credentialSubject: first.subject!, credentialIssuer: twin.issuer, role: 'operator',
      permissions: ['portfolio_intake:review'], organizationId: uid('org-'), studioScope: [], artistScope: [], capabilities: [], isHumanOperator: true, selfService: false, active: true,
    });
    const [row] = await stack.sql<{ verifiedSha256: string }[]>`select verified_sha256 from submissions where submission_id = ${copy}`;
    const requestId = uid('twin-');
    const signal = { requestId, by: { actorId: twin.actorId, credentialId: `${twin.issuer}#${first.subject}` }, reviewNotes: 'My second hat agrees.' };
    const proof = await stack.api.deps.decisionSigner.sign({
      submissionId: copy, decision: 'approve', actorId: twin.actorId, credentialId: signal.by.credentialId, sha256: row!.verifiedSha256, requestId,
      detailsHash: detailsHash({ reviewNotes: signal.reviewNotes }),
    });
    const handle = stack.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(copy));
    const answer = await handle.executeUpdate<{ taken: boolean; reason?: string; intakeStatus?: string }, [never]>('approve', { args: [{ ...signal, proof } as never] });
    expect(answer).toMatchObject({ taken: false, reason: 'same_operator', intakeStatus: 'awaiting_second_review' });
    expect(await rowOf(copy)).toMatchObject({ intakeStatus: 'awaiting_second_review' });
    const done = await approve(copy, second, 'Second look: agreed.');
    expect(done.body.data, JSON.stringify(done.body)).toMatchObject({ intakeStatus: 'promoted_to_media_store' });
  }, 120_000);

  it('a classifier’s content flag at or above 0.5 holds it too; one below does not', async () => {
    // Images like no other in this stack: no similar match asks for a second operator here.
    const flagged = await stageAndVerify(stack, partner, await unrelated(9001));
    const calm = await stageAndVerify(stack, partner, await unrelated(9002));
    const labels = (confidence: number) => ({
      styles: [{ id: 'blackwork', confidence: 0.8 }], placement: null, subjects: [], contentFlags: [{ id: 'face_visible', confidence }],
      model: { name: 'test-model', version: '1.0.0' }, rationale: 'a recognizable face beside the tattoo',
    });
    for (const [id, c] of [[flagged.id, 0.7], [calm.id, 0.4]] as const) {
      const r = await call(stack, 'POST', `${INTAKE}/submissions/${id}/classifications`, { headers: classifier.headers, body: labels(c) });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    expect((await approve(flagged.id, first, 'Consent is on file.')).body.data.reviewStatus).toBe('second_review_required');
    expect((await rowOf(flagged.id)).secondReviewReasons).toEqual(['content_flag:face_visible:0.7']);
    const one = await approve(calm.id, first, 'Fine as it is.');
    expect(one.body.data, JSON.stringify(one.body)).toMatchObject({ intakeStatus: 'promoted_to_media_store' });
  }, 120_000);
});
