// Webhook SQL: endpoints and their secrets, the events (feed and payloads), the fan-out of events
// to endpoints, the dispatch marks and the delivery log. Explicit column lists, parameters only.
import crypto from 'node:crypto';
import type { Sql, Tx } from '../db';
import { statusView } from '../intake/status-view';
import type { IntakeView } from '../intake/vocabulary';
import { EVENTS_CHANNEL, type EventType } from './events';
import type { SecretBox } from './secret-box';
import { newSecret } from './send';

const id = (prefix: string) => prefix + crypto.randomBytes(12).toString('hex');

// ---------------------------------------------------------------- endpoints

export interface Endpoint {
  endpointId: string;
  organizationId: string;
  url: string;
  description: string;
  eventTypes: EventType[] | null;
  createdBy: string;
  createdAt: Date;
  deletedAt: Date | null;
}

const endpointColumns = (sql: Tx) => sql`endpoint_id, organization_id, url, description, event_types, created_by, created_at, deleted_at`;

/** A new endpoint and its first secret (returned once, here; stored sealed). */
export async function createEndpoint(
  sql: Sql,
  box: SecretBox,
  o: { organizationId: string; url: string; description: string; eventTypes: EventType[] | null; createdBy: string },
): Promise<{ endpoint: Endpoint; secret: string }> {
  const secret = newSecret();
  const secretId = id('whs_');
  const endpoint = await sql.begin(async (tx) => {
    const [e] = await tx<Endpoint[]>`
      insert into webhook_endpoints (endpoint_id, organization_id, url, description, event_types, created_by)
      values (${id('whe_')}, ${o.organizationId}, ${o.url}, ${o.description}, ${o.eventTypes}, ${o.createdBy})
      returning ${endpointColumns(tx)}`;
    await tx`insert into webhook_endpoint_secrets (secret_id, endpoint_id, secret) values (${secretId}, ${e!.endpointId}, ${box.seal(secretId, secret)})`;
    return e!;
  });
  return { endpoint, secret };
}

/** The organization's live endpoints (a deleted one, or another organization's, is not found). */
export async function listEndpoints(sql: Tx, organizationId: string): Promise<Endpoint[]> {
  return sql<Endpoint[]>`
    select ${endpointColumns(sql)} from webhook_endpoints
    where organization_id = ${organizationId} and deleted_at is null order by created_at, endpoint_id limit 100`;
}

export async function findEndpoint(sql: Tx, organizationId: string, endpointId: string): Promise<Endpoint | undefined> {
  const [e] = await sql<Endpoint[]>`
    select ${endpointColumns(sql)} from webhook_endpoints
    where endpoint_id = ${endpointId} and organization_id = ${organizationId} and deleted_at is null`;
  return e;
}

/** Soft delete: the endpoint stops receiving; its open deliveries are cancelled; the log stays. */
export async function deleteEndpoint(sql: Sql, organizationId: string, endpointId: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    const gone = await tx`
      update webhook_endpoints set deleted_at = now()
      where endpoint_id = ${endpointId} and organization_id = ${organizationId} and deleted_at is null returning endpoint_id`;
    if (gone.length === 0) return false;
    await tx`
      update webhook_deliveries set status = 'cancelled', completed_at = now(), next_attempt_at = null
      where endpoint_id = ${endpointId} and status in ('pending', 'delivering')`;
    await tx`delete from webhook_endpoint_secrets where endpoint_id = ${endpointId}`;
    return true;
  });
}

/**
 * A new current secret; the previous ones keep signing until `overlapSeconds` from now, so
 * receivers can switch without a gap. The new secret is returned once, here (stored sealed).
 */
export async function rotateSecret(sql: Sql, box: SecretBox, endpointId: string, overlapSeconds: number): Promise<{ secret: string; previousExpiresAt: Date }> {
  const secret = newSecret();
  const secretId = id('whs_');
  return sql.begin(async (tx) => {
    const [r] = await tx<{ at: Date }[]>`
      update webhook_endpoint_secrets set expires_at = least(coalesce(expires_at, 'infinity'), now() + make_interval(secs => ${overlapSeconds}))
      where endpoint_id = ${endpointId} and (expires_at is null or expires_at > now())
      returning expires_at as at`;
    await tx`delete from webhook_endpoint_secrets where endpoint_id = ${endpointId} and expires_at <= now()`;
    await tx`insert into webhook_endpoint_secrets (secret_id, endpoint_id, secret) values (${secretId}, ${endpointId}, ${box.seal(secretId, secret)})`;
    return { secret, previousExpiresAt: r?.at ?? new Date() };
  });
}

/** Every secret that signs now (current and those in their overlap window), opened. */
export async function signingSecrets(sql: Tx, box: SecretBox, endpointId: string): Promise<string[]> {
  const rows = await sql<{ secretId: string; secret: string }[]>`
    select secret_id, secret from webhook_endpoint_secrets
    where endpoint_id = ${endpointId} and (expires_at is null or expires_at > now()) order by created_at desc`;
  return rows.map((r) => box.open(r.secretId, r.secret));
}

// ---------------------------------------------------------------- events

/** The submission's facts as the event recorded them (an IntakeView), and the event's own. */
interface EventRow extends IntakeView {
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
const eventSelect = (sql: Tx) => sql`
  select e.seq::text as seq, e.event_id, e.event_type, e.occurred_at, e.submission_id, s.artist_canonical_id,
    e.intake_status, e.review_status, e.media_store_document_id, e.failure_code, e.reject_reason_code, e.asset_id,
    s.created_at,
    case when s.awaiting_since <= e.occurred_at then s.awaiting_since end as awaiting_since,
    (select min(i.at) from intake_events i
      where i.submission_id = e.submission_id and i.to_status in ('promoting', 'rejected', 'promoted_to_media_store') and i.at <= e.occurred_at) as decided_at
  from webhook_events e join submissions s on s.submission_id = e.submission_id`;

function partnerEvent(r: EventRow, publicBaseUrl: string): PartnerEvent {
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

// ---------------------------------------------------------------- fan-out and dispatch

/**
 * Events not yet fanned out become one delivery per matching endpoint (live, of the event's
 * organization, registered before the event, subscribed to its type). One transaction; rows are
 * claimed with SKIP LOCKED so several workers share the work. Returns the events handled.
 */
export async function fanOut(sql: Sql, limit = 500): Promise<number> {
  const [r] = await sql<{ events: number }[]>`
    with ev as (
      select event_id, organization_id, submission_id, event_type, occurred_at, seq from webhook_events
      where not fanned_out order by seq limit ${limit} for update skip locked
    ), ins as (
      insert into webhook_deliveries (delivery_id, event_id, endpoint_id, submission_id, seq)
      select 'whd_' || replace(gen_random_uuid()::text, '-', ''), ev.event_id, ep.endpoint_id, ev.submission_id, ev.seq
      from ev join webhook_endpoints ep on ep.organization_id = ev.organization_id and ep.deleted_at is null
        and ep.created_at <= ev.occurred_at and (ep.event_types is null or ev.event_type = any(ep.event_types))
      on conflict (event_id, endpoint_id) do nothing
      returning 1
    ), marked as (
      update webhook_events set fanned_out = true where event_id in (select event_id from ev) returning 1
    )
    select (select count(*) from marked)::int as events, (select count(*) from ins)::int as deliveries`;
  return r!.events;
}

export interface DeliveryLane {
  endpointId: string;
  submissionId: string;
}

/**
 * (endpoint, submission) lanes with a delivery nobody has taken: never dispatched, or dispatched a
 * while ago and still not taken while no delivery of the lane is in progress (the workflow that was
 * signalled ended before it saw it). Each lane is delivered in order by one workflow.
 */
export async function lanesToDispatch(sql: Tx, o: { staleSeconds: number; limit: number }): Promise<DeliveryLane[]> {
  return sql<DeliveryLane[]>`
    select distinct d.endpoint_id, d.submission_id from webhook_deliveries d
    where d.status = 'pending'
      and (d.dispatched_at is null or (d.dispatched_at < now() - make_interval(secs => ${o.staleSeconds})
        and not exists (select 1 from webhook_deliveries x where x.endpoint_id = d.endpoint_id and x.submission_id = d.submission_id and x.status = 'delivering')))
    limit ${o.limit}`;
}

export async function markDispatched(sql: Tx, lane: DeliveryLane): Promise<void> {
  await sql`
    update webhook_deliveries set dispatched_at = now()
    where endpoint_id = ${lane.endpointId} and submission_id = ${lane.submissionId} and status = 'pending'`;
}

// ---------------------------------------------------------------- deliveries

/** The lane's next delivery in event order (one already being delivered first), marked delivering. */
export async function claimNextDelivery(sql: Tx, lane: DeliveryLane): Promise<string | null> {
  const [r] = await sql<{ deliveryId: string }[]>`
    with next as (
      select delivery_id from webhook_deliveries
      where endpoint_id = ${lane.endpointId} and submission_id = ${lane.submissionId} and status in ('pending', 'delivering')
      order by seq limit 1
    )
    update webhook_deliveries d set status = 'delivering' from next where d.delivery_id = next.delivery_id
    returning d.delivery_id`;
  return r?.deliveryId ?? null;
}

export interface DeliveryToSend {
  deliveryId: string;
  status: string;
  endpointId: string;
  url: string;
  endpointDeleted: boolean;
  event: PartnerEvent;
}

export async function deliveryToSend(sql: Tx, deliveryId: string, publicBaseUrl: string): Promise<DeliveryToSend | undefined> {
  const [d] = await sql<{ deliveryId: string; status: string; endpointId: string; url: string; deletedAt: Date | null; eventId: string }[]>`
    select d.delivery_id, d.status, d.endpoint_id, ep.url, ep.deleted_at, d.event_id
    from webhook_deliveries d join webhook_endpoints ep on ep.endpoint_id = d.endpoint_id where d.delivery_id = ${deliveryId}`;
  if (!d) return undefined;
  const [e] = await sql<EventRow[]>`${eventSelect(sql)} where e.event_id = ${d.eventId}`;
  return { deliveryId: d.deliveryId, status: d.status, endpointId: d.endpointId, url: d.url, endpointDeleted: d.deletedAt !== null, event: partnerEvent(e!, publicBaseUrl) };
}

/** One attempt's outcome: the log row, the delivery's last answer and, when it failed, the next retry. */
export async function recordAttempt(
  sql: Sql,
  o: { deliveryId: string; statusCode: number | null; error: string | null; durationMs: number; ok: boolean; nextAttemptAt: Date | null },
): Promise<void> {
  await sql.begin(async (tx) => {
    const [d] = await tx<{ attempts: number }[]>`
      update webhook_deliveries set attempts = attempts + 1, last_status_code = ${o.statusCode}, last_error = ${o.error},
        status = case when ${o.ok} then 'succeeded' else status end,
        completed_at = case when ${o.ok} then now() else completed_at end,
        next_attempt_at = ${o.ok ? null : o.nextAttemptAt}
      where delivery_id = ${o.deliveryId} returning attempts`;
    if (!d) return;
    await tx`
      insert into webhook_attempts (delivery_id, attempt, status_code, error, duration_ms)
      values (${o.deliveryId}, ${d.attempts}, ${o.statusCode}, ${o.error}, ${o.durationMs})`;
  });
}

export async function finishDelivery(sql: Tx, deliveryId: string, status: 'failed' | 'cancelled', reason: string): Promise<void> {
  await sql`
    update webhook_deliveries set status = ${status}, completed_at = now(), next_attempt_at = null,
      last_error = coalesce(last_error, ${reason})
    where delivery_id = ${deliveryId} and status in ('pending', 'delivering')`;
}

export interface DeliveryLogRow {
  deliveryId: string;
  eventId: string;
  eventType: EventType;
  submissionId: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  completedAt: Date | null;
  seq: string;
  log: { attempt: number; at: string; statusCode: number | null; error: string | null; durationMs: number }[];
}

/** The endpoint's deliveries, newest event first, each with its attempts (keyset on seq). */
export async function deliveryLog(
  sql: Tx,
  o: { endpointId: string; status?: string | undefined; beforeSeq?: string | undefined; limit: number },
): Promise<{ rows: DeliveryLogRow[]; more: boolean }> {
  const none = sql``;
  const rows = await sql<DeliveryLogRow[]>`
    select d.delivery_id, d.event_id, e.event_type, d.submission_id, d.status, d.attempts, d.last_status_code, d.last_error,
      d.next_attempt_at, d.created_at, d.completed_at, d.seq::text as seq,
      coalesce((select json_agg(json_build_object('attempt', a.attempt, 'at', a.at, 'statusCode', a.status_code, 'error', a.error, 'durationMs', a.duration_ms) order by a.attempt)
        from webhook_attempts a where a.delivery_id = d.delivery_id), '[]'::json) as log
    from webhook_deliveries d join webhook_events e on e.event_id = d.event_id
    where d.endpoint_id = ${o.endpointId}
      ${o.status ? sql`and d.status = ${o.status}` : none}
      ${o.beforeSeq ? sql`and d.seq < ${o.beforeSeq}::bigint` : none}
    order by d.seq desc limit ${o.limit + 1}`;
  return { rows: rows.slice(0, o.limit), more: rows.length > o.limit };
}

/** Send a delivery again (whatever its state): back to pending, undispatched; the dispatcher picks it up. */
export async function redeliver(sql: Tx, endpointId: string, deliveryId: string): Promise<boolean> {
  const r = await sql`
    with again as (
      update webhook_deliveries set status = 'pending', dispatched_at = null, next_attempt_at = null, completed_at = null
      where delivery_id = ${deliveryId} and endpoint_id = ${endpointId} and status <> 'delivering'
      returning delivery_id
    )
    select pg_notify(${EVENTS_CHANNEL}, delivery_id) from again`;
  return r.length > 0;
}

export async function deliveryStatus(sql: Tx, endpointId: string, deliveryId: string): Promise<string | undefined> {
  const [d] = await sql<{ status: string }[]>`select status from webhook_deliveries where delivery_id = ${deliveryId} and endpoint_id = ${endpointId}`;
  return d?.status;
}
