// The events partners hear about, and the outbox writes: an event row is written by the
// same statement as the transition or publication that caused it, from the rows that statement
// wrote, so no transition commits without its event and no event exists without its transition.
// lib/webhooks delivers what is written here.
import type { Tx } from '../db';
import { intakeStatuses, STATUS_EVENTS, type IntakeStatus, type StatusEventType } from './vocabulary';

/** What partners hear of the assets (their statuses' events come from the state table). */
export const ASSET_EVENTS = {
  'asset.published': 'an operator published the draft; publicAssetUrl is its image',
  'asset.unpublished': 'an operator took the published asset down',
} as const;

/** Every event type: each status's (vocabulary.ts INTAKE_STATES `event`), then the assets'. */
export const EVENT_TYPES = [
  ...intakeStatuses.flatMap((s) => { const e = STATUS_EVENTS[s]; return e ? [e.type] : []; }),
  ...(Object.keys(ASSET_EVENTS) as (keyof typeof ASSET_EVENTS)[]),
] as [StatusEventType | keyof typeof ASSET_EVENTS, ...(StatusEventType | keyof typeof ASSET_EVENTS)[]];
export type EventType = (typeof EVENT_TYPES)[number];

/** What the OpenAPI webhooks say of each event type. */
export const EVENT_DESCRIPTIONS = {
  ...Object.fromEntries(intakeStatuses.flatMap((s) => { const e = STATUS_EVENTS[s]; return e ? [[e.type, e.description]] : []; })),
  ...ASSET_EVENTS,
} as Record<EventType, string>;

/** Raised when events were written (the dispatcher in the worker LISTENs; it also sweeps). */
export const EVENTS_CHANNEL = 'webhook_events';

/**
 * The event a transition into `status` causes (vocabulary.ts INTAKE_STATES `event`); none into a
 * work step or a held state (test/unit/state-table.test.ts: every other state declares one).
 */
export function eventTypeOf(status: IntakeStatus): EventType | undefined {
  return STATUS_EVENTS[status]?.type;
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
