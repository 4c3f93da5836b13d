// Every compatibility item the workflows and activities keep for runs started by an earlier build:
// what it is, what must be true of the open runs before it can go, and where it stands. Retiring
// one follows Temporal's patching sample: patched() -> deprecatePatch() once no open run can take
// the old branch -> removal once no open run carries the marker. docs/on-call.md ("Compatibility
// items") gives the query that checks each condition. The replay fixtures (test/fixtures/histories)
// keep one recorded shape per build that may still have open runs.

/** live: both branches may run; deprecated: only the new branch runs (markers still replay); removed: gone from the code. */
export type CompatState = 'live' | 'deprecated' | 'removed';

export interface CompatItem {
  kind: 'patch' | 'activity' | 'workflow type' | 'signal handlers' | 'input field';
  /** The patch id, activity, workflow type or field. */
  id: string;
  what: string;
  /** What must hold of the open runs before the item moves to its next state. */
  retireWhen: string;
  state: CompatState;
}

export const TRANSITION_WRITER_PATCH = 'intake-transition-writer';
export const SIGNAL_DURING_STEP_PATCH = 'intake-signal-during-step';
export const SIGNAL_SHAPE_PATCH = 'intake-signal-shape-check';
export const DECISION_UPDATES_PATCH = 'intake-decision-updates';

export const COMPAT: readonly CompatItem[] = [
  {
    kind: 'patch',
    id: TRANSITION_WRITER_PATCH,
    what: 'a rejection is written by recordTransition with the signed decision',
    retireWhen: 'removal: no open portfolioIntake run started before the build that deprecated it',
    state: 'deprecated',
  },
  {
    kind: 'patch',
    id: SIGNAL_DURING_STEP_PATCH,
    what: 'a signalled decision that arrives while a step runs is kept for the step’s end',
    retireWhen: 'removal: no open portfolioIntake run started before the build that deprecated it (and with the signal handlers below, its only caller)',
    state: 'deprecated',
  },
  {
    kind: 'patch',
    id: SIGNAL_SHAPE_PATCH,
    what: 'a malformed signal is recorded as refused, not offered',
    retireWhen: 'deprecation: no open portfolioIntake run started before the signal-shape-check build (shape signed-decisions and older)',
    state: 'live',
  },
  {
    kind: 'patch',
    id: DECISION_UPDATES_PATCH,
    what: 'decisions and upload-complete as Updates; the staged object looked at first; continue-as-new on a long history',
    retireWhen: 'deprecation: no open portfolioIntake run without its marker (TemporalChangeVersion NOT IN ("intake-decision-updates"))',
    state: 'live',
  },
  {
    kind: 'signal handlers',
    id: 'approve / reject / uploadComplete signal handlers (workflows/intake-legacy-signals.ts)',
    what: 'runs without the decision-updates marker take decisions as signals, as they were recorded',
    retireWhen: 'removal: with the decision-updates patch',
    state: 'live',
  },
  {
    kind: 'input field',
    id: 'IntakeInput.decisionKeys (optional)',
    what: 'absent in the input of runs started before the decision-updates build (their decisions arrive as signals)',
    retireWhen: 'required: with the decision-updates patch',
    state: 'live',
  },
  {
    kind: 'input field',
    id: 'RejectSignal.notes',
    what: 'the notes name of reject signals sent before the lifecycle owner',
    retireWhen: 'removal: no open portfolioIntake run of the initial shape (started before the signed-decisions build)',
    state: 'removed',
  },
  {
    kind: 'activity',
    id: 'recordRejection',
    what: 'wrote a rejection without the transition table (pre-patch branch of intake-transition-writer)',
    retireWhen: 'removal: no open portfolioIntake run of the initial shape (started before the signed-decisions build)',
    state: 'removed',
  },
  {
    kind: 'input field',
    id: 'VerifyInput/PromoteInput enter+outcomes, ExpireInput.transition, PromoteInput.decision',
    what: 'optional in tasks scheduled before the lifecycle owner (initial shape) and before signed decisions (transition-writer shape)',
    retireWhen: 'removal: no open portfolioIntake run started before the signed-decisions build',
    state: 'removed',
  },
  {
    kind: 'workflow type',
    id: 'webhookLane',
    what: 'per-(endpoint, submission) delivery lanes of the first webhook design, with deliverNext and failLaneHead',
    retireWhen: 'removal: no open webhookLane run (`temporal workflow count --query \'WorkflowType="webhookLane" AND ExecutionStatus="Running"\'` is 0)',
    state: 'live',
  },
];
