// How a work step persists what the workflow decided: the entering transition first (so the row
// shows the step while it runs), then the outcome its result picks, each in one transaction.
import type { Sql, Tx } from '../lib/db';
import { outcomeOf, type StepOutcomes, type StepResult, type Transition, type TransitionFacts } from '../lib/intake/lifecycle';
import { findSubmission } from '../lib/intake/submissions';
import { applyTransition } from '../lib/intake/transitions';

/** Write `t` (and `alongside`) in one transaction; false when the row had already moved on (a retry). */
export async function persist(sql: Sql, t: Transition, alongside?: (tx: Tx) => Promise<void>): Promise<boolean> {
  if (!alongside) return applyTransition(sql, t); // one statement: atomic on its own
  return sql.begin(async (tx) => {
    await alongside(tx);
    return applyTransition(tx, t);
  });
}

export async function persistOutcome<F extends TransitionFacts>(sql: Sql, offered: StepOutcomes, result: StepResult<F>): Promise<void> {
  await persist(sql, outcomeOf(offered, result));
}

/** The row of a step entered before (a retry): the caller answers what it recorded, if it got that far. */
export async function recordedRow(sql: Sql, submissionId: string, entered: boolean) {
  return entered ? undefined : findSubmission(sql, submissionId);
}
