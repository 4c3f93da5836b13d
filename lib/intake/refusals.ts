// The one record of a signal that changed nothing: a decision whose proof did not hold, an
// operator no longer mapped, a payload that was not the signal's shape. decision_refusals is
// append-only; one line per (submission, request id), so a retried activity records it once.
import type { Tx } from '../db';
import type { ActorRef } from './vocabulary';

export type RefusedSignal = 'approve' | 'reject' | 'upload_complete';

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
