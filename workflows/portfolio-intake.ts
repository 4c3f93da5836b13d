// One workflow per submission: wait for the upload, verify the bytes, wait for a human decision,
// promote into the private media store. Deterministic code only: all I/O happens in activities.
// The workflow is the only author of transitions: each one is built from the transition table
// (lib/intake/lifecycle.ts) here, and the activities persist exactly what they are handed.
import {
  ActivityFailure,
  allHandlersFinished,
  condition,
  log,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { IntakeActivities, RowState } from '../activities/types';
import { accepts, acceptsDuringStep, outcomeOf, stepOutcomes, transitionOf, type Transition, type TransitionFacts, type Trigger } from '../lib/intake/lifecycle';
import { problemsLine, SIGNAL_CHECKS, type CheckedSignal } from '../lib/intake/signal-shapes';
import { SYSTEM_ACTOR, type ActorRef, type IntakeStatus } from '../lib/intake/vocabulary';
import {
  approveSignal,
  AwaitingSinceKey,
  intakeStateQuery,
  IntakeStatusKey,
  rejectSignal,
  ReviewStatusKey,
  uploadCompleteSignal,
  type ApproveSignal,
  type IntakeInput,
  type IntakeState,
  type RejectSignal,
  type UploadCompleteSignal,
} from './messages';

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

/**
 * Runs that reach a rejection after this change write it with the generic recordTransition
 * activity; runs whose history already scheduled recordRejection replay that branch.
 */
export const TRANSITION_WRITER_PATCH = 'intake-transition-writer';
/** Runs that receive a decision while the verification outcome is committed but not yet processed keep it. */
export const SIGNAL_DURING_STEP_PATCH = 'intake-signal-during-step';
/** Runs that start after this change check every signal's shape and record a malformed one as refused. */
export const SIGNAL_SHAPE_PATCH = 'intake-signal-shape-check';
/** Decision signals kept while one is being checked; beyond this, more are dropped (not recorded). */
const MAX_OFFERED_DECISIONS = 100;
/** Malformed signals recorded per run; beyond this they are dropped with a log line (a flood cannot grow the history). */
const MAX_RECORDED_REFUSALS = 100;

type Decision = { kind: 'approve'; signal: ApproveSignal } | { kind: 'reject'; signal: RejectSignal };

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

export async function portfolioIntake(input: IntakeInput): Promise<IntakeState> {
  const state: IntakeState = {
    submissionId: input.submissionId,
    artistCanonicalId: input.artistCanonicalId,
    intakeStatus: 'staged',
    reviewStatus: 'review_required',
    mediaStoreDocumentId: null,
    failureCode: null,
    rejectReasonCode: null,
  };
  // Signals carry a request id: a repeated signal (a client retry) is a no-op.
  const handled = new Set<string>();
  let upload: UploadCompleteSignal | undefined;
  /**
   * Every decision signal the state accepts, in order of arrival: one refused for its proof must
   * not keep out the operator's real decision sent after it. In memory only (no commands); the
   * first one is acted on exactly as the single pending decision was before decisions were signed.
   */
  const offered: Decision[] = [];
  const offeredIds = new Set<string>();
  const offer = (d: Decision) => {
    if (offeredIds.has(d.signal.requestId) || offered.length >= MAX_OFFERED_DECISIONS) return;
    if (!accepts(state.intakeStatus, d.kind) && !(acceptsDuringStep(state.intakeStatus, d.kind) && patched(SIGNAL_DURING_STEP_PATCH))) return;
    offeredIds.add(d.signal.requestId);
    offered.push(d);
  };
  /**
   * A signal counts once, only while nothing of its kind is pending and the table accepts its
   * trigger now, or at the end of the running step (lifecycle.acceptsDuringStep; behind a patch,
   * since runs before it dropped such a signal).
   */
  const fresh = (requestId: string, trigger: Trigger, pending: unknown): boolean => {
    if (handled.has(requestId) || pending !== undefined) return false;
    const now = accepts(state.intakeStatus, trigger);
    if (!now && !(acceptsDuringStep(state.intakeStatus, trigger) && patched(SIGNAL_DURING_STEP_PATCH))) return false;
    handled.add(requestId);
    return true;
  };
  /**
   * A payload that is not the signal's shape changes nothing: it is recorded as refused (what was
   * wrong in it, who it claims to be from) and never reaches an activity. Runs from before the
   * check only drop what their handlers could not even read.
   */
  let refusals = 0;
  const wellFormed = async <S extends CheckedSignal>(name: S, payload: unknown): Promise<boolean> => {
    const checked = SIGNAL_CHECKS[name](payload);
    if (checked.ok) return true;
    // Asked only at a malformed payload, so a run that never gets one records no marker (R6): a
    // history recorded before the check replays taking such a payload as it came.
    if (!patched(SIGNAL_SHAPE_PATCH)) return typeof payload === 'object' && payload !== null;
    const detail = problemsLine(checked.problems);
    if (refusals >= MAX_RECORDED_REFUSALS) {
      log.warn('malformed signal dropped (refusal records full)', { signal: name, detail });
      return false;
    }
    refusals++;
    await record.recordSignalRefusal({ submissionId: input.submissionId, signal: name, requestId: checked.requestId, by: checked.by, detail, seq: refusals });
    return false;
  };

  setHandler(intakeStateQuery, () => state);
  const uploadDeadline = new Date(Date.now() + input.uploadDeadlineSeconds * 1000);
  setCurrentDetails(currentDetailsOf(state, new Date(Date.now()), uploadDeadline));
  // Handlers only check and record; the main body acts. A trigger the current state does not
  // accept is ignored: the HTTP route asked the same table and has already answered 409 for it.
  setHandler(uploadCompleteSignal, async (s) => {
    if (!(await wellFormed('uploadComplete', s))) return;
    if (fresh(s.requestId, 'upload_complete', upload)) upload = s;
  });
  setHandler(approveSignal, async (s) => {
    if (await wellFormed('approve', s)) offer({ kind: 'approve', signal: s });
  });
  setHandler(rejectSignal, async (s) => {
    if (await wellFormed('reject', s)) offer({ kind: 'reject', signal: s });
  });

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
    state.intakeStatus = 'awaiting_review';
    state.reviewStatus = 'review_required';
    upsertSearchAttributes([
      { key: IntakeStatusKey, value: 'awaiting_review' },
      { key: ReviewStatusKey, value: 'review_required' },
    ]);
    setCurrentDetails(currentDetailsOf(state, new Date(Date.now()), uploadDeadline));
  };
  /**
   * A step whose attempts ran out: its failure outcome is written when the row is still where the
   * step left it, and the workflow takes on whatever the row then records (the row is the truth
   * partners and operators read), so the two agree again.
   */
  const stalled = async (err: unknown, failed: Transition | null): Promise<RowState> => {
    if (!(err instanceof ActivityFailure)) throw err;
    log.warn('intake step gave up after its attempts', { submissionId: input.submissionId, step: err.activityType, cause: err.cause?.message });
    const row = await record.settleStalledStep({ submissionId: input.submissionId, failed });
    state.intakeStatus = row.intakeStatus;
    state.reviewStatus = row.reviewStatus;
    state.failureCode = row.failureCode;
    state.rejectReasonCode = row.rejectReasonCode;
    state.mediaStoreDocumentId = row.mediaStoreDocumentId;
    show();
    return row;
  };

  // The upload window is a workflow timer (not a workflow timeout), so expiry runs cleanup.
  const uploaded = await condition(() => upload !== undefined, input.uploadDeadlineSeconds * 1000);
  if (!uploaded || !upload) {
    const expired = decide('upload_window_passed', { by: SYSTEM_ACTOR, note: 'upload window passed' });
    try {
      await acts.expireSubmission({ submissionId: input.submissionId, stagingKey: input.stagingKey, transition: expired });
    } catch (err) {
      await stalled(err, expired); // the staged object is left to the retention sweep
      return finish(state);
    }
    moveTo(expired);
    return finish(state);
  }

  const verifying = decide('upload_complete', { by: upload.by });
  moveTo(verifying);
  const verification = stepOutcomes(verifying, 'verification_passed', 'verification_failed');
  let sha256: string;
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
    if (!verified.ok) return finish(state);
    sha256 = verified.sha256;
  } catch (err) {
    const row = await stalled(err, outcomeOf(verification, { ok: false, code: 'verification_error' }));
    if (row.intakeStatus !== 'awaiting_review' || !row.verifiedSha256) return finish(state);
    sha256 = row.verifiedSha256;
  }

  // A human decides; there is no deadline on review. Operators see the queue in PostgreSQL and
  // on-call staff can filter on AwaitingSince in the Web UI. Each decision is acted on by the same
  // activities, in the same order, as before decisions were signed (so every recorded run replays
  // without a version patch); the activity verifies the decision's proof and re-checks the operator
  // before it writes anything. A refused decision (a signal sent around the API) changes nothing:
  // the state goes back to awaiting_review and the next decision is taken.
  for (;;) {
    await condition(() => offered.length > 0);
    const o = offered.shift() as Decision;
    const proofOf = (transition: Transition) => ({
      decision: o.kind,
      requestId: o.signal.requestId,
      by: o.signal.by,
      proof: o.signal.proof,
      reviewNotes: o.kind === 'reject' ? (o.signal.reviewNotes ?? o.signal.notes ?? '') : o.signal.reviewNotes,
      ...(o.kind === 'reject' ? { reasonCode: o.signal.reasonCode } : {}),
      // Only when the signal carried them: the activity input of every earlier signal is unchanged.
      ...(o.kind === 'approve' && o.signal.seenMatches ? { seenMatches: o.signal.seenMatches } : {}),
      sha256,
      transition,
    });
    if (o.kind === 'reject') {
      const { by, reasonCode } = o.signal;
      const reviewNotes = o.signal.reviewNotes ?? o.signal.notes ?? '';
      const rejected = decide('reject', { by, note: `${reasonCode}: ${reviewNotes}`, facts: { rejectReasonCode: reasonCode } });
      if (patched(TRANSITION_WRITER_PATCH)) {
        let written;
        try {
          written = await acts.recordTransition({ ...rejected, decision: proofOf(rejected) });
        } catch (err) {
          // Whether the rejection was written is what the row says.
          if ((await stalled(err, null)).intakeStatus === 'awaiting_review') continue;
          return finish(state);
        }
        if (written && !written.accepted) continue; // refused and recorded; still awaiting_review
      } else await acts.recordRejection({ submissionId: input.submissionId, by, reasonCode, notes: reviewNotes });
      moveTo(rejected);
      return finish(state);
    }
    const promoting = decide('approve', { by: o.signal.by, note: o.signal.reviewNotes });
    moveTo(promoting);
    const promotion = stepOutcomes(promoting, 'promotion_done', 'object_changed');
    let promoted;
    try {
      promoted = await acts.promoteToMediaStore({
        submissionId: input.submissionId,
        stagingKey: input.stagingKey,
        sha256,
        mimeType: input.mimeType,
        by: o.signal.by,
        reviewNotes: o.signal.reviewNotes,
        enter: promoting,
        outcomes: promotion,
        decision: proofOf(promoting),
      });
    } catch (err) {
      // An approval the worker could not carry out is undone: the row goes back to review (or, if
      // the promotion did finish, the workflow takes that on).
      const undo = transitionOf({ intakeStatus: 'promoting', reviewStatus: 'approved' }, 'promotion_failed', { submissionId: input.submissionId, note: 'promotion gave up after its attempts' });
      if ((await stalled(err, undo)).intakeStatus === 'awaiting_review') continue;
      return finish(state);
    }
    if ('refused' in promoted) {
      backToReview();
      continue;
    }
    moveTo(outcomeOf(promotion, promoted));
    return finish(state);
  }
}

async function finish(state: IntakeState): Promise<IntakeState> {
  // Let any in-flight handler finish before the run closes (no "unfinished handler" warnings).
  await condition(allHandlersFinished);
  return state;
}
