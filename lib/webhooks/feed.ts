// The events as partners see them: one select of an event's facts and the submission's times as
// they were at the event, the body it becomes, and the organization's feed.
import type { Tx } from '../db';
import { DECIDED } from '../intake/lifecycle';
import { statusView } from '../intake/status-view';
import type { IntakeView } from '../intake/vocabulary';
import type { EventType } from '../intake/outbox';

/** The submission's facts as the event recorded them (an IntakeView), and the event's own. */
export interface EventRow extends IntakeView {
  seq: string;
  eventId: string;
  eventType: EventType;
  occurredAt: Date;
  assetId: string | null;
  createdAt: Date;
  awaitingSince: Date | null;
  decidedAt: Date | null;
}

/** An event as partners receive it (webhook body) and read it (feed, with `id`). */
export interface PartnerEvent {
  id: string;
  type: EventType;
  timestamp: string;
  data: ReturnType<typeof statusView> & { assetId?: string };
}

/**
 * The event's facts and the submission's times as they were at the event (a later decision or
 * publication does not leak into an earlier event).
 */
export const eventSelect = (sql: Tx) => sql`
  select e.seq::text as seq, e.event_id, e.event_type, e.occurred_at, e.submission_id, s.artist_canonical_id,
    e.intake_status, e.review_status, e.media_store_document_id, e.failure_code, e.reject_reason_code, e.asset_id,
    s.created_at,
    case when s.awaiting_since <= e.occurred_at then s.awaiting_since end as awaiting_since,
    (select min(i.at) from intake_events i
      where i.submission_id = e.submission_id and i.to_status = any(${[...DECIDED]}) and i.at <= e.occurred_at) as decided_at
  from webhook_events e join submissions s on s.submission_id = e.submission_id`;

export function partnerEvent(r: EventRow, publicBaseUrl: string): PartnerEvent {
  const view = statusView(r, {
    times: {
      createdAt: r.createdAt,
      updatedAt: r.occurredAt,
      awaitingSince: r.awaitingSince,
      decidedAt: r.decidedAt,
      publicAssetId: r.eventType === 'asset.published' ? r.assetId : null,
      takenDownAt: r.eventType === 'asset.unpublished' ? r.occurredAt : null,
    },
    publicBaseUrl,
  });
  return { id: r.eventId, type: r.eventType, timestamp: r.occurredAt.toISOString(), data: { ...view, ...(r.assetId ? { assetId: r.assetId } : {}) } };
}

/** The organization's events after `afterSeq`, oldest first (the feed); limit + 1 rows tell whether there is more. */
export async function eventsAfter(
  sql: Tx,
  o: { organizationId: string; afterSeq: string; limit: number; publicBaseUrl: string },
): Promise<{ events: (PartnerEvent & { seq: string })[]; more: boolean }> {
  const rows = await sql<EventRow[]>`
    ${eventSelect(sql)}
    where e.organization_id = ${o.organizationId} and e.seq > ${o.afterSeq}::bigint
    order by e.seq limit ${o.limit + 1}`;
  return { events: rows.slice(0, o.limit).map((r) => ({ ...partnerEvent(r, o.publicBaseUrl), seq: r.seq })), more: rows.length > o.limit };
}
