// The one record of a signal that changed nothing: a decision whose proof did not hold, an
// operator no longer mapped, a payload that was not the signal's shape. decision_refusals is
// append-only; one line per (submission, request id), so a retried activity records it once.
import type { Tx } from '../db';
import type { DecisionKind } from './decisions';
import type { ActorRef } from './vocabulary';

/** What was refused: a decision (its kind) or an upload-complete. */
export type RefusedSignal = DecisionKind | 'upload_complete';

export interface Refusal {
  submissionId: string;
  signal: RefusedSignal;
  requestId: string;
  /** A DecisionRefusal, or `signal_malformed`. */
  reason: string;
  /** Who the signal claims to be from, as far as it could be read. */
  claimed: Partial<ActorRef>;
  proofActorId?: string | undefined;
  /** What was wrong, in words (never a secret: shape problems and proof mismatches name fields, not values). */
  detail?: string | undefined;
}

export async function insertRefusal(sql: Tx, r: Refusal): Promise<void> {
  await sql`
    insert into decision_refusals (submission_id, decision, request_id, reason, claimed_actor_id, claimed_credential_id, proof_actor_id, detail)
    values (${r.submissionId}, ${r.signal}, ${r.requestId}, ${r.reason}, ${r.claimed.actorId ?? null}, ${r.claimed.credentialId ?? null},
            ${r.proofActorId ?? null}, ${r.detail ?? null})
    on conflict (submission_id, request_id) do nothing`;
}

/** Refusals kept per submission in decision_refusals; beyond it they are counted in decision_refusal_overflow. */
export const REFUSALS_KEPT_PER_SUBMISSION = 100;

/**
 * Record a refusal, or only count it once the submission has `cap` of them. Answers which, or
 * `repeat` when the same request was refused and recorded before (a validator may see it twice).
 */
export async function recordCappedRefusal(sql: Tx, r: Refusal, cap = REFUSALS_KEPT_PER_SUBMISSION): Promise<'recorded' | 'counted' | 'repeat'> {
  const [done] = await sql<{ kept: number; inserted: number }[]>`
    with kept as (select count(*)::int as n from decision_refusals where submission_id = ${r.submissionId}),
    ins as (
      insert into decision_refusals (submission_id, decision, request_id, reason, claimed_actor_id, claimed_credential_id, proof_actor_id, detail)
      select ${r.submissionId}, ${r.signal}, ${r.requestId}, ${r.reason}, ${r.claimed.actorId ?? null}, ${r.claimed.credentialId ?? null},
             ${r.proofActorId ?? null}, ${r.detail ?? null}
      where (select n from kept) < ${cap}
      on conflict (submission_id, request_id) do nothing
      returning 1)
    select (select n from kept) as kept, (select count(*)::int from ins) as inserted`;
  if (done!.inserted) return 'recorded';
  if (done!.kept < cap) return 'repeat';
  await countRefusals(sql, r.submissionId, 1, r.reason);
  return 'counted';
}

/** Count `n` refusals beyond the cap (decision_refusal_overflow). */
export async function countRefusals(sql: Tx, submissionId: string, n: number, lastReason: string): Promise<void> {
  await sql`
    insert into decision_refusal_overflow (submission_id, refused, last_reason) values (${submissionId}, ${n}, ${lastReason})
    on conflict (submission_id) do update set refused = decision_refusal_overflow.refused + excluded.refused, last_reason = excluded.last_reason, last_at = now()`;
}
