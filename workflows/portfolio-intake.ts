// One workflow per submission: wait for the upload, verify the bytes, wait for a human decision,
// promote into the private media store. Deterministic code only: all I/O happens in activities.
// The run joins its parts: the messages it takes (intake-inbox.ts), its state (intake-run.ts) and
// the step of each lifecycle state (intake-steps.ts), run until one ends the run.
import { patched, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { DECISION_UPDATES_PATCH } from './compat';
import { currentDetailsOf } from './intake-details';
import { IntakeRun } from './intake-run';
import { firstStep, stepAt, type Next } from './intake-steps';
import { intakeStateQuery, type IntakeInput, type IntakeState } from './messages';

export async function portfolioIntake(input: IntakeInput): Promise<IntakeState> {
  // Asked once, first: a run recorded without the marker keeps its signal handlers (workflows/compat.ts).
  const run = new IntakeRun(input, patched(DECISION_UPDATES_PATCH));
  setHandler(intakeStateQuery, () => run.state);
  setCurrentDetails(currentDetailsOf(run.state, new Date(Date.now()), run.uploadDeadline));
  run.inbox.install();
  let next: Next = await firstStep(run);
  while (!('done' in next)) next = await stepAt(next.at)(run, next);
  return next.done;
}
