// The intake's steps. A wait (staged, awaiting_review) is a small function of its own; every work
// step (lib/intake/lifecycle.ts WORK: a state whose ways out are all the workflow's doing) runs
// through the one function `work`, driven by the transition table: it calls the state's activity
// with the entering transition and the outcomes the table offers, then follows the outcome. Every
// transition is built from the table here; the activities persist exactly what they are handed.
// A new work step needs nothing in this file: its WORK row names the patch it arrived with, which
// `work` asks before it enters the step.
import { condition, deprecatePatch, patched } from '@temporalio/workflow';
import type { AcceptDecisionInput, WorkStepInput, WorkStepResult } from '../activities/types';
import type { IntakeActivities } from '../activities/registered';
import { gaveUpOf, isWorking, OPEN, reviewIn, outcomeOf, stepOutcomes, transitionOf, WORK, type StepOutcomes, type Transition, type Work, type WorkingStatus } from '../lib/intake/lifecycle';
import { DECIDING, decisionDetails, decisionFacts, decisionNote, decisionTrigger, isDeciding, type DecidingStatus } from '../lib/intake/decisions';
import { isFirstReview, SYSTEM_ACTOR, type IntakeStatus } from '../lib/intake/vocabulary';
import { TRANSITION_WRITER_PATCH } from './compat';
import { acts, localActs, record } from './intake-activities';
import type { Decision } from './intake-inbox';
import { IntakeRun, runsLocal } from './intake-run';
import type { IntakeState, UploadCompleteSignal } from './messages';

/** What a step hands the next: the request a work step answers (an upload or a decision that enters one), the verified bytes, a work step's entering transition. */
interface Carry {
  upload?: UploadCompleteSignal;
  decision?: Decision;
  sha256?: string;
  enter?: Transition;
}
/** Where the run goes next: a state with what its step needs, or done (ended or continued as new). */
export type Next = ({ at: IntakeStatus } & Carry) | { done: IntakeState };
type At = Extract<Next, { at: string }>;
type Step = (run: IntakeRun, at: At) => Promise<Next>;

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

/** What became of a request (an Update waits for it): taken, or refused with the reason. */
function answer(run: IntakeRun, requestId: string | undefined, taken: boolean, reason = '') {
  const intakeStatus = run.state.intakeStatus;
  if (requestId !== undefined) run.inbox.answer(requestId, taken ? { taken: true, intakeStatus } : { taken: false, reason, intakeStatus });
}

const done = async (run: IntakeRun): Promise<Next> => ({ done: await run.end() });

/** Wait for the upload until the window ends (a workflow timer, so expiry runs cleanup). */
const staged: Step = async (run) => {
  const { inbox, input } = run;
  for (;;) {
    const left = run.uploadDeadline.getTime() - Date.now();
    const uploaded = left > 0 && (await condition(() => inbox.upload !== undefined || run.historyLong(), left)) && inbox.upload !== undefined;
    if (!uploaded) {
      // Woken by a long history, not by the window's end.
      if (Date.now() < run.uploadDeadline.getTime()) {
        const next = await run.continued('staged', null);
        if (next) return { done: next };
        continue;
      }
      return expire(run);
    }
    const upload = inbox.upload as UploadCompleteSignal;
    // The decision-updates shape looked for the bytes in an activity of its own; the current one
    // looks inside verification (an upload-complete sent before the bytes is refused there).
    if (run.shape === 'decision-updates' && input.resume?.intakeStatus !== 'verifying' && !(await acts.stagedObjectPresent({ stagingKey: input.stagingKey }))) {
      await record.recordSignalRefusal({
        submissionId: input.submissionId, signal: 'uploadComplete', requestId: upload.requestId, by: upload.by, seq: 0,
        reason: 'object_missing', detail: 'no uploaded object yet; the submission stays staged until the upload window ends',
      });
      inbox.answer(upload.requestId, { taken: false, reason: 'object_missing', intakeStatus: run.state.intakeStatus });
      inbox.upload = undefined;
      continue;
    }
    const enter = run.decide('upload_complete', { by: upload.by });
    run.moveTo(enter);
    return { at: enter.to, upload, enter };
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

/**
 * A human decides; there is no deadline on review. Operators see the queue in PostgreSQL and
 * on-call staff can filter on AwaitingSince in the Web UI. Every kind of decision is taken the
 * same way, from its row (lib/intake/decisions.ts transition): one that leads into a work step
 * (approve: promoting) enters it with the decision, whose activity accepts it first; any other
 * (reject) is written with its signed decision. The deciding activity verifies the decision's
 * proof and re-checks the operator before it writes anything; a refused decision changes nothing,
 * is answered as refused, and the next one is taken.
 */
const awaitingReview: Step = async (run, { at, sha256 }) => {
  if (!sha256) throw new Error(`${at} without the verified sha256`);
  const { inbox } = run;
  for (;;) {
    await condition(() => inbox.offered.length > 0 || run.historyLong());
    const o = inbox.offered.shift();
    if (!o) {
      const next = await run.continued(at as DecidingStatus, sha256);
      if (next) return { done: next };
      continue;
    }
    // Held where the second-review policy asks for two operators (the first approval waits in
    // awaiting_second_review; the deciding activity refuses the same operator there).
    const trigger = decisionTrigger(o, run.state.intakeStatus);
    const facts = decisionFacts(o, trigger);
    const enter = run.decide(trigger, { by: o.signal.by, note: decisionNote(o), ...(facts ? { facts } : {}) });
    if (isWorking(enter.to)) {
      run.moveTo(enter);
      return { at: enter.to, sha256, decision: o, enter };
    }
    const next = await writeDecision(run, o, enter, sha256);
    if (next) return next;
  }
};

/** A decision that enters no work step (a rejection, a held approval) is written with its signed decision; undefined: refused or not written, still awaiting a decision. */
async function writeDecision(run: IntakeRun, o: Decision, decided: Transition, sha256: string): Promise<Next | undefined> {
  if (run.shape === 'decision-updates') deprecatePatch(TRANSITION_WRITER_PATCH);
  let written;
  try {
    written = await acts.recordTransition({ ...decided, decision: signedDecision(o, sha256, decided) });
  } catch (err) {
    // Whether the decision was written is what the row says.
    const stuck = (await run.stalled(err, null)).intakeStatus === decided.from;
    answer(run, o.signal.requestId, !stuck, 'step_gave_up');
    return stuck ? undefined : done(run);
  }
  if (written && !written.accepted) {
    answer(run, o.signal.requestId, false, written.reason); // refused and recorded; still awaiting_review
    return undefined;
  }
  run.moveTo(decided);
  answer(run, o.signal.requestId, true);
  return waitAt(run, decided.to, sha256);
}

/**
 * The inputs of the work steps that predate WorkStepInput, as their recorded histories carry them
 * (same fields, same order). A work step not named here gets WorkStepInput.
 */
const RECORDED_INPUTS = {
  verifying: (run: IntakeRun, { upload, enter }: At, outcomes: StepOutcomes) => {
    const { submissionId, stagingKey, sizeBytes, mimeType } = run.input;
    return { submissionId, stagingKey, sizeBytes, mimeType, by: upload!.by, enter: enter!, outcomes, requestId: upload!.requestId };
  },
  promoting: (run: IntakeRun, { sha256, decision, enter }: At, outcomes: StepOutcomes) => {
    const { submissionId, stagingKey, mimeType } = run.input;
    return { submissionId, stagingKey, sha256: sha256!, mimeType, outcomes, decision: signedDecision(decision!, sha256!, enter!) };
  },
} satisfies { [S in WorkingStatus]?: (run: IntakeRun, at: At, outcomes: StepOutcomes) => unknown };

function inputOf(run: IntakeRun, at: At, outcomes: StepOutcomes): unknown {
  if (at.at in RECORDED_INPUTS) return RECORDED_INPUTS[at.at as keyof typeof RECORDED_INPUTS](run, at, outcomes);
  const { submissionId, stagingKey, sizeBytes, mimeType } = run.input;
  return { submissionId, stagingKey, sizeBytes, mimeType, sha256: at.sha256 ?? null, enter: at.enter!, outcomes } satisfies WorkStepInput;
}

/** The compiler's check of WORK: each work step's activity takes its input and answers a WorkStepResult. */
type InputOf<S extends WorkingStatus> = S extends keyof typeof RECORDED_INPUTS ? ReturnType<(typeof RECORDED_INPUTS)[S]> : WorkStepInput;
type Fits = { [S in WorkingStatus]: IntakeActivities[(typeof WORK)[S]['activity']] extends (i: InputOf<S>) => Promise<WorkStepResult> ? true : false }[WorkingStatus];
const _fits: true = true as Fits;

/** The request that led into the work step (an upload or an approval) is answered. */
const answerStep = (run: IntakeRun, at: At, taken: boolean, reason = '') => answer(run, (at.upload ?? at.decision?.signal)?.requestId, taken, reason);

/** Where the run goes once a work step left the submission in `s`: a wait that has the verified bytes, or the end. */
function waitAt(run: IntakeRun, s: IntakeStatus, sha256: string | null | undefined): Promise<Next> | Next {
  return OPEN.includes(s) && !isWorking(s) && sha256 ? { at: s, sha256 } : done(run);
}

/**
 * Every work step, from the table: the state's activity (WORK) is called with the entering
 * transition and the offered outcomes; the run moves to the outcome its result picks and goes on
 * (into the next work step, a wait or the end). A step whose attempts ran out writes what gaveUpOf
 * says, and the run takes on the row. A refusal (a signed decision that did not hold) wrote
 * nothing: the run is back awaiting review, where decisions are made.
 */
const work: Step = async (run, at) => {
  const enter = at.enter!;
  const outcomes = stepOutcomes(enter);
  const step: Work = WORK[at.at as WorkingStatus];
  // A step that arrived with a patch is passed by in a run recorded before it: the older table's
  // outcome is what its row holds (lifecycle.ts WORK).
  if (step.arrivedWith !== 'initial' && !patched(step.arrivedWith)) return follow(run, at, outcomeOf(outcomes, { ok: true }));
  const proxies = runsLocal(run.shape, step) ? localActs : acts;
  const call = proxies[step.activity as keyof typeof proxies] as (i: unknown) => Promise<WorkStepResult>;
  let result: WorkStepResult;
  try {
    result = await call(inputOf(run, at, outcomes));
  } catch (err) {
    const gaveUp = gaveUpOf(enter, outcomes);
    const row = await run.stalled(err, gaveUp);
    // Not taken only where giving up undoes the request (promotion_failed: back to the decision) and the row is back there.
    answerStep(run, at, !(gaveUp.to === enter.from && row.intakeStatus === enter.from), 'step_gave_up');
    return waitAt(run, row.intakeStatus, at.sha256 ?? row.verifiedSha256);
  }
  if ('refused' in result) {
    // Nothing was written (a signed decision that did not hold; an upload-complete with no object):
    // the run is back where the request found it, and waits there.
    const from = enter.from === 'staged' ? 'staged' : (enter.from as DecidingStatus);
    run.backTo(from);
    answerStep(run, at, false, result.reason);
    if (from === 'staged') {
      run.inbox.upload = undefined;
      return { at: 'staged' };
    }
    return { at: from, sha256: at.sha256! };
  }
  return follow(run, at, outcomeOf(outcomes, result));
};

/** The run moves to a work step's outcome and goes on: into the next work step, a wait or the end. */
function follow(run: IntakeRun, at: At, outcome: Transition): Promise<Next> | Next {
  run.moveTo(outcome);
  const sha256 = outcome.facts.sha256 ?? at.sha256;
  if (isWorking(outcome.to)) return { ...at, at: outcome.to, enter: outcome, ...(sha256 ? { sha256 } : {}) };
  answerStep(run, at, true);
  return waitAt(run, outcome.to, sha256);
}

/** The waits, by the state they serve. */
const WAITS: Partial<Record<IntakeStatus, Step>> = { staged, ...Object.fromEntries(DECIDING.map((s) => [s, awaitingReview])) };

/** The step of the state the run is at: its wait, or `work` for every work step. */
export function stepAt(at: IntakeStatus): Step {
  const step = isWorking(at) ? work : WAITS[at];
  if (!step) throw new Error(`no step for ${at}`);
  return step;
}

/** Where a run starts: a new submission is staged; a resumed run starts where the row (or the run before) was. */
export async function firstStep(run: IntakeRun): Promise<Next> {
  const resume = run.input.resume;
  if (resume && isDeciding(resume.intakeStatus) && resume.sha256) {
    const at = resume.intakeStatus;
    Object.assign(run.state, { intakeStatus: at, reviewStatus: reviewIn(at) });
    run.show();
    return { at, sha256: resume.sha256 };
  }
  if (resume?.intakeStatus === 'promoting' && resume.sha256) {
    // The run that held the approval is gone: the approval is undone (recorded) and the decision asked again.
    const row = await record.settleStalledStep({ submissionId: run.submissionId, failed: undoApproval(run, resume.why) });
    run.takeRow(row);
    return isFirstReview(row.intakeStatus) && row.verifiedSha256 ? { at: row.intakeStatus, sha256: row.verifiedSha256 } : done(run);
  }
  if (resume?.intakeStatus === 'verifying') {
    run.inbox.upload = { requestId: `resume:${run.submissionId}`, by: resume.uploadedBy ?? { actorId: run.input.partnerActorId, credentialId: run.input.credentialId } };
  }
  return { at: 'staged' };
}
