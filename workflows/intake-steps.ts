// The intake's steps, each a small function registered by the lifecycle state it serves: it acts
// from that state (a wait or a work step's activity) and says where the run goes next. Every
// transition is built from the transition table (lib/intake/lifecycle.ts) here; the activities
// persist exactly what they are handed. A new work step is a new entry in STEPS.
import { condition, deprecatePatch } from '@temporalio/workflow';
import type { AcceptDecisionInput } from '../activities/types';
import { outcomeOf, stepOutcomes, transitionOf, type Transition } from '../lib/intake/lifecycle';
import { decisionDetails, decisionNote } from '../lib/intake/signal-shapes';
import { SYSTEM_ACTOR } from '../lib/intake/vocabulary';
import { TRANSITION_WRITER_PATCH } from './compat';
import { acts, record } from './intake-activities';
import type { Decision } from './intake-inbox';
import { IntakeRun, REVIEW } from './intake-run';
import type { IntakeState, UploadCompleteSignal } from './messages';

/** Where the run goes next: a state with what its step needs, or done (ended or continued as new). */
export type Next =
  | { at: 'staged' }
  | { at: 'verifying'; upload: UploadCompleteSignal }
  | { at: 'awaiting_review'; sha256: string }
  | { at: 'promoting'; sha256: string; decision: Extract<Decision, { kind: 'approve' }>; enter: Transition }
  | { done: IntakeState };
type At = Extract<Next, { at: string }>;
type Step<S extends At['at']> = (run: IntakeRun, at: Extract<At, { at: S }>) => Promise<Next>;

/** The signed decision: the one carrier of who decided, the review notes and the transition it makes. */
function signedDecision(o: Decision, sha256: string, transition: Transition): AcceptDecisionInput {
  return {
    decision: o.kind,
    requestId: o.signal.requestId,
    by: o.signal.by,
    proof: o.signal.proof,
    ...decisionDetails(o),
    sha256,
    transition,
  };
}

/** The approval undone (recorded): the row goes back to review unless the promotion did finish. */
function undoApproval(run: IntakeRun, note: string): Transition {
  return transitionOf({ intakeStatus: 'promoting', reviewStatus: 'approved' }, 'promotion_failed', { submissionId: run.submissionId, note });
}

function answerDecision(run: IntakeRun, o: Decision, taken: boolean, reason = '') {
  const intakeStatus = run.state.intakeStatus;
  run.inbox.answer(o.signal.requestId, taken ? { taken: true, intakeStatus } : { taken: false, reason, intakeStatus });
}

const done = async (run: IntakeRun): Promise<Next> => ({ done: await run.end() });

/** Wait for the upload until the window ends (a workflow timer, so expiry runs cleanup). */
const staged: Step<'staged'> = async (run) => {
  const { inbox, input } = run;
  for (;;) {
    const left = run.uploadDeadline.getTime() - Date.now();
    const uploaded = left > 0 && (await condition(() => inbox.upload !== undefined || run.historyLong(), left)) && inbox.upload !== undefined;
    if (!uploaded) {
      // Woken by a long history, not by the window's end.
      if (run.updates && Date.now() < run.uploadDeadline.getTime()) {
        const next = await run.continued('staged', null);
        if (next) return { done: next };
        continue;
      }
      return expire(run);
    }
    const upload = inbox.upload as UploadCompleteSignal;
    // Runs with Updates look before they act: an upload-complete sent before the bytes leaves the submission staged.
    if (run.updates && input.resume?.intakeStatus !== 'verifying' && !(await acts.stagedObjectPresent({ stagingKey: input.stagingKey }))) {
      await record.recordSignalRefusal({
        submissionId: input.submissionId, signal: 'uploadComplete', requestId: upload.requestId, by: upload.by, seq: 0,
        reason: 'object_missing', detail: 'no uploaded object yet; the submission stays staged until the upload window ends',
      });
      inbox.answer(upload.requestId, { taken: false, reason: 'object_missing', intakeStatus: run.state.intakeStatus });
      inbox.upload = undefined;
      continue;
    }
    return { at: 'verifying', upload };
  }
};

async function expire(run: IntakeRun): Promise<Next> {
  const expired = run.decide('upload_window_passed', { by: SYSTEM_ACTOR, note: 'upload window passed' });
  try {
    await acts.expireSubmission({ submissionId: run.submissionId, stagingKey: run.input.stagingKey, transition: expired });
  } catch (err) {
    await run.stalled(err, expired); // the staged object is left to the retention sweep
    return done(run);
  }
  run.moveTo(expired);
  return done(run);
}

const verifying: Step<'verifying'> = async (run, { upload }) => {
  const { input, inbox } = run;
  const enter = run.decide('upload_complete', { by: upload.by });
  run.moveTo(enter);
  const outcomes = stepOutcomes(enter, 'verification_passed', 'verification_failed');
  let sha256: string | null | undefined;
  try {
    const { submissionId, stagingKey, sizeBytes, mimeType } = input;
    const verified = await acts.verifyStagedMedia({ submissionId, stagingKey, sizeBytes, mimeType, by: upload.by, enter, outcomes });
    run.moveTo(outcomeOf(outcomes, verified));
    sha256 = verified.ok ? verified.sha256 : undefined;
  } catch (err) {
    const row = await run.stalled(err, outcomeOf(outcomes, { ok: false, code: 'verification_error' }));
    sha256 = row.intakeStatus === 'awaiting_review' ? row.verifiedSha256 : undefined;
  }
  inbox.answer(upload.requestId, { taken: true, intakeStatus: run.state.intakeStatus });
  return sha256 ? { at: 'awaiting_review', sha256 } : done(run);
};

/**
 * A human decides; there is no deadline on review. Operators see the queue in PostgreSQL and
 * on-call staff can filter on AwaitingSince in the Web UI. The deciding activity verifies the
 * decision's proof and re-checks the operator before it writes anything; a refused decision
 * changes nothing, is answered as refused, and the next one is taken.
 */
const awaitingReview: Step<'awaiting_review'> = async (run, { sha256 }) => {
  const { inbox } = run;
  for (;;) {
    await condition(() => inbox.offered.length > 0 || run.historyLong());
    const o = inbox.offered.shift();
    if (!o) {
      const next = await run.continued('awaiting_review', sha256);
      if (next) return { done: next };
      continue;
    }
    if (o.kind === 'approve') {
      const enter = run.decide('approve', { by: o.signal.by, note: decisionNote(o) });
      run.moveTo(enter);
      return { at: 'promoting', sha256, decision: o, enter };
    }
    const next = await reject(run, o, sha256);
    if (next) return next;
  }
};

/** A rejection is written with its signed decision; undefined: refused or not written, still awaiting review. */
async function reject(run: IntakeRun, o: Extract<Decision, { kind: 'reject' }>, sha256: string): Promise<Next | undefined> {
  const { by, reasonCode } = o.signal;
  const rejected = run.decide('reject', { by, note: decisionNote(o), facts: { rejectReasonCode: reasonCode } });
  deprecatePatch(TRANSITION_WRITER_PATCH);
  let written;
  try {
    written = await acts.recordTransition({ ...rejected, decision: signedDecision(o, sha256, rejected) });
  } catch (err) {
    // Whether the rejection was written is what the row says.
    const stuck = (await run.stalled(err, null)).intakeStatus === 'awaiting_review';
    answerDecision(run, o, !stuck, 'step_gave_up');
    return stuck ? undefined : done(run);
  }
  if (written && !written.accepted) {
    answerDecision(run, o, false, written.reason); // refused and recorded; still awaiting_review
    return undefined;
  }
  run.moveTo(rejected);
  answerDecision(run, o, true);
  return done(run);
}

const promoting: Step<'promoting'> = async (run, { sha256, decision: o, enter }) => {
  const { submissionId, stagingKey, mimeType } = run.input;
  const outcomes = stepOutcomes(enter, 'promotion_done', 'object_changed');
  let promoted;
  try {
    promoted = await acts.promoteToMediaStore({ submissionId, stagingKey, sha256, mimeType, outcomes, decision: signedDecision(o, sha256, enter) });
  } catch (err) {
    // An approval the worker could not carry out is undone: the row goes back to review (or, if
    // the promotion did finish, the run takes that on).
    const back = (await run.stalled(err, undoApproval(run, 'promotion gave up after its attempts'))).intakeStatus === 'awaiting_review';
    answerDecision(run, o, !back, 'step_gave_up');
    return back ? { at: 'awaiting_review', sha256 } : done(run);
  }
  if ('refused' in promoted) {
    run.backToReview();
    answerDecision(run, o, false, promoted.reason);
    return { at: 'awaiting_review', sha256 };
  }
  run.moveTo(outcomeOf(outcomes, promoted));
  answerDecision(run, o, true);
  return done(run);
};

/** Each step by the state it serves. */
export const STEPS: { [S in At['at']]: Step<S> } = {
  staged,
  verifying,
  awaiting_review: awaitingReview,
  promoting,
};

/** Where a run starts: a new submission is staged; a resumed run starts where the row (or the run before) was. */
export async function firstStep(run: IntakeRun): Promise<Next> {
  const resume = run.input.resume;
  if (resume?.intakeStatus === 'awaiting_review' && resume.sha256) {
    Object.assign(run.state, REVIEW);
    run.show();
    return { at: 'awaiting_review', sha256: resume.sha256 };
  }
  if (resume?.intakeStatus === 'promoting' && resume.sha256) {
    // The run that held the approval is gone: the approval is undone (recorded) and the decision asked again.
    const row = await record.settleStalledStep({ submissionId: run.submissionId, failed: undoApproval(run, resume.why) });
    run.takeRow(row);
    return row.intakeStatus === 'awaiting_review' && row.verifiedSha256 ? { at: 'awaiting_review', sha256: row.verifiedSha256 } : done(run);
  }
  if (resume?.intakeStatus === 'verifying') {
    run.inbox.upload = { requestId: `resume:${run.submissionId}`, by: resume.uploadedBy ?? { actorId: run.input.partnerActorId, credentialId: run.input.credentialId } };
  }
  return { at: 'staged' };
}
