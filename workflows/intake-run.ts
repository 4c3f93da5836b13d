// One intake run's state and what every step does with it: move along a transition (shown in the
// search attributes and the Web UI's details line), take on the row after a step gave up,
// continue as new when the history grew long, end. Deterministic code only.
import { ActivityFailure, allHandlersFinished, condition, continueAsNew, log, setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { RowState } from '../activities/types';
import { isWorking, reviewIn, transitionOf, WORK, type Transition, type Work, type TransitionFacts, type Trigger } from '../lib/intake/lifecycle';
import { isDeciding, type DecidingStatus } from '../lib/intake/decisions';
import { isFirstReview, type ActorRef, type IntakeStatus } from '../lib/intake/vocabulary';
import { shapeHas, type Shape } from './compat';
import { record } from './intake-activities';
import { currentDetailsOf } from './intake-details';
import { Inbox } from './intake-inbox';
import { MAX_HISTORY_BYTES, MAX_HISTORY_EVENTS } from '../lib/intake/history-bounds';
import { AwaitingSinceKey, IntakeStatusKey, ReviewStatusKey, type IntakeInput, type IntakeResume, type IntakeState } from './messages';

/** Does a run of `shape` run the work step as a local activity (lifecycle.ts WORK local: from the shape whose patch brought it)? */
export const runsLocal = (shape: Shape, work: Work): boolean => work.local !== undefined && shapeHas(shape, work.local.since);

export class IntakeRun {
  readonly state: IntakeState;
  readonly inbox: Inbox;
  readonly uploadDeadline: Date;

  constructor(
    readonly input: IntakeInput,
    readonly shape: Shape,
  ) {
    // A run that takes over awaiting a decision is there from its first activation: an Update that
    // came with that activation is validated before the main body runs (the handlers are installed
    // first), and would otherwise meet `staged` and be refused.
    const waiting = input.resume && isDeciding(input.resume.intakeStatus) && input.resume.sha256 ? input.resume.intakeStatus : undefined;
    this.state = {
      submissionId: input.submissionId,
      artistCanonicalId: input.artistCanonicalId,
      intakeStatus: waiting ?? 'staged',
      reviewStatus: waiting ? reviewIn(waiting) : 'review_required',
      mediaStoreDocumentId: null,
      failureCode: null,
      rejectReasonCode: null,
    };
    this.inbox = new Inbox({
      submissionId: input.submissionId,
      partnerActorId: input.partnerActorId,
      decisionKeys: input.decisionKeys,
      status: () => this.state.intakeStatus,
    });
    this.uploadDeadline = input.resume ? new Date(input.resume.uploadDeadline) : new Date(Date.now() + input.uploadDeadlineSeconds * 1000);
  }

  get submissionId(): string {
    return this.input.submissionId;
  }

  decide(trigger: Trigger, o: { by: ActorRef; note?: string | null; facts?: TransitionFacts }): Transition {
    return transitionOf(this.state, trigger, { submissionId: this.submissionId, ...o });
  }

  private details() {
    setCurrentDetails(currentDetailsOf(this.state, new Date(Date.now()), this.uploadDeadline));
  }

  /**
   * Is `s` shown in the search attributes? Where a run waits, how it ended, and a work step that
   * is a regular activity or says `shown` (it may retry for minutes: on-call looks for it). Another
   * local work step runs inside one workflow task, so its upsert would be replaced before anyone saw
   * it: it shows in the details line only (an upsert is a history event).
   */
  private shown(s: IntakeStatus): boolean {
    if (!isWorking(s)) return true;
    const work: Work = WORK[s];
    return !runsLocal(this.shape, work) || work.local?.shown === true;
  }

  show() {
    const s = this.state;
    if (!this.shown(s.intakeStatus)) return this.details();
    upsertSearchAttributes([
      { key: IntakeStatusKey, value: s.intakeStatus },
      { key: ReviewStatusKey, value: s.reviewStatus },
      ...(isFirstReview(s.intakeStatus) ? [{ key: AwaitingSinceKey, value: new Date(Date.now()) }] : []),
    ]);
    this.details();
  }

  moveTo(t: Transition) {
    const s = this.state;
    s.intakeStatus = t.to;
    s.reviewStatus = t.reviewStatus;
    s.failureCode = t.facts.failureCode ?? s.failureCode;
    s.rejectReasonCode = t.facts.rejectReasonCode ?? s.rejectReasonCode;
    s.mediaStoreDocumentId = t.facts.mediaStoreDocumentId ?? s.mediaStoreDocumentId;
    this.show();
  }

  /**
   * Back where a refused step was entered from, with no new AwaitingSince: the row never left it
   * (a refused approval: awaiting_review or awaiting_second_review; an upload-complete with no
   * object: staged), with the review status that state carries.
   */
  backTo(from: 'staged' | DecidingStatus) {
    const left = this.state.intakeStatus;
    Object.assign(this.state, { intakeStatus: from, reviewStatus: reviewIn(from) });
    if (!this.shown(left)) return this.details(); // the search attributes never showed the step it left
    upsertSearchAttributes([
      { key: IntakeStatusKey, value: this.state.intakeStatus },
      { key: ReviewStatusKey, value: this.state.reviewStatus },
    ]);
    this.details();
  }

  /** Take on what the row records (the row is the truth partners and operators read). */
  takeRow(row: RowState) {
    const { intakeStatus, reviewStatus, failureCode, rejectReasonCode, mediaStoreDocumentId } = row;
    Object.assign(this.state, { intakeStatus, reviewStatus, failureCode, rejectReasonCode, mediaStoreDocumentId });
    this.show();
  }

  /**
   * A step whose attempts ran out: its failure outcome is written when the row is still where the
   * step left it, and the run takes on whatever the row then records, so the two agree again.
   */
  async stalled(err: unknown, failed: Transition | null): Promise<RowState> {
    if (!(err instanceof ActivityFailure)) throw err;
    log.warn('intake step gave up after its attempts', { submissionId: this.submissionId, step: err.activityType, cause: err.cause?.message });
    const row = await record.settleStalledStep({ submissionId: this.submissionId, failed });
    this.takeRow(row);
    return row;
  }

  /** The run ends: what still waits is answered, in-flight handlers finish first. */
  async end(): Promise<IntakeState> {
    this.inbox.answerWaiting(this.state.intakeStatus);
    await condition(allHandlersFinished);
    return this.state;
  }

  /** Has this run's history grown long enough that it should continue as new? */
  historyLong(): boolean {
    const i = workflowInfo();
    return i.continueAsNewSuggested || i.historyLength > MAX_HISTORY_EVENTS || i.historySize > MAX_HISTORY_BYTES;
  }

  /**
   * A long history continues as new from where it waits, when nothing is waiting to be answered.
   * Undefined only when a request waits for the caller's loop (which then takes it): an upload
   * already answered is not waiting (taking it for one made the wait spin without end once the
   * history was long: issue 55).
   */
  async continued(at: IntakeResume['intakeStatus'], sha256: string | null): Promise<IntakeState | undefined> {
    if (!this.historyLong()) return undefined;
    const inbox = this.inbox;
    await condition(() => allHandlersFinished() || inbox.waiting());
    if (inbox.waiting()) return undefined;
    return continueAsNew<(i: IntakeInput) => Promise<IntakeState>>({
      ...this.input,
      resume: { intakeStatus: at, sha256, uploadDeadline: this.uploadDeadline.toISOString(), why: 'continued: the history grew long' },
    });
  }
}
