// The activity that acts on a human decision of any kind (lib/intake/decisions.ts). It writes the
// decision's transition (approve: awaiting_review -> promoting, after which promotion copies the
// bytes; reject: -> rejected) only
// when the signal carries a proof the API signed (lib/intake/decision-proof.ts) that names this
// submission, this decision, this operator and credential, these notes and exactly the bytes
// verification hashed, and when PostgreSQL still maps that operator as an active human operator
// with portfolio_intake:review. Anything else (a signal sent by hand through Temporal, a proof
// replayed from another submission, an operator since deactivated) changes nothing: the refusal
// is recorded in decision_refusals and logged, and the workflow keeps waiting for a valid decision.
import { log as activityLog } from '@temporalio/activity';
import type { Sql } from '../lib/db';
import { isActiveOperator } from '../lib/identity/actors';
import { DecisionProofError, detailsHash, type DecisionRefusal, type DecisionVerifier } from '../lib/intake/decision-proof';
import { insertRefusal } from '../lib/intake/refusals';
import { checkDecisionShape, heldOf, isDecisionKind } from '../lib/intake/decisions';
import { problemsLine } from '../lib/intake/signal-shapes';
import { recordDecisionMatches } from '../lib/intake/decision-matches';
import { findSubmission } from '../lib/intake/submissions';
import { firstDecisionOf, isFirstDecider } from '../lib/intake/second-review';
import { persist } from './steps';
import type { AcceptDecisionInput, AcceptDecisionResult } from './types';

export interface DecisionDeps {
  sql: Sql;
  /** Absent: every decision is refused (a worker without the API's public key acts on none). */
  decisions?: DecisionVerifier | undefined;
  /** Where the refusal's warning goes; default: the activity logger (the worker's log). */
  log?: { warn(obj: object, msg: string): void } | undefined;
}

/** Has this transition been written already (an activity retried after its commit)? */
async function alreadyWritten(sql: Sql, i: AcceptDecisionInput): Promise<boolean> {
  const [row] = await sql<{ ok: boolean }[]>`
    select true as ok from intake_events
    where submission_id = ${i.transition.submissionId} and to_status = ${i.transition.to} and trigger = ${i.transition.trigger}
      and actor_id = ${i.transition.by.actorId}`;
  return row?.ok === true;
}

/**
 * The decision as the signal brought it, checked for shape first: a run whose handlers do not
 * check shapes hands over what it was sent, and a malformed decision is refused here rather than
 * thrown on (a throw would be retried without end).
 */
function malformed(i: AcceptDecisionInput): string | null {
  const { decision, sha256: _sha256, transition: _transition, ...signal } = i;
  if (!isDecisionKind(decision)) return `decision: not a kind of decision (${String(decision).slice(0, 50)})`;
  const checked = checkDecisionShape(decision, signal);
  return checked.ok ? null : problemsLine(checked.problems);
}

async function check(deps: DecisionDeps, i: AcceptDecisionInput): Promise<{ refused: DecisionRefusal | 'signal_malformed'; detail: string; proofActorId?: string } | null> {
  const wrong = malformed(i);
  if (wrong) return { refused: 'signal_malformed', detail: `the decision is not the signal's shape: ${wrong}` };
  if (!deps.decisions) return { refused: 'proof_invalid', detail: 'this worker has no decision verification key' };
  let claims;
  try {
    claims = await deps.decisions.verify(i.proof);
  } catch (err) {
    if (err instanceof DecisionProofError) return { refused: err.reason, detail: err.message };
    throw err;
  }
  const row = await findSubmission(deps.sql, i.transition.submissionId);
  const mismatch = [
    claims.submissionId !== i.transition.submissionId && 'submission',
    claims.decision !== i.decision && 'decision',
    (claims.sha256 !== i.sha256 || claims.sha256 !== row?.verifiedSha256) && 'verified sha256',
    (claims.actorId !== i.by.actorId || claims.credentialId !== i.by.credentialId) && 'operator',
    claims.requestId !== i.requestId && 'request',
    claims.detailsHash !== detailsHash(i) && 'notes',
  ].filter(Boolean);
  if (mismatch.length) return { refused: 'proof_mismatch', detail: `the proof does not match this decision (${mismatch.join(', ')})`, proofActorId: claims.actorId };
  if (!(await isActiveOperator(deps.sql, { actorId: claims.actorId, credentialId: claims.credentialId, permission: 'portfolio_intake:review' })))
    return { refused: 'operator_not_active', detail: 'the operator is no longer an active human operator with portfolio_intake:review', proofActorId: claims.actorId };
  // A held decision's second half (lib/intake/second-review.ts): a different operator's only.
  const held = heldOf(i.decision);
  const first = held && i.transition.from === held.to ? await firstDecisionOf(deps.sql, i.transition.submissionId, i.decision) : undefined;
  if (first && (await isFirstDecider(deps.sql, first, claims.actorId)))
    return { refused: 'same_operator', detail: 'the operator who approved first cannot approve again: a second review needs a different operator', proofActorId: claims.actorId };
  return null;
}

export function acceptDecision(deps: DecisionDeps) {
  return async (i: AcceptDecisionInput): Promise<AcceptDecisionResult> => {
    const { sql } = deps;
    // A retry after the transition committed: the decision was accepted then; the operator's
    // mapping changing in between does not undo it.
    if (!malformed(i) && (await alreadyWritten(sql, i))) return { accepted: true };
    const refusal = await check(deps, i);
    if (!refusal) {
      // The matches found now are recorded with the decision, in its transaction (decision_matches).
      if (await persist(sql, i.transition, (tx) => recordDecisionMatches(tx, i))) return { accepted: true };
      if (await alreadyWritten(sql, i)) return { accepted: true };
      // The row is not where the decision applies (only the workflow writes it: not expected).
      return { accepted: false, reason: 'state_moved' };
    }
    const by = (typeof i.by === 'object' && i.by !== null ? i.by : {}) as Partial<AcceptDecisionInput['by']>;
    const str = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : undefined);
    const claimed = { actorId: str(by.actorId), credentialId: str(by.credentialId) };
    const requestId = str(i.requestId) ?? `malformed:${i.transition.trigger}`;
    await insertRefusal(sql, { submissionId: i.transition.submissionId, signal: i.decision, requestId, reason: refusal.refused, claimed, proofActorId: refusal.proofActorId, detail: refusal.detail });
    const fields = {
      submissionId: i.transition.submissionId,
      decision: i.decision,
      requestId,
      reason: refusal.refused,
      claimedActorId: claimed.actorId,
      claimedCredentialId: claimed.credentialId,
      ...(refusal.proofActorId ? { proofActorId: refusal.proofActorId } : {}),
    };
    const msg = `decision refused: ${refusal.detail}; the submission stays ${i.transition.from}`;
    if (deps.log) deps.log.warn(fields, msg);
    else activityLog.warn(msg, fields);
    return { accepted: false, reason: refusal.refused };
  };
}
