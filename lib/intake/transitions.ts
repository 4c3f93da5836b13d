// The one writer of a transition: the row, its intake_events line and the partner's event (the
// outbox), in the caller's transaction, counted by the process that writes it. Idempotent: the row
// moves only from the state the transition starts at, so a retried activity writes nothing twice.
import { Counter } from 'prom-client';
import type { Tx } from '../db';
import { EVENTS_CHANNEL, eventFromWrittenRow, eventTypeOf } from './outbox';
import { stateFlagsOf, type Transition } from './lifecycle';
import { isFirstReview, type IntakeStatus } from './vocabulary';

/**
 * Transitions this process wrote, by the status entered: counted where they are written (the API
 * writes `staged`, the worker the rest). Each process's /metrics registers it; sum across them.
 */
export const transitionsWritten = new Counter({
  name: 'intake_transitions_total',
  help: 'Intake transitions this process wrote, by the status entered (the API writes staged, the worker the rest: sum across processes)',
  labelNames: ['status'],
  registers: [],
});

/** Counts a transition this process wrote (applyTransition and the create). */
export function countTransition(to: IntakeStatus): void {
  transitionsWritten.inc({ status: to });
}

/**
 * The audit line of a transition, written from the CTE `written` (the row the same statement
 * inserted or moved): no row written, no event. One event per (submission, to): a retry adds none.
 */
export function eventFromWritten(tx: Tx, t: Transition) {
  return tx`
    insert into intake_events (submission_id, actor_id, credential_id, from_status, to_status, trigger, note)
    select submission_id, ${t.by.actorId}, ${t.by.credentialId}, ${t.from}, ${t.to}, ${t.trigger}, ${t.note} from written
    on conflict (submission_id, to_status) do nothing`;
}

/**
 * Persist one transition the workflow decided: the row, its event, the partners' webhook event
 * (the outbox, when the new state has one) and the notifications in ONE
 * statement (atomic on its own, one round trip; it joins the caller's transaction when given
 * one). False when the row had already moved on (a retry): then nothing is written or raised.
 */
export async function applyTransition(tx: Tx, t: Transition): Promise<boolean> {
  if (t.from === null) throw new Error('the create transition is written with the row (lib/intake/submissions.ts)');
  const f = t.facts;
  const type = eventTypeOf(t.to);
  const flags = stateFlagsOf(t.to);
  const raised = await tx`
    with written as (
      update submissions set
        intake_status = ${t.to},
        is_open = ${flags.isOpen},
        is_undecided = ${flags.isUndecided},
        is_deciding = ${flags.isDeciding},
        review_status = ${t.reviewStatus},
        verified_sha256 = coalesce(${f.sha256 ?? null}, verified_sha256),
        failure_code = coalesce(${f.failureCode ?? null}, failure_code),
        reject_reason_code = coalesce(${f.rejectReasonCode ?? null}, reject_reason_code),
        media_store_document_id = coalesce(${f.mediaStoreDocumentId ?? null}, media_store_document_id),
        image_format = coalesce(${f.image?.format ?? null}, image_format),
        image_width = coalesce(${f.image?.width ?? null}::int, image_width),
        image_height = coalesce(${f.image?.height ?? null}::int, image_height),
        image_frames = coalesce(${f.image?.frames ?? null}::int, image_frames),
        image_orientation = coalesce(${f.image?.orientation ?? null}::int, image_orientation),
        second_review_reasons = coalesce(${f.secondReviewReasons ?? null}::text[], second_review_reasons),
        awaiting_since = case when ${isFirstReview(t.to)}::boolean then coalesce(awaiting_since, now()) else awaiting_since end,
        updated_at = now()
      where submission_id = ${t.submissionId} and intake_status = ${t.from}
      returning *
    ), event as (${eventFromWritten(tx, t)})
    ${type ? tx`, outbox as (${eventFromWrittenRow(tx, type)})` : tx``}
    select ${type ? tx`(select count(pg_notify(${EVENTS_CHANNEL}, event_id)) from outbox)` : tx`1`} as raised
    from written`;
  if (raised.length === 0) return false;
  countTransition(t.to);
  return true;
}
