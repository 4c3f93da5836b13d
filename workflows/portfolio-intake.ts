// One workflow per submission: wait for the upload, verify the bytes, wait for a human decision,
// promote into the private media store. Deterministic code only: all I/O happens in activities.
// The run joins its parts: the messages it takes (intake-inbox.ts), its state (intake-run.ts) and
// the step of each lifecycle state (intake-steps.ts), run until one ends the run.
import { patched, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { DECISION_UPDATES_PATCH, VERIFY_IN_ONE_STEP_PATCH } from './compat';
import { currentDetailsOf } from './intake-details';
import { IntakeRun, type Shape } from './intake-run';
import { firstStep, stepAt, type Next } from './intake-steps';
import { intakeStateQuery, type IntakeInput, type IntakeState } from './messages';

/**
 * Which shape the run was recorded with, asked once, first (workflows/compat.ts): a new run takes
 * the current one; a run of the decision-updates builds replays as it was recorded; a run from
 * before the Updates is a retired shape no worker of this build can carry on.
 */
function shapeOf(): Shape {
  if (patched(VERIFY_IN_ONE_STEP_PATCH)) return 'current';
  if (patched(DECISION_UPDATES_PATCH)) return 'decision-updates';
  throw new Error('a run from before the decision Updates: a retired shape (workflows/compat.ts); docs/on-call.md "Compatibility items" gives the query that should have found it');
}

export async function portfolioIntake(input: IntakeInput): Promise<IntakeState> {
  const run = new IntakeRun(input, shapeOf());
  setHandler(intakeStateQuery, () => run.state);
  setCurrentDetails(currentDetailsOf(run.state, new Date(Date.now()), run.uploadDeadline));
  run.inbox.install();
  let next: Next = await firstStep(run);
  while (!('done' in next)) next = await stepAt(next.at)(run, next);
  return next.done;
}
