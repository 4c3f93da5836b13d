// Every compatibility item the workflows and activities keep for runs started by an earlier build:
// what it is, what must be true of the open runs before it can go, and where it stands. Retiring
// one follows Temporal's patching sample: patched() -> deprecatePatch() once no open run can take
// the old branch -> removal once no open run carries the marker. docs/on-call.md ("Compatibility
// items") gives the query that checks each condition. The replay fixtures (test/fixtures/histories)
// keep one recorded shape per build that may still have open runs. Retired in the one-generation
// build (its on-call query at 0): the signal handlers and the runs from before the Updates, the
// signal-shape and signal-during-step patches, and the webhookLane workflow.

/** live: both branches may run; deprecated: only the new branch runs (markers still replay). Removed items leave the list (git keeps them). */
export type CompatState = 'live' | 'deprecated';

export interface CompatItem {
  kind: 'patch' | 'activity' | 'workflow type' | 'signal handlers' | 'input field';
  /** The patch id, activity, workflow type or field. */
  id: string;
  what: string;
  /** What must hold of the open runs before the item moves to its next state. */
  retireWhen: string;
  state: CompatState;
}

/** Asked first by every run; runs of the decision-updates builds carry it (the Updates-era shape). */
export const DECISION_UPDATES_PATCH = 'intake-decision-updates';
/** Asked before a rejection is written, by runs of the decision-updates shape only (deprecated: their markers may be either). */
export const TRANSITION_WRITER_PATCH = 'intake-transition-writer';
/** Asked by every run after the newest shape's patch; runs of the one-generation build carry it (verification in one local activity, the promotion a regular one). */
export const VERIFY_IN_ONE_STEP_PATCH = 'intake-verify-in-one-step';
/** Asked first by every webhookEndpoint run: it continues as new after SIGNALS_PER_HISTORY wake-ups or when the server suggests it. */
export const WEBHOOK_BOUNDED_HISTORY_PATCH = 'webhook-bounded-history';
/** Asked first by every run; new runs carry it (the current shape: the promotion, too, runs inside the workflow task that took the approval). */
export const PROMOTE_IN_ONE_TASK_PATCH = 'intake-promote-in-one-task';

/**
 * The shapes a run may have been recorded with, oldest first, each with the patch its runs carry.
 * A run asks the patches newest first (portfolio-intake.ts shapeOf); a new run records only the
 * newest marker. A run of a shape has what every patch up to its own brought (shapeHas).
 */
export const SHAPES = [
  { shape: 'decision-updates', patch: DECISION_UPDATES_PATCH },
  { shape: 'verify-in-one-step', patch: VERIFY_IN_ONE_STEP_PATCH },
  { shape: 'current', patch: PROMOTE_IN_ONE_TASK_PATCH },
] as const;
export type Shape = (typeof SHAPES)[number]['shape'];
export type ShapePatch = (typeof SHAPES)[number]['patch'];
/** Does a run of `shape` have what `patch` brought (its shape is that patch's, or newer)? */
export const shapeHas = (shape: Shape, patch: ShapePatch): boolean => SHAPES.findIndex((s) => s.shape === shape) >= SHAPES.findIndex((s) => s.patch === patch);

export const COMPAT: readonly CompatItem[] = [
  {
    kind: 'patch',
    id: WEBHOOK_BOUNDED_HISTORY_PATCH,
    what: 'a webhookEndpoint run continues as new after 8 wake-up signals or when the server suggests it (issue 55); a run without the marker replays as it was recorded, continuing as new after 100 deliverer runs only',
    retireWhen: 'deprecation: no open webhookEndpoint run without its marker (WorkflowType="webhookEndpoint" AND ExecutionStatus="Running" AND TemporalChangeVersion NOT IN ("webhook-bounded-history"))',
    state: 'live',
  },
  {
    kind: 'patch',
    id: PROMOTE_IN_ONE_TASK_PATCH,
    what: 'the current shape: the promotion, like verification, is a local activity run inside the workflow task that took the approval (no activity task, no second workflow task); it still shows in the search attributes while it runs',
    retireWhen: 'deprecation: no open portfolioIntake run without its marker (TemporalChangeVersion NOT IN ("intake-promote-in-one-task"))',
    state: 'live',
  },
  {
    kind: 'patch',
    id: VERIFY_IN_ONE_STEP_PATCH,
    what: 'the verify-in-one-step shape (runs of the one-generation build): upload-complete verifies in one local activity that also looks for the staged object and shows in the details line, not the search attributes; the promotion is a regular activity',
    retireWhen: 'removal, with the regular-activity promotion branch: no open portfolioIntake run without the promote-in-one-task marker (TemporalChangeVersion NOT IN ("intake-promote-in-one-task"))',
    state: 'live',
  },
  {
    kind: 'patch',
    id: DECISION_UPDATES_PATCH,
    what: 'the decision-updates shape (runs without the verify-in-one-step marker): the staged object looked at by its own activity, verification a regular activity, work steps in the search attributes, the inputs RECORDED_INPUTS gives',
    retireWhen: 'removal, with that branch: no open portfolioIntake run without the verify-in-one-step marker',
    state: 'live',
  },
  {
    kind: 'patch',
    id: TRANSITION_WRITER_PATCH,
    what: 'a rejection written by recordTransition with the signed decision; the decision-updates build recorded its marker undeprecated, so its runs still ask it (deprecatePatch) where they reject',
    retireWhen: 'removal: with the decision-updates branch',
    state: 'deprecated',
  },
];
