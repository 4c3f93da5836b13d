// The intake state machine, once: every (from, trigger) -> to the lifecycle knows. The workflow
// builds each Transition from this table and is the only one that does; activities persist the
// transitions the workflow hands them; routes ask `accepts` before they send an Update. The status
// sets the queries filter on (OPEN, PENDING, DECIDED, ...) are derived from the table, so a query
// needs no edit for a new state. Adding a work step (a state whose ways out are all the
// workflow's doing) touches by hand: the vocabulary (its status), this table (its rows, its ok and
// failed outcome marked, and its WORK entry: the activity's name, the details line), the step's
// activity file and its registration (one line in activities/index.ts createActivities);
// `npm run console:types` then regenerates the console's types. The workflow runs it through
// intake-steps.ts `work` with a WorkStepInput, and the compiler checks that its activity takes
// that; partners hear of no work step (lib/intake/outbox.ts). The status column has no CHECK
// constraint and the partial indexes read the flags the writers set (stateFlagsOf), so a new
// status needs no migration (test/unit/status-sets.test.ts holds it so). A run closed mid-step is resumed
// only for the states worker/reconciler.ts's RESUME_FROM names. The human decisions' rows (one per
// kind from each state awaiting a decision, and the held rows of a second review) come from the
// decision table (./decisions.ts), which a new decision is added to; nothing here changes for it. Pure: workflow code imports it.
import type { ImageFacts } from '../media/vocabulary';
import { DECIDING, DECISION_KINDS, DECISION_TABLE, heldOf, HELD_TRIGGERS, isDeciding, type DecidingStatus, type DecisionKind } from './decisions';
import {
  HELD_STATES,
  intakeStatuses,
  SYSTEM_ACTOR,
  type ActorRef,
  type IntakeStatus,
  type RejectReasonCode,
  type ReviewStatus,
  type VerificationFailureCode,
} from './vocabulary';

export const triggers = [
  'create',
  'upload_complete',
  'upload_window_passed',
  'verification_passed',
  'verification_failed',
  ...DECISION_KINDS,
  ...HELD_TRIGGERS,
  'promotion_done',
  'object_changed',
  'promotion_failed',
] as const;
export type Trigger = (typeof triggers)[number];

interface Row {
  from: IntakeStatus | null;
  trigger: Trigger;
  /** client: sent through a route (a partner or an operator); workflow: the workflow's own timer or work. */
  source: 'client' | 'workflow';
  to: IntakeStatus;
  /** The review status after the transition; omitted: unchanged. */
  review?: ReviewStatus;
  /** A work step's outcome: the one its activity's ok result picks, or the failed one (stepOutcomes). */
  outcome?: 'ok' | 'failed';
  /** Ends a step that gave up after its attempts: a way out, not one of the step's outcomes (outcomesOf, acceptsDuringStep skip it). */
  gaveUp?: true;
  /** A held decision's row: the decision kind it holds (its route's outcomes include this row's target). */
  of?: DecisionKind;
}

/** A human decision's row: sent by an operator through its route, from a state awaiting a decision to where its spec says. */
function decisionRow(trigger: DecisionKind, from: DecidingStatus) {
  const { to, review } = DECISION_TABLE[trigger].transition;
  return { from, trigger, source: 'client', to, review } as const;
}

/** A held decision's row (the first of two operators): from where partners still see it (HELD_STATES shownAs) to where it waits for the second. */
function heldRows() {
  return DECISION_KINDS.flatMap((kind) => {
    const held = heldOf(kind);
    return held ? [{ from: HELD_STATES[held.to].shownAs, trigger: held.trigger, source: 'client', to: held.to, review: HELD_STATES[held.to].review, of: kind } as const] : [];
  });
}

const ROWS = [
  { from: null, trigger: 'create', source: 'client', to: 'staged', review: 'review_required' },
  { from: 'staged', trigger: 'upload_complete', source: 'client', to: 'verifying' },
  { from: 'staged', trigger: 'upload_window_passed', source: 'workflow', to: 'expired', review: 'not_reviewed' },
  { from: 'verifying', trigger: 'verification_passed', source: 'workflow', to: 'awaiting_review', outcome: 'ok' },
  { from: 'verifying', trigger: 'verification_failed', source: 'workflow', to: 'verification_failed', review: 'not_reviewed', outcome: 'failed' },
  ...DECIDING.flatMap((from) => DECISION_KINDS.map((kind) => decisionRow(kind, from))),
  ...heldRows(),
  { from: 'promoting', trigger: 'promotion_done', source: 'workflow', to: 'promoted_to_media_store', outcome: 'ok' },
  // The approval stands; the bytes it applied to are gone.
  { from: 'promoting', trigger: 'object_changed', source: 'workflow', to: 'verification_failed', outcome: 'failed' },
  // The promotion's attempts ran out (storage or database away for minutes): the approval is
  // undone and the submission waits for a decision again, with the same verified bytes.
  { from: 'promoting', trigger: 'promotion_failed', source: 'workflow', to: 'awaiting_review', review: 'review_required', gaveUp: true },
] as const satisfies readonly Row[];

export const TRANSITIONS: readonly Row[] = ROWS;

type TableRow = (typeof ROWS)[number];
/** Work steps, to the compiler: states left by rows and by no client's row (WORKING below, as a type). */
export type WorkingStatus = Exclude<Exclude<TableRow['from'], null>, Extract<TableRow, { source: 'client' }>['from']>;

/**
 * Each work step's work, total over the work steps: the activity that does it (its name in
 * activities/index.ts createActivities, which the workflow calls with the entering transition and
 * the outcomes), what the Web UI's details line says while it runs, the note of the step's gave-up
 * row where it has one, and the patch it arrived with. Partners hear of no work step
 * (lib/intake/outbox.ts).
 *
 * Replay safety is declared here, not remembered: a run that waits (days, in review) replays its
 * history through the current table when its next task comes (AUTO_UPGRADE workers). A step added
 * later names the patch it arrived with (`arrivedWith`, a new id in workflows/compat.ts);
 * intake-steps.ts asks `patched()` before it enters the step, and a run recorded before the patch
 * passes the step by (its row already went where the older table sent it). Only the steps every
 * recorded history has say `initial`; test/unit/work-steps.test.ts fails for any other.
 */
export const WORK = {
  verifying: { activity: 'verifyStagedMedia', doing: 'verifying the uploaded bytes', arrivedWith: 'initial', local: { since: 'intake-verify-in-one-step' } },
  promoting: {
    activity: 'promoteToMediaStore',
    doing: 'approved; promoting into the private media store',
    gaveUpNote: 'promotion gave up after its attempts',
    arrivedWith: 'initial',
    // Shown: with storage away it retries for minutes, and on-call looks for it by IntakeStatus.
    local: { since: 'intake-promote-in-one-task', shown: true },
  },
} as const satisfies Record<WorkingStatus, Work>;
export interface Work {
  activity: string;
  doing: string;
  gaveUpNote?: string;
  /** `initial`: a step of every recorded shape; else the patch id (workflows/compat.ts) the step arrived with. */
  arrivedWith: 'initial' | `intake-${string}`;
  /**
   * Run as a local activity (workflows/intake-activities.ts localActs) by runs of the shape whose
   * patch (workflows/compat.ts SHAPES) brought it, and of every newer one: a short step that must
   * not cost a round trip through the server. Shown in the details line; in the search attributes
   * too only when it says `shown` (its upsert is one more history event).
   */
  local?: { since: 'intake-verify-in-one-step' | 'intake-promote-in-one-task'; shown?: true };
}

/** Work steps: states whose every way out is the workflow's own doing (verifying, promoting). */
const WORKING: ReadonlySet<IntakeStatus> = new Set(
  TRANSITIONS.map((t) => t.to).filter((s) => {
    const out = TRANSITIONS.filter((t) => t.from === s);
    return out.length > 0 && out.every((t) => t.source === 'workflow');
  }),
);

const where = (keep: (s: IntakeStatus) => boolean): readonly IntakeStatus[] => intakeStatuses.filter(keep);

/** Statuses a submission can still leave: its workflow run should be running. */
export const OPEN = where((s) => TRANSITIONS.some((t) => t.from === s));

/** Open statuses past the upload: work still on its way in (verified, awaiting a decision or being promoted). */
export const PENDING = where((s) => OPEN.includes(s) && !TRANSITIONS.some((t) => t.from === s && t.trigger === 'upload_complete'));

/** The review statuses a submission in each status can carry, over every way into it. */
const reviewsIn = (() => {
  const seen = new Map<IntakeStatus, Set<ReviewStatus>>(intakeStatuses.map((s) => [s, new Set()]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of TRANSITIONS) {
      const before = t.review ? [t.review] : t.from ? [...seen.get(t.from)!] : [];
      const into = seen.get(t.to)!;
      for (const r of before.filter((r) => !into.has(r))) {
        into.add(r);
        grew = true;
      }
    }
  }
  return seen;
})();
/** The review status a submission in `s` carries (every way into it gives the same one: staged, awaiting_review review_required; awaiting_second_review second_review_required). */
export function reviewIn(s: IntakeStatus): ReviewStatus {
  const all = [...reviewsIn.get(s)!];
  if (all.length !== 1) throw new Error(`${s} carries ${all.length === 0 ? 'no' : 'more than one'} review status`);
  return all[0]!;
}
const human = (r: ReviewStatus | undefined) => r === 'approved' || r === 'rejected';

/** Statuses an operator's decision (approve or reject) moves a submission to: the decision events. */
export const DECISIONS = where((s) => TRANSITIONS.some((t) => t.to === s && t.source === 'client' && human(t.review)));

/** Statuses every way into which carries an operator's decision: a submission there has been decided. */
export const DECIDED = where((s) => reviewsIn.get(s)!.size > 0 && [...reviewsIn.get(s)!].every(human));

/** Open statuses not yet decided: what an organization's quota of open submissions counts. */
export const UNDECIDED = where((s) => OPEN.includes(s) && !DECIDED.includes(s));

/**
 * The flags the row carries beside its status (migrations/1700000036000_state-flags.sql): the
 * partial indexes and the queries over the open, undecided and deciding sets read them, so the
 * database lists no status. Every writer of intake_status sets them from here.
 */
export interface StateFlags {
  isOpen: boolean;
  isUndecided: boolean;
  isDeciding: boolean;
}
export function stateFlagsOf(s: IntakeStatus): StateFlags {
  return { isOpen: OPEN.includes(s), isUndecided: UNDECIDED.includes(s), isDeciding: isDeciding(s) };
}

/** What the row records beside the status; set once, never cleared. */
export interface TransitionFacts {
  sha256?: string;
  failureCode?: VerificationFailureCode;
  rejectReasonCode?: RejectReasonCode;
  mediaStoreDocumentId?: string;
  image?: ImageFacts;
  /** Why a held decision waits for a second operator (lib/intake/second-review.ts). */
  secondReviewReasons?: string[];
}

/** One decided transition: what the workflow moves to, and what every writer persists. */
export interface Transition {
  submissionId: string;
  trigger: Trigger;
  from: IntakeStatus | null;
  to: IntakeStatus;
  reviewStatus: ReviewStatus;
  by: ActorRef;
  note: string | null;
  facts: TransitionFacts;
}

function rowOf(from: IntakeStatus | null, trigger: Trigger): Row | undefined {
  return TRANSITIONS.find((t) => t.from === from && t.trigger === trigger);
}

/** Does a submission in `status` accept `trigger`? */
export function accepts(status: IntakeStatus, trigger: Trigger): boolean {
  return rowOf(status, trigger) !== undefined;
}

/**
 * Does the workflow record `trigger` now? Yes where the table accepts it, and also during a work
 * step one of whose outcomes accepts it: the step's activity commits its outcome before the
 * workflow has processed the result, so a client that saw the row move on (awaiting_review) may
 * signal while the workflow still holds `verifying`. Such a signal is kept, and acted on only if
 * the step does end where the trigger is accepted.
 */
export function acceptsDuringStep(status: IntakeStatus, trigger: Trigger): boolean {
  return isWorking(status) && TRANSITIONS.some((t) => t.from === status && !t.gaveUp && accepts(t.to, trigger));
}

/** The upload URL takes bytes exactly while an upload can still be completed. */
export function acceptsUpload(status: IntakeStatus): boolean {
  return accepts(status, 'upload_complete');
}

export function isFinal(status: IntakeStatus): boolean {
  return !TRANSITIONS.some((t) => t.from === status);
}

export function isWorking(status: IntakeStatus): status is WorkingStatus {
  return WORKING.has(status);
}

/**
 * Where `trigger` can leave a submission once the workflow's own work is done: its target, or,
 * when that is a work step, that step's outcomes (approve -> promoting -> promoted | failed).
 */
export function outcomesOf(trigger: Trigger): IntakeStatus[] {
  const out = new Set<IntakeStatus>();
  const walk = (s: IntakeStatus, seen: Set<IntakeStatus>) => {
    if (!isWorking(s)) return void out.add(s);
    if (seen.has(s)) return;
    seen.add(s);
    for (const t of TRANSITIONS) if (t.from === s && !t.gaveUp) walk(t.to, seen);
  };
  for (const t of TRANSITIONS) if (t.trigger === trigger || t.of === trigger) walk(t.to, new Set());
  return [...out];
}

/** After sending `trigger` in `before`, has the submission settled: moved off that state, and not working? */
export function settledAfter(trigger: Trigger, status: IntakeStatus, before: IntakeStatus): boolean {
  return status !== before && accepts(before, trigger) && !isWorking(status);
}

export class InvalidTransitionError extends Error {
  constructor(
    readonly from: IntakeStatus | null,
    readonly trigger: Trigger,
  ) {
    super(`no transition from ${from ?? '(new)'} on ${trigger}`);
    this.name = 'InvalidTransitionError';
  }
}

/** The transition `trigger` causes from `current`; throws when the table has none. */
export function transitionOf(
  current: { intakeStatus: IntakeStatus | null; reviewStatus: ReviewStatus },
  trigger: Trigger,
  o: { submissionId: string; by?: ActorRef; note?: string | null; facts?: TransitionFacts },
): Transition {
  const row = rowOf(current.intakeStatus, trigger);
  if (!row) throw new InvalidTransitionError(current.intakeStatus, trigger);
  return {
    submissionId: o.submissionId,
    trigger,
    from: row.from,
    to: row.to,
    reviewStatus: row.review ?? current.reviewStatus,
    by: o.by ?? SYSTEM_ACTOR,
    note: o.note ?? null,
    facts: o.facts ?? {},
  };
}

/** The two transitions a work step can end in; the workflow offers them, the step's result picks one. */
export interface StepOutcomes {
  ok: Transition;
  failed: Transition;
}

export type StepResult<F extends TransitionFacts> = ({ ok: true } & F) | { ok: false; code: VerificationFailureCode };

/** The offered outcome a step's result picks, with what the step found. Same answer in the activity and the workflow. */
export function outcomeOf<F extends TransitionFacts>(offered: StepOutcomes, result: StepResult<F>): Transition {
  if (!result.ok) return { ...offered.failed, note: result.code, facts: { ...offered.failed.facts, failureCode: result.code } };
  const { ok: _ok, ...facts } = result;
  return { ...offered.ok, facts: { ...offered.ok.facts, ...(facts as TransitionFacts) } };
}

/** The trigger of the work step `s`'s `outcome` row. */
function outcomeTrigger(s: IntakeStatus, outcome: 'ok' | 'failed'): Trigger {
  const row = TRANSITIONS.find((t) => t.from === s && t.outcome === outcome);
  if (!row) throw new Error(`the work step ${s} has no ${outcome} outcome in the transition table`);
  return row.trigger;
}

/** The outcomes a work step entered by `enter` can end in: its table rows marked ok and failed, unless named. */
export function stepOutcomes(enter: Transition, ok = outcomeTrigger(enter.to, 'ok'), failed = outcomeTrigger(enter.to, 'failed')): StepOutcomes {
  const at = { intakeStatus: enter.to, reviewStatus: enter.reviewStatus };
  const o = { submissionId: enter.submissionId, by: enter.by };
  return { ok: transitionOf(at, ok, o), failed: transitionOf(at, failed, o) };
}

/**
 * What a work step entered by `enter` writes when its attempts ran out: its gave-up row (with its
 * WORK note) where the table has one, else its failed outcome as `verification_error` (nothing is
 * known to be wrong; the step could not run to an answer).
 */
export function gaveUpOf(enter: Transition, outcomes: StepOutcomes): Transition {
  const row = TRANSITIONS.find((t) => t.from === enter.to && t.gaveUp);
  if (!row || !isWorking(enter.to)) return outcomeOf(outcomes, { ok: false, code: 'verification_error' });
  const work: Work = WORK[enter.to];
  return transitionOf({ intakeStatus: enter.to, reviewStatus: enter.reviewStatus }, row.trigger, { submissionId: enter.submissionId, note: work.gaveUpNote ?? null });
}
