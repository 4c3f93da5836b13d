// The events partners hear about, and the outbox writes: an event row is written by the
// same statement as the transition or publication that caused it, from the rows that statement
// wrote, so no transition commits without its event and no event exists without its transition.
// lib/webhooks delivers what is written here.
import type { Tx } from '../db';
import { isWorking, type WorkingStatus } from './lifecycle';
import { isHeldStatus, type HeldStatus, type IntakeStatus } from './vocabulary';

export const EVENT_TYPES = [
  'submission.staged',
  'submission.awaiting_review',
  'submission.verification_failed',
  'submission.expired',
  'submission.rejected',
  'submission.promoted',
  'asset.published',
  'asset.unpublished',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Raised when events were written (the dispatcher in the worker LISTENs; it also sweeps). */
export const EVENTS_CHANNEL = 'webhook_events';

/**
 * Every status but the work steps and the held states, total: a new status that is neither does not
 * compile until it names its event. Partners hear of no work step (lib/intake/lifecycle.ts WORK)
 * and of no held state (vocabulary.ts HELD_STATES: they keep seeing where the hold began).
 */
const BY_STATUS: Record<Exclude<IntakeStatus, WorkingStatus | HeldStatus>, EventType> = {
  staged: 'submission.staged',
  awaiting_review: 'submission.awaiting_review',
  verification_failed: 'submission.verification_failed',
  expired: 'submission.expired',
  rejected: 'submission.rejected',
  promoted_to_media_store: 'submission.promoted',
};

/** The event a transition into `status` causes; none into a work step or a held state. */
export function eventTypeOf(status: IntakeStatus): EventType | undefined {
  return isWorking(status) || isHeldStatus(status) ? undefined : BY_STATUS[status];
}

const newEventId = (tx: Tx) => tx`'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * The event of a lifecycle transition, written from the CTE `written` (the submissions row the same
 * statement inserted or moved, `returning *`). Nothing written, no event; at most one per
 * (submission, type). Use inside a `with`; it returns the event ids.
 */
export function eventFromWrittenRow(tx: Tx, type: EventType) {
  return tx`
    insert into webhook_events (event_id, organization_id, submission_id, event_type, intake_status, review_status,
      failure_code, reject_reason_code, media_store_document_id)
    select ${newEventId(tx)}, partner_organization_id, submission_id, ${type}, intake_status, review_status,
      failure_code, reject_reason_code, media_store_document_id
    from written where partner_organization_id is not null
    on conflict (submission_id, event_type) where asset_id is null do nothing
    returning event_id`;
}

/**
 * The event of a publication or takedown, in the caller's transaction (the one that writes the
 * asset): from the submission whose promoted draft the asset shows.
 */
export async function recordAssetEvent(tx: Tx, o: { type: 'asset.published' | 'asset.unpublished'; assetId: string; documentId: string }): Promise<void> {
  await tx`
    with written as (
      insert into webhook_events (event_id, organization_id, submission_id, event_type, intake_status, review_status,
        failure_code, reject_reason_code, media_store_document_id, asset_id)
      select ${newEventId(tx)}, s.partner_organization_id, s.submission_id, ${o.type}, s.intake_status, s.review_status,
        s.failure_code, s.reject_reason_code, s.media_store_document_id, ${o.assetId}
      from media_documents d join submissions s on s.submission_id = d.submission_id
      where d.document_id = ${o.documentId} and s.partner_organization_id is not null
      returning event_id
    )
    select pg_notify(${EVENTS_CHANNEL}, event_id) from written`;
}
