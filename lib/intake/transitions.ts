// The one writer of a transition: the row, its intake_events line and the notification to
// waiting routes, in the caller's transaction. Idempotent: the row moves only from the state the
// transition starts at, so a retried activity writes nothing twice.
import type { Tx } from '../db';
import type { Transition } from './lifecycle';
import type { ActorRef, IntakeStatus } from './vocabulary';

/** Raised (NOTIFY) by every transition write; API replicas LISTEN and wake waiting routes. */
export const TRANSITION_CHANNEL = 'intake_transitions';

export interface TransitionNotice {
  submissionId: string;
  intakeStatus: IntakeStatus;
}

async function appendEvent(
  tx: Tx,
  e: { submissionId: string; by: ActorRef; from: IntakeStatus | null; to: IntakeStatus; trigger: string; note: string | null },
) {
  await tx`
    insert into intake_events (submission_id, actor_id, credential_id, from_status, to_status, trigger, note)
    values (${e.submissionId}, ${e.by.actorId}, ${e.by.credentialId}, ${e.from}, ${e.to}, ${e.trigger}, ${e.note})
    on conflict (submission_id, to_status) do nothing`;
}

async function notify(tx: Tx, n: TransitionNotice) {
  await tx`select pg_notify(${TRANSITION_CHANNEL}, ${JSON.stringify(n)})`;
}

/** The row's first state and its first event (the create transition); the row itself is inserted by the caller. */
export async function recordCreated(tx: Tx, t: Transition): Promise<void> {
  await appendEvent(tx, { submissionId: t.submissionId, by: t.by, from: t.from, to: t.to, trigger: t.trigger, note: t.note });
}

/** Persist one transition the workflow decided. False when the row had already moved on (a retry). */
export async function applyTransition(tx: Tx, t: Transition): Promise<boolean> {
  if (t.from === null) throw new Error('the create transition is written by recordCreated');
  const f = t.facts;
  const moved = await tx`
    update submissions set
      intake_status = ${t.to},
      review_status = ${t.reviewStatus},
      verified_sha256 = coalesce(${f.sha256 ?? null}, verified_sha256),
      failure_code = coalesce(${f.failureCode ?? null}, failure_code),
      reject_reason_code = coalesce(${f.rejectReasonCode ?? null}, reject_reason_code),
      media_store_document_id = coalesce(${f.mediaStoreDocumentId ?? null}, media_store_document_id),
      awaiting_since = case when ${t.to}::text = 'awaiting_review' then coalesce(awaiting_since, now()) else awaiting_since end,
      updated_at = now()
    where submission_id = ${t.submissionId} and intake_status = ${t.from}
    returning 1`;
  if (moved.length === 0) return false;
  await appendEvent(tx, { submissionId: t.submissionId, by: t.by, from: t.from, to: t.to, trigger: t.trigger, note: t.note });
  await notify(tx, { submissionId: t.submissionId, intakeStatus: t.to });
  return true;
}
