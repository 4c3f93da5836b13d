// The submissions row and the intake_events audit trail, written by the activities.
import type { Tx } from '../lib/db';
import type { ActorRef, IntakeStatus } from '../workflows/messages';



export const SYSTEM_ACTOR: ActorRef = { actorId: 'system:intake-workflow', credentialId: 'none' };

/** Append one transition; a retried activity cannot append the same transition twice. */
export async function recordEvent(
  tx: Tx,
  e: { submissionId: string; by: ActorRef; from: IntakeStatus | null; to: IntakeStatus; note?: string | null },
) {
  await tx`
    insert into intake_events (submission_id, actor_id, credential_id, from_status, to_status, note)
    values (${e.submissionId}, ${e.by.actorId}, ${e.by.credentialId}, ${e.from}, ${e.to}, ${e.note ?? null})
    on conflict (submission_id, to_status) do nothing`;
}

export async function setSubmissionStatus(
  tx: Tx,
  submissionId: string,
  s: { intakeStatus: IntakeStatus; reviewStatus: string; failureCode?: string | null; sha256?: string | null; documentId?: string | null },
) {
  await tx`
    update submissions set
      intake_status = ${s.intakeStatus},
      review_status = ${s.reviewStatus},
      failure_code = coalesce(${s.failureCode ?? null}, failure_code),
      verified_sha256 = coalesce(${s.sha256 ?? null}, verified_sha256),
      media_store_document_id = coalesce(${s.documentId ?? null}, media_store_document_id),
      awaiting_since = case when ${s.intakeStatus} = 'awaiting_review' then coalesce(awaiting_since, now()) else awaiting_since end,
      updated_at = now()
    where submission_id = ${submissionId}`;
}
