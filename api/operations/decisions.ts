// The decision and upload-complete operations (one module for what the API's routes and the
// console both do): ask the transition table whether the submission's state accepts the trigger,
// send it as a workflow Update, wait (bounded) for the Update's result, and answer from the row
// the workflow wrote. No polling.
import type { Request } from 'express';
import { reply } from '../routing/route';
import { status as grpcStatus } from '@grpc/grpc-js';
import crypto from 'node:crypto';
import { accepts, outcomesOf, settledAfter } from '../../lib/intake/lifecycle';
import { findSubmission, type SubmissionRow } from '../../lib/intake/submissions';
import type { ActorRef, IntakeStatus } from '../../lib/intake/vocabulary';
import type { Actor } from '../auth/middleware';
import { claimedByOther, releaseClaim } from '../../lib/console/sessions';
import { detailsHash } from '../../lib/intake/decision-proof';
import { byKind, DECISION_TABLE, decisionDetails, type Decision, type DecisionFields, type DecisionKind } from '../../lib/intake/decisions';
import { WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { BUSY_REFUSALS, decisionUpdates, REFUSAL_SEPARATOR, type IntakeAnswer } from '../../workflows/messages';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { statusView } from '../../lib/intake/status-view';
import { byActor } from '../auth/middleware';
import { intakeHandle, requireWorker, temporalCall } from '../temporal/workflow-calls';

/** What a route answers (409) when the submission's state does not take its trigger: a decision's from its kind's spec. */
export const REFUSED: Record<'upload_complete' | DecisionKind, (s: IntakeStatus) => string> = {
  upload_complete: (s) => `Upload already completed (status ${s}).`,
  ...byKind((kind) => DECISION_TABLE[kind].refused),
};

export const requestIdOf = (req: Request) => String(req.id ?? crypto.randomUUID());

/**
 * The proof that this API verified the operator making this decision (lib/intake/decision-proof.ts):
 * the worker acts on a decision only with it, so a signal sent around the API changes nothing.
 */
async function proofOf(deps: AppDeps, row: SubmissionRow, d: Decision) {
  const { requestId, by }: { requestId: string; by: ActorRef } = d.signal;
  if (!row.verifiedSha256) throw new AppError('invalid_transition', REFUSED[d.kind](row.intakeStatus));
  return deps.decisionSigner.sign({
    submissionId: row.submissionId,
    decision: d.kind,
    actorId: by.actorId,
    credentialId: by.credentialId,
    sha256: row.verifiedSha256,
    requestId,
    // The details the kind's proof covers (lib/intake/decisions.ts), as the deciding activity hashes them.
    detailsHash: detailsHash(decisionDetails(d)),
  });
}

/**
 * What a signal route's answer says happened: `settled` (200: the state the trigger leads to),
 * `accepted` (202: the signal reached the workflow, which is still working), `pending` (202: the
 * signal may have reached the workflow, but a dependency was lost before the route could see the
 * outcome: read the status). A 503 always means the request was not applied.
 */
export type SignalOutcome = 'settled' | 'accepted' | 'pending';

/** A Temporal error after which the signal may have been delivered (the call went out, no answer came). */
export function deliveryUnknown(err: unknown): boolean {
  const e = err as { code?: number; cause?: { code?: number } };
  const code = e.code ?? e.cause?.code;
  return code === grpcStatus.DEADLINE_EXCEEDED || code === grpcStatus.CANCELLED;
}

/** The operator who approved first approving again (409 second_operator_required): at the route, or refused by the deciding activity (`same_operator`). */
export const sameOperator = (at?: Date) =>
  new AppError(
    'second_operator_required',
    `You approved this submission first${at ? ` (${at.toISOString()})` : ''}; the second-review policy needs a different operator's approval. Either of you may reject it.`,
  );

/** A validator's refusal as the route answers it. */
function refusalProblem(deps: AppDeps, trigger: keyof typeof REFUSED, message: string, status: IntakeStatus): AppError {
  const cut = message.indexOf(REFUSAL_SEPARATOR);
  const reason = cut > 0 ? message.slice(0, cut) : message;
  if ((BUSY_REFUSALS as readonly string[]).includes(reason))
    return new AppError('workflow_busy', 'The submission has more decisions waiting than it takes at once; nothing was changed. Retry shortly.', { headers: { 'Retry-After': '5' } });
  if (reason === 'invalid_transition' || reason === 'duplicate_request') return new AppError('invalid_transition', REFUSED[trigger](status));
  deps.log.warn({ trigger, reason }, 'the workflow refused a request the API made');
  return new AppError('decision_refused', `The workflow refused this request (${reason}); nothing was changed.`);
}

/** The run closed (continued as new, or ended) before it took the Update: the next run may take it. */
function runClosing(err: unknown): boolean {
  const e = err as { code?: number; message?: string; cause?: { code?: number; details?: string } };
  return (e.code ?? e.cause?.code) === grpcStatus.ABORTED || /update was aborted/.test(`${e.message ?? ''} ${e.cause?.details ?? ''}`);
}

/**
 * Start the Update and wait until the run has taken it (or its validator refused it); once more if
 * the run was closing. The run takes an upload-complete in the workflow task that verifies the
 * bytes (a local activity): taking it is the verification's time, so the call may wait as long as
 * the route waits for an outcome (TRANSITION_WAIT_MS) beside the RPC's own deadline.
 */
async function startUpdate<P>(deps: AppDeps, submissionId: string, update: UpdateDefinition<IntakeAnswer, [P]>, args: P & { requestId: string }) {
  const deadlineMs = deps.cfg.TEMPORAL_RPC_DEADLINE_MS + deps.cfg.TRANSITION_WAIT_MS;
  const start = () =>
    temporalCall(deps, 'update', () => intakeHandle(deps, submissionId).startUpdate(update, { args: [args], updateId: args.requestId, waitForStage: WorkflowUpdateStage.ACCEPTED }), deadlineMs);
  try {
    return await start();
  } catch (err) {
    if (!runClosing(err)) throw err;
    return start();
  }
}

/** An open submission whose run is gone: the reconciler starts a new one from the row. */
const resuming = (deps: AppDeps) =>
  new AppError('workflow_resuming', 'The submission\u2019s workflow run is gone; a new run is being started from its recorded state. Nothing was changed: retry after Retry-After.', {
    headers: { 'Retry-After': String(Math.max(5, deps.cfg.RECONCILE_SECONDS)) },
  });

/**
 * The run closed before it took this request. The row says why: it moved on (a racing request
 * decided it: 409 invalid_transition, as docs/operators.md promises the loser of a race), or it is
 * still where the request found it and the run is gone (503 workflow_resuming: the reconciler starts
 * a new one from the row).
 */
async function lostRace(deps: AppDeps, submissionId: string, trigger: keyof typeof REFUSED, before: SubmissionRow): Promise<{ view: ReturnType<typeof statusView>; outcome: SignalOutcome }> {
  const now = await findSubmission(deps.sql, submissionId);
  if (!now) throw new AppError('not_found', 'No such submission.');
  if (accepts(now.intakeStatus, trigger) && now.intakeStatus === before.intakeStatus) throw resuming(deps);
  throw new AppError('invalid_transition', `The submission was decided otherwise (status ${now.intakeStatus}).`);
}

/**
 * Send `trigger` to the submission's workflow as an Update if its state accepts it, and answer
 * what became of it. The Update's validator refuses before anything is written to history (409,
 * or 503 when the workflow has too many decisions waiting); an accepted Update is answered with its
 * result: taken (200 with the settled state), refused by the activity that checks it (409), or
 * still working after TRANSITION_WAIT_MS (202 `accepted`: it is in the run's history and will be
 * acted on). Everything that can fail before the Update leaves fails with its own 503 (not
 * applied); once it may have left, a lost dependency answers 202 `pending` with the last state known.
 */
export async function updateAndSettle<P>(
  deps: AppDeps,
  submissionId: string,
  find: () => Promise<SubmissionRow | undefined>,
  trigger: keyof typeof REFUSED,
  update: UpdateDefinition<IntakeAnswer, [P]>,
  payload: (row: SubmissionRow) => Promise<P & { requestId: string }>,
): Promise<{ view: ReturnType<typeof statusView>; outcome: SignalOutcome }> {
  // The row is the transitions the workflow wrote: what the client has seen. Without a worker
  // to act on the Update, 503 now rather than a wait. Both asked at once.
  const [found, worker] = await Promise.allSettled([find(), requireWorker(deps)]);
  if (found.status === 'rejected') throw found.reason;
  const before = found.value;
  if (!before) throw new AppError('not_found', 'No such submission.');
  if (worker.status === 'rejected') throw worker.reason;
  if (!accepts(before.intakeStatus, trigger)) throw new AppError('invalid_transition', REFUSED[trigger](before.intakeStatus));
  const args = await payload(before);
  let answer: IntakeAnswer | undefined;
  let accepted;
  try {
    accepted = await startUpdate(deps, submissionId, update, args);
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw refusalProblem(deps, trigger, (err.cause as Error | undefined)?.message ?? err.message, before.intakeStatus);
    // The run closed under the Update (it was open when the row was read): another request decided
    // it meanwhile (409), or it is gone with the row still open (503 workflow_resuming).
    if ((err instanceof AppError && err.code === 'not_found') || runClosing(err)) return lostRace(deps, submissionId, trigger, before);
    if (deliveryUnknown(err) || deliveryUnknown((err as { cause?: unknown }).cause)) deps.log.warn({ submissionId, trigger }, 'update outcome unknown: the Temporal call timed out after it was sent');
    // Refused before it left (the workflow service unreachable: 503, nothing applied).
    else if (err instanceof AppError) throw err;
    // Any other failure of the Update once sent (the run's workflow task failing, a server error):
    // not known whether it was taken. Never a 500: the row as it is now, `pending`.
    else deps.log.warn({ submissionId, trigger, err: (err as Error).message }, 'update failed after it was sent; its outcome is the row\u2019s to say');
    // Not known whether this request was applied; the state shown is the row's as it is now (a
    // work step run inside the task that took the request, such as a slow promotion, has already
    // moved it), or as it was when the request came if the database cannot say.
    const now = await findSubmission(deps.sql, submissionId).catch(() => undefined);
    return { view: statusView(now ?? before), outcome: 'pending' };
  }
  try {
    const result = accepted.result();
    result.catch(() => {}); // answered below, or left to run on after the wait
    let timer: NodeJS.Timeout | undefined;
    answer = await Promise.race([result, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), deps.cfg.TRANSITION_WAIT_MS)))]).finally(() => clearTimeout(timer));
  } catch (err) {
    // Taken (it is in the run's history), but its result could not be read: what became of it is the row's to say.
    deps.log.warn({ submissionId, trigger, err: (err as Error).message, cause: ((err as Error).cause as Error | undefined)?.message }, 'update taken; its result could not be read');
    return { view: statusView(before), outcome: 'pending' };
  }
  if (answer && !answer.taken) {
    if (answer.reason === 'object_missing') throw new AppError('upload_missing', 'No uploaded object yet: PUT the bytes to the upload URL, then complete the upload. The submission stays staged until its upload window ends.');
    if (answer.reason === 'same_operator') throw sameOperator();
    if (answer.reason === 'state_moved') throw new AppError('invalid_transition', `The submission was decided otherwise (status ${answer.intakeStatus}).`);
    throw new AppError('decision_refused', `The decision was refused (${answer.reason}); nothing was changed. The refusal is recorded.`);
  }
  let row: SubmissionRow | undefined;
  try {
    row = await findSubmission(deps.sql, submissionId);
  } catch (err) {
    // The Update went out; PostgreSQL went away before the outcome could be read.
    deps.log.warn({ submissionId, trigger, err: (err as Error).message }, 'update sent; the database went away before its outcome could be read');
    return { view: statusView(before), outcome: 'pending' };
  }
  if (!row) throw new AppError('not_found', 'No such submission.');
  const settled = settledAfter(trigger, row.intakeStatus, before.intakeStatus);
  if (settled && !outcomesOf(trigger).includes(row.intakeStatus))
    throw new AppError('invalid_transition', `The submission was decided otherwise (status ${row.intakeStatus}).`);
  return { view: statusView(row), outcome: settled ? 'settled' : 'accepted' };
}

/** The answer of an upload-complete, approve or reject route: 200 settled, 202 accepted or pending (with `outcome`). */
export function signalReply(r: { view: ReturnType<typeof statusView>; outcome: SignalOutcome }) {
  const body = { data: r.view, outcome: r.outcome };
  return r.outcome === 'settled' ? reply(200, body) : reply(202, body);
}

/** An operator's decision as the decision routes take it: its kind and its fields (lib/intake/decisions.ts). */
export type DecisionInput = { [K in DecisionKind]: { decision: K } & DecisionFields<K> }[DecisionKind];

/**
 * Decide a submission as `actor` (a verified human operator): the signed proof, the Update, the
 * settled state. The one path of every decision route.
 */
export async function decide(deps: AppDeps, actor: Actor, submissionId: string, d: DecisionInput, requestId: string) {
  // The decision went out: the operator's claim ends. Best effort: a lost database must not turn it into a 503 (claims lapse on their own).
  const released = async <T>(result: T) => (await releaseClaim(deps.sql, submissionId, actor.actorId).catch(() => undefined), result);
  // Another operator has it open in the console: theirs to decide until the claim lapses.
  const claimed = await claimedByOther(deps.sql, submissionId, actor.actorId);
  if (claimed) throw new AppError('claimed_by_other', `In review by ${claimed.actorId} until ${claimed.claimedUntil.toISOString()}.`);
  const find = () => findSubmission(deps.sql, submissionId);
  const { decision: kind, ...fields } = d;
  const signal = { requestId, by: byActor(actor), ...fields };
  const update = decisionUpdates[kind] as UpdateDefinition<IntakeAnswer, [Decision['signal']]>;
  return released(
    await updateAndSettle(deps, submissionId, find, kind, update, async (row) => ({ ...signal, proof: await proofOf(deps, row, { kind, signal } as Decision) })),
  );
}
