// How a work step persists what the workflow decided: the entering transition first (so the row
// shows the step while it runs), then the outcome its result picks, each in one transaction.
import type { Sql, Tx } from '../lib/db';
import { fromOf, outcomeOf, stepOutcomes, transitionOf, type StepOutcomes, type StepResult, type Transition, type Trigger } from '../lib/intake/lifecycle';
import { findSubmission } from '../lib/intake/submissions';
import { applyTransition } from '../lib/intake/transitions';
import type { TransitionFacts } from '../lib/intake/lifecycle';
import type { ActorRef, ReviewStatus } from '../lib/intake/vocabulary';

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

/**
 * The transitions of a step for an activity task scheduled by a workflow run that predates the
 * lifecycle owner (its input has none): built from the same table, from the state the trigger leaves.
 */
export function legacyStep(
  i: { submissionId: string; by: ActorRef; enter?: Transition | undefined; outcomes?: StepOutcomes | undefined },
  enter: { trigger: Exclude<Trigger, 'create'>; reviewStatus: ReviewStatus; note?: string | null },
  ok: Trigger,
  failed: Trigger,
): { enter: Transition; outcomes: StepOutcomes } {
  if (i.enter && i.outcomes) return { enter: i.enter, outcomes: i.outcomes };
  const t = transitionOf({ intakeStatus: fromOf(enter.trigger), reviewStatus: enter.reviewStatus }, enter.trigger, {
    submissionId: i.submissionId,
    by: i.by,
    note: enter.note ?? null,
  });
  return { enter: t, outcomes: stepOutcomes(t, ok, failed) };
}
