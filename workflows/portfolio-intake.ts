// One workflow per submission: wait for the upload, verify the bytes, wait for a human decision,
// promote into the private media store. Deterministic code only: all I/O happens in activities.
// The run joins its parts: the messages it takes (intake-inbox.ts), its state (intake-run.ts) and
// the step of each lifecycle state (intake-steps.ts), run until one ends the run.
import { patched, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { SHAPES, type Shape } from './compat';
import { currentDetailsOf } from './intake-details';
import { IntakeRun } from './intake-run';
import { firstStep, stepAt, type Next } from './intake-steps';
import { intakeStateQuery, type IntakeInput, type IntakeState } from './messages';

/**
 * Which shape the run was recorded with, asked once, first, newest first (workflows/compat.ts
 * SHAPES): a new run takes the current one and records only its marker; a run of an earlier build
 * replays as it was recorded; a run from before the Updates is a retired shape no worker of this
 * build can carry on.
 */
function shapeOf(): Shape {
  for (const s of [...SHAPES].reverse()) if (patched(s.patch)) return s.shape;
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
