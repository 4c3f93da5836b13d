// One workflow per submission: wait for the upload, verify the bytes, wait for a human decision,
// promote into the private media store. Deterministic code only: all I/O happens in activities.
// The workflow is the only author of transitions: each one is built from the transition table
// (lib/intake/lifecycle.ts) here, and the activities persist exactly what they are handed.
import {
  ActivityFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  deprecatePatch,
  log,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { IntakeActivities, RowState } from '../activities/types';
import { outcomeOf, stepOutcomes, transitionOf, type Transition, type TransitionFacts, type Trigger } from '../lib/intake/lifecycle';
import { SYSTEM_ACTOR, type ActorRef, type IntakeStatus } from '../lib/intake/vocabulary';
import { DECISION_UPDATES_PATCH, TRANSITION_WRITER_PATCH } from './compat';
import { Inbox, type Decision } from './intake-inbox';
import { AwaitingSinceKey, intakeStateQuery, IntakeStatusKey, ReviewStatusKey, type IntakeInput, type IntakeResume, type IntakeState } from './messages';


/** Attempts of a work step (about eight minutes of backoff) before it ends in a recorded state. */
export const STEP_ATTEMPTS = 20;

const acts = proxyActivities<IntakeActivities>({
  // Each activity is seconds of work at most (hash and copy of up to 50 MiB, a few rows). The
  // timeout is also how long a task held by a crashed worker waits before its retry (fault suite
  // F1, F2), so it is kept short.
  startToCloseTimeout: '30 seconds',
  // Transient faults (storage or database briefly away) are retried, for about eight minutes;
  // permanent ones come back as results (verification, refused decisions) or non-retryable
  // failures. When the attempts run out, the step ends in a recorded state (stalled(), below).
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: STEP_ATTEMPTS },
});
/**
 * What records an outcome nobody can retry into being: a refused signal, a step whose attempts ran
 * out. Retried for up to a day (a database outage must not lose the record); past that the run
 * fails, which the Web UI lists as Failed.
 */
const record = proxyActivities<IntakeActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '24 hours',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** A waiting run continues as new past this many history events (Temporal's own limit is 51,200), so a replay of it stays short... */
export const MAX_HISTORY_EVENTS = 1000;
/** ... or this many bytes of history (Temporal's limit is 50 MB): a replay of the run stays short. */
export const MAX_HISTORY_BYTES = 2 * 1024 * 1024;

/**
 * The Web UI's "current details" line for on-call staff (in memory only: answered through the
 * workflow metadata query, never written to history, so replays are unaffected).
 */
export function currentDetailsOf(s: Pick<IntakeState, 'intakeStatus' | 'failureCode' | 'rejectReasonCode' | 'mediaStoreDocumentId'>, at: Date, uploadDeadline: Date): string {
  const when = at.toISOString();
  const lines: Record<IntakeStatus, string> = {
    staged: `waiting for the upload and upload-complete until ${uploadDeadline.toISOString()}`,
    verifying: `verifying the uploaded bytes since ${when}`,
    awaiting_review: `awaiting review since ${when}`,
    verification_failed: `verification failed: ${s.failureCode ?? 'unknown'} (${when})`,
    rejected: `rejected by an operator: ${s.rejectReasonCode ?? 'no reason code'} (${when})`,
    promoting: `approved; promoting into the private media store since ${when}`,
    promoted_to_media_store: `promoted to the private media store as ${s.mediaStoreDocumentId ?? '?'} (${when})`,
    expired: `expired: no upload-complete within the upload window (${when})`,
  };
  return lines[s.intakeStatus];
}

/** Has this run's history grown long enough that it should continue as new? */
function historyLong(): boolean {
  const i = workflowInfo();
  return i.continueAsNewSuggested || i.historyLength > MAX_HISTORY_EVENTS || i.historySize > MAX_HISTORY_BYTES;
}

const REVIEW: Pick<IntakeState, 'intakeStatus' | 'reviewStatus'> = { intakeStatus: 'awaiting_review', reviewStatus: 'review_required' };

export async function portfolioIntake(input: IntakeInput): Promise<IntakeState> {
  const resume = input.resume;
  const state: IntakeState = {
    submissionId: input.submissionId,
    artistCanonicalId: input.artistCanonicalId,
    intakeStatus: 'staged',
    reviewStatus: 'review_required',
    mediaStoreDocumentId: null,
    failureCode: null,
    rejectReasonCode: null,
  };
  // Asked once, first: a run recorded before the Updates has no marker and keeps its signal handlers.
  const updates = patched(DECISION_UPDATES_PATCH);
  const inbox = new Inbox({
    submissionId: input.submissionId,
    partnerActorId: input.partnerActorId,
    decisionKeys: input.decisionKeys,
    status: () => state.intakeStatus,
    updates,
    recordMalformed: (r) => record.recordSignalRefusal({ submissionId: input.submissionId, ...r }),
  });
  setHandler(intakeStateQuery, () => state);
  const uploadDeadline = resume ? new Date(resume.uploadDeadline) : new Date(Date.now() + input.uploadDeadlineSeconds * 1000);
  setCurrentDetails(currentDetailsOf(state, new Date(Date.now()), uploadDeadline));
  inbox.install();

  const decide = (trigger: Trigger, o: { by: ActorRef; note?: string | null; facts?: TransitionFacts }): Transition =>
    transitionOf(state, trigger, { submissionId: input.submissionId, ...o });
  const show = () => {
    upsertSearchAttributes([
      { key: IntakeStatusKey, value: state.intakeStatus },
      { key: ReviewStatusKey, value: state.reviewStatus },
      ...(state.intakeStatus === 'awaiting_review' ? [{ key: AwaitingSinceKey, value: new Date(Date.now()) }] : []),
    ]);
    setCurrentDetails(currentDetailsOf(state, new Date(Date.now()), uploadDeadline));
  };
  const moveTo = (t: Transition) => {
    state.intakeStatus = t.to;
    state.reviewStatus = t.reviewStatus;
    state.failureCode = t.facts.failureCode ?? state.failureCode;
    state.rejectReasonCode = t.facts.rejectReasonCode ?? state.rejectReasonCode;
    state.mediaStoreDocumentId = t.facts.mediaStoreDocumentId ?? state.mediaStoreDocumentId;
    show();
  };
  /** A refused approval: the optimistic `promoting` is undone (the row never left awaiting_review). */
  const backToReview = () => {
    Object.assign(state, REVIEW);
    upsertSearchAttributes([
      { key: IntakeStatusKey, value: 'awaiting_review' },
      { key: ReviewStatusKey, value: 'review_required' },
    ]);
    setCurrentDetails(currentDetailsOf(state, new Date(Date.now()), uploadDeadline));
  };
  /** Take on what the row records (the row is the truth partners and operators read). */
  const takeRow = (row: RowState) => {
    state.intakeStatus = row.intakeStatus;
    state.reviewStatus = row.reviewStatus;
    state.failureCode = row.failureCode;
    state.rejectReasonCode = row.rejectReasonCode;
    state.mediaStoreDocumentId = row.mediaStoreDocumentId;
    show();
  };
  /**
   * A step whose attempts ran out: its failure outcome is written when the row is still where the
   * step left it, and the workflow takes on whatever the row then records, so the two agree again.
   */
  const stalled = async (err: unknown, failed: Transition | null): Promise<RowState> => {
    if (!(err instanceof ActivityFailure)) throw err;
    log.warn('intake step gave up after its attempts', { submissionId: input.submissionId, step: err.activityType, cause: err.cause?.message });
    const row = await record.settleStalledStep({ submissionId: input.submissionId, failed });
    takeRow(row);
    return row;
  };
  const end = async () => {
    inbox.answerWaiting(state.intakeStatus);
    return finish(state);
  };
  /** A long history continues as new from where it waits (runs with Updates only; nothing is waiting to be answered). */
  const continued = async (at: IntakeResume['intakeStatus'], sha256: string | null): Promise<IntakeState | undefined> => {
    if (!updates || !historyLong()) return undefined;
    await condition(() => allHandlersFinished() || inbox.offered.length > 0 || inbox.upload !== undefined);
    if (inbox.offered.length > 0 || inbox.upload !== undefined) return undefined;
    return continueAsNew<typeof portfolioIntake>({
      ...input,
      resume: { intakeStatus: at, sha256, uploadDeadline: uploadDeadline.toISOString(), why: 'continued: the history grew long' },
    });
  };

  let sha256: string | undefined;
  if (resume?.intakeStatus === 'awaiting_review' && resume.sha256) {
    sha256 = resume.sha256;
    Object.assign(state, REVIEW);
    show();
  } else if (resume?.intakeStatus === 'promoting' && resume.sha256) {
    // The run that held the approval is gone: the approval is undone (recorded) and the decision asked again.
    const undo = transitionOf({ intakeStatus: 'promoting', reviewStatus: 'approved' }, 'promotion_failed', { submissionId: input.submissionId, note: resume.why });
    const row = await record.settleStalledStep({ submissionId: input.submissionId, failed: undo });
    takeRow(row);
    if (row.intakeStatus !== 'awaiting_review' || !row.verifiedSha256) return end();
    sha256 = row.verifiedSha256;
  } else {
    const verified = await uploadAndVerify();
    if (verified === undefined) return end();
    if (typeof verified !== 'string') return verified;
    sha256 = verified;
  }
  return review(sha256);

  /** Wait for the upload (or expire), then verify: the sha256 of bytes awaiting review, or undefined (ended), or the continued run. */
  async function uploadAndVerify(): Promise<string | IntakeState | undefined> {
    if (resume?.intakeStatus === 'verifying') inbox.upload = { requestId: `resume:${input.submissionId}`, by: resume.uploadedBy ?? { actorId: input.partnerActorId, credentialId: input.credentialId } };
    // The upload window is a workflow timer (not a workflow timeout), so expiry runs cleanup.
    for (;;) {
      const left = uploadDeadline.getTime() - Date.now();
      const uploaded = left > 0 && (await condition(() => inbox.upload !== undefined || (updates && historyLong()), left)) && inbox.upload !== undefined;
      if (!uploaded) {
        // Woken by a long history, not by the window's end.
        if (updates && Date.now() < uploadDeadline.getTime()) {
          const next = await continued('staged', null);
          if (next) return next;
          continue;
        }
        const expired = decide('upload_window_passed', { by: SYSTEM_ACTOR, note: 'upload window passed' });
        try {
          await acts.expireSubmission({ submissionId: input.submissionId, stagingKey: input.stagingKey, transition: expired });
        } catch (err) {
          await stalled(err, expired); // the staged object is left to the retention sweep
          return undefined;
        }
        moveTo(expired);
        return undefined;
      }
      const upload = inbox.upload as NonNullable<typeof inbox.upload>;
      // Runs with Updates look before they act: an upload-complete sent before the bytes leaves the submission staged.
      if (updates && resume?.intakeStatus !== 'verifying' && !(await acts.stagedObjectPresent({ stagingKey: input.stagingKey }))) {
        await record.recordSignalRefusal({
          submissionId: input.submissionId, signal: 'uploadComplete', requestId: upload.requestId, by: upload.by, seq: 0,
          reason: 'object_missing', detail: 'no uploaded object yet; the submission stays staged until the upload window ends',
        });
        inbox.answer(upload.requestId, { taken: false, reason: 'object_missing', intakeStatus: state.intakeStatus });
        inbox.upload = undefined;
        continue;
      }
      const verifying = decide('upload_complete', { by: upload.by });
      moveTo(verifying);
      const verification = stepOutcomes(verifying, 'verification_passed', 'verification_failed');
      try {
        const verified = await acts.verifyStagedMedia({
          submissionId: input.submissionId,
          stagingKey: input.stagingKey,
          sizeBytes: input.sizeBytes,
          mimeType: input.mimeType,
          by: upload.by,
          enter: verifying,
          outcomes: verification,
        });
        moveTo(outcomeOf(verification, verified));
        inbox.answer(upload.requestId, { taken: true, intakeStatus: state.intakeStatus });
        return verified.ok ? verified.sha256 : undefined;
      } catch (err) {
        const row = await stalled(err, outcomeOf(verification, { ok: false, code: 'verification_error' }));
        inbox.answer(upload.requestId, { taken: true, intakeStatus: state.intakeStatus });
        return row.intakeStatus === 'awaiting_review' && row.verifiedSha256 ? row.verifiedSha256 : undefined;
      }
    }
  }

  // A human decides; there is no deadline on review. Operators see the queue in PostgreSQL and
  // on-call staff can filter on AwaitingSince in the Web UI. Each decision is acted on by the same
  // activities, in the same order, as before decisions were signed (so every recorded run replays
  // without a version patch); the activity verifies the decision's proof and re-checks the operator
  // before it writes anything. A refused decision changes nothing: the state goes back to
  // awaiting_review, the decision is answered as refused, and the next one is taken.
  async function review(sha: string): Promise<IntakeState> {
    for (;;) {
      await condition(() => inbox.offered.length > 0 || (updates && historyLong()));
      if (inbox.offered.length === 0) {
        const next = await continued('awaiting_review', sha);
        if (next) return next;
        continue;
      }
      const o = inbox.offered.shift() as Decision;
      const answer = (taken: boolean, reason = '') =>
        inbox.answer(o.signal.requestId, taken ? { taken: true, intakeStatus: state.intakeStatus } : { taken: false, reason, intakeStatus: state.intakeStatus });
      const proofOf = (transition: Transition) => ({
        decision: o.kind,
        requestId: o.signal.requestId,
        by: o.signal.by,
        proof: o.signal.proof,
        reviewNotes: o.signal.reviewNotes ?? '',
        ...(o.kind === 'reject' ? { reasonCode: o.signal.reasonCode } : {}),
        // Only when the signal carried them: the activity input of every earlier signal is unchanged.
        ...(o.kind === 'approve' && o.signal.seenMatches ? { seenMatches: o.signal.seenMatches } : {}),
        sha256: sha,
        transition,
      });
      if (o.kind === 'reject') {
        const { by, reasonCode } = o.signal;
        const reviewNotes = o.signal.reviewNotes ?? '';
        const rejected = decide('reject', { by, note: `${reasonCode}: ${reviewNotes}`, facts: { rejectReasonCode: reasonCode } });
        deprecatePatch(TRANSITION_WRITER_PATCH);
        let written;
        try {
          written = await acts.recordTransition({ ...rejected, decision: proofOf(rejected) });
        } catch (err) {
          // Whether the rejection was written is what the row says.
          const stuck = (await stalled(err, null)).intakeStatus === 'awaiting_review';
          answer(!stuck, 'step_gave_up');
          if (stuck) continue;
          return end();
        }
        if (written && !written.accepted) {
          answer(false, written.reason); // refused and recorded; still awaiting_review
          continue;
        }
        moveTo(rejected);
        answer(true);
        return end();
      }
      const promoting = decide('approve', { by: o.signal.by, note: o.signal.reviewNotes });
      moveTo(promoting);
      const promotion = stepOutcomes(promoting, 'promotion_done', 'object_changed');
      let promoted;
      try {
        promoted = await acts.promoteToMediaStore({
          submissionId: input.submissionId,
          stagingKey: input.stagingKey,
          sha256: sha,
          mimeType: input.mimeType,
          outcomes: promotion,
          decision: proofOf(promoting),
        });
      } catch (err) {
        // An approval the worker could not carry out is undone: the row goes back to review (or, if
        // the promotion did finish, the workflow takes that on).
        const undo = transitionOf({ intakeStatus: 'promoting', reviewStatus: 'approved' }, 'promotion_failed', { submissionId: input.submissionId, note: 'promotion gave up after its attempts' });
        const back = (await stalled(err, undo)).intakeStatus === 'awaiting_review';
        answer(!back, 'step_gave_up');
        if (back) continue;
        return end();
      }
      if ('refused' in promoted) {
        backToReview();
        answer(false, promoted.reason);
        continue;
      }
      moveTo(outcomeOf(promotion, promoted));
      answer(true);
      return end();
    }
  }
}

async function finish(state: IntakeState): Promise<IntakeState> {
  // Let any in-flight handler finish before the run closes (no "unfinished handler" warnings).
  await condition(allHandlersFinished);
  return state;
}
