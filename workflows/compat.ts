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
/** Asked first by every run; new runs carry it (the current shape). */
export const VERIFY_IN_ONE_STEP_PATCH = 'intake-verify-in-one-step';

export const COMPAT: readonly CompatItem[] = [
  {
    kind: 'patch',
    id: VERIFY_IN_ONE_STEP_PATCH,
    what: 'the current shape: upload-complete verifies in one local activity that also looks for the staged object; work steps show in the details line, not the search attributes',
    retireWhen: 'deprecation: no open portfolioIntake run without its marker (TemporalChangeVersion NOT IN ("intake-verify-in-one-step"))',
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
