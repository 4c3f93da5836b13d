// The decision and signal operations (issue 27: one module for what the API's routes and the
// console both do): ask the transition table whether the submission's state accepts the trigger,
// send the signal, then wait (bounded) for the settled state the workflow's transition write
// announces (LISTEN/NOTIFY), and answer from the row it wrote. No polling.
import type { Request, Response } from 'express';
import { status as grpcStatus } from '@grpc/grpc-js';
import crypto from 'node:crypto';
import { accepts, outcomesOf, settledAfter } from '../../lib/intake/lifecycle';
import { findSubmission, type SubmissionRow } from '../../lib/intake/submissions';
import type { ActorRef, Decision, IntakeStatus, RejectReasonCode } from '../../lib/intake/vocabulary';
import type { Actor } from '../auth/middleware';
import { claimedByOther } from '../../lib/console/sessions';
import { detailsHash } from '../../lib/intake/decision-proof';
import { approveSignal, rejectSignal } from '../../workflows/messages';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { statusView } from '../../lib/intake/status-view';
import { byActor } from '../routes/intake/submissions';
import { intakeHandle, requireWorker, temporalCall } from '../routes/intake/workflow-calls';

export const REFUSED: Record<'upload_complete' | 'approve' | 'reject', (s: IntakeStatus) => string> = {
  upload_complete: (s) => `Upload already completed (status ${s}).`,
  approve: (s) => `Only a submission awaiting review can be decided (status ${s}).`,
  reject: (s) => `Only a submission awaiting review can be decided (status ${s}).`,
};

export const requestIdOf = (req: Request) => String(req.id ?? crypto.randomUUID());

/**
 * The proof that this API verified the operator making this decision (lib/intake/decision-proof.ts):
 * the worker acts on a decision only with it, so a signal sent around the API changes nothing.
 */
async function proofOf(deps: AppDeps, row: SubmissionRow, d: { decision: Decision; requestId: string; by: ActorRef; reviewNotes: string; reasonCode?: string; seenMatches?: string[] }) {
  if (!row.verifiedSha256) throw new AppError('invalid_transition', REFUSED[d.decision](row.intakeStatus));
  return deps.decisionSigner.sign({
    submissionId: row.submissionId,
    decision: d.decision,
    actorId: d.by.actorId,
    credentialId: d.by.credentialId,
    sha256: row.verifiedSha256,
    requestId: d.requestId,
    detailsHash: detailsHash({ reviewNotes: d.reviewNotes, reasonCode: d.reasonCode, seenMatches: d.seenMatches }),
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

/**
 * Send `trigger` to the submission's workflow if its state accepts it, and wait for the state it
 * settles in. 200 when settled in one of the trigger's outcomes, 202 when still working after
 * TRANSITION_WAIT_MS, 409 when the trigger is not accepted or the submission went another way.
 * Everything that can fail before the signal leaves fails with its own 503 (not applied); once
 * the signal may have left, a lost dependency answers 202 `pending` with the last state known.
 */
export async function signalAndSettle(
  deps: AppDeps,
  submissionId: string,
  find: () => Promise<SubmissionRow | undefined>,
  trigger: keyof typeof REFUSED,
  send: (row: SubmissionRow) => Promise<void>,
): Promise<{ view: ReturnType<typeof statusView>; outcome: SignalOutcome }> {
  // Watch before reading, so no transition between the check and the wait is missed.
  const watch = await deps.transitions.watch(submissionId);
  let before: SubmissionRow;
  try {
    // The row is the transitions the workflow wrote: what the client has seen. Without a worker
    // to act on the signal, 503 now rather than a 202 after the wait. Both asked at once.
    const [found, worker] = await Promise.allSettled([find(), requireWorker(deps)]);
    if (found.status === 'rejected') throw found.reason;
    const row = found.value;
    if (!row) throw new AppError('not_found', 'No such submission.');
    if (worker.status === 'rejected') throw worker.reason;
    if (!accepts(row.intakeStatus, trigger)) throw new AppError('invalid_transition', REFUSED[trigger](row.intakeStatus));
    before = row;
    try {
      await temporalCall(deps, 'signal', () => send(row));
    } catch (err) {
      if (!deliveryUnknown(err) && !deliveryUnknown((err as { cause?: unknown }).cause)) throw err;
      deps.log.warn({ submissionId, trigger }, 'signal outcome unknown: the Temporal call timed out after it was sent');
      return { view: statusView(row), outcome: 'pending' };
    }
    try {
      const deadline = Date.now() + deps.cfg.TRANSITION_WAIT_MS;
      let status: IntakeStatus = row.intakeStatus;
      while (!settledAfter(trigger, status)) {
        const next = await watch.next(deadline - Date.now());
        if (next === undefined) break;
        status = next;
      }
    } catch (err) {
      deps.log.warn({ submissionId, trigger, err: (err as Error).message }, 'signal sent; lost the transition feed while waiting');
    }
  } finally {
    watch.close();
  }
  let row: SubmissionRow | undefined;
  try {
    row = await findSubmission(deps.sql, submissionId);
  } catch (err) {
    // The signal went out; PostgreSQL went away before the outcome could be read.
    deps.log.warn({ submissionId, trigger, err: (err as Error).message }, 'signal sent; the database went away before its outcome could be read');
    return { view: statusView(before), outcome: 'pending' };
  }
  if (!row) throw new AppError('not_found', 'No such submission.');
  const settled = settledAfter(trigger, row.intakeStatus);
  if (settled && !outcomesOf(trigger).includes(row.intakeStatus))
    throw new AppError('invalid_transition', `The submission was decided otherwise (status ${row.intakeStatus}).`);
  return { view: statusView(row), outcome: settled ? 'settled' : 'accepted' };
}

/** The answer of a signal route: 200 settled, 202 accepted or pending (with `outcome`). */
export function signalAnswer(res: Response, r: { view: ReturnType<typeof statusView>; outcome: SignalOutcome }) {
  res.status(r.outcome === 'settled' ? 200 : 202).json({ success: true, data: r.view, outcome: r.outcome });
}

/** An operator's decision as the approve / reject routes and the console take it. */
export type DecisionInput = { decision: 'approve'; reviewNotes: string; seenMatches?: string[] | undefined } | { decision: 'reject'; reasonCode: RejectReasonCode; reviewNotes: string };

/**
 * Decide a submission as `actor` (a verified human operator): the signed proof, the signal, the
 * settled state. The one path of the approve and reject routes and of the console.
 */
export async function decide(deps: AppDeps, actor: Actor, submissionId: string, d: DecisionInput, requestId: string) {
  // Another operator has it open in the console: theirs to decide until the claim lapses.
  const claimed = await claimedByOther(deps.sql, submissionId, actor.actorId);
  if (claimed) throw new AppError('claimed_by_other', `In review by ${claimed.actorId} until ${claimed.claimedUntil.toISOString()}.`);
  const find = () => findSubmission(deps.sql, submissionId);
  const base = { requestId, by: byActor(actor), reviewNotes: d.reviewNotes };
  if (d.decision === 'approve') {
    // seenMatches only when there are some: the signal of an approval without matches is as before.
    const approval = d.seenMatches?.length ? { ...base, seenMatches: d.seenMatches } : base;
    return signalAndSettle(deps, submissionId, find, 'approve', async (row) =>
      intakeHandle(deps, submissionId).signal(approveSignal, { ...approval, proof: await proofOf(deps, row, { decision: 'approve', ...approval }) }),
    );
  }
  const signal = { ...base, reasonCode: d.reasonCode };
  return signalAndSettle(deps, submissionId, find, 'reject', async (row) =>
    intakeHandle(deps, submissionId).signal(rejectSignal, { ...signal, proof: await proofOf(deps, row, { decision: 'reject', ...signal }) }),
  );
}

