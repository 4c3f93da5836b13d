// Webhook SQL: endpoints and their secrets, the events (feed and payloads), the fan-out of events
// to endpoints, the dispatch marks, the deliverers' claims (leases) and the delivery log. Explicit column lists, parameters only.
import crypto from 'node:crypto';
import type { Sql, Tx } from '../db';
import { DECIDED } from '../intake/lifecycle';
import { statusView } from '../intake/status-view';
import type { IntakeView } from '../intake/vocabulary';
import { EVENTS_CHANNEL, type EventType } from './events';
import { DELIVERIES_CHANNEL } from './wakeups';
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
      where i.submission_id = e.submission_id and i.to_status = any(${[...DECIDED]}) and i.at <= e.occurred_at) as decided_at
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
      returning endpoint_id
    ), marked as (
      update webhook_events set fanned_out = true where event_id in (select event_id from ev) returning 1
    ), woken as (
      -- The endpoints' running deliverers hear of it at commit (lib/webhooks/wakeups.ts), in whichever worker they run.
      select pg_notify(${DELIVERIES_CHANNEL}, endpoint_id) from (select distinct endpoint_id from ins) x
    )
    select (select count(*) from marked)::int as events, (select count(*) from ins)::int as deliveries, (select count(*) from woken)::int as woken`;
  return r!.events;
}

/** How long a claimed delivery stays the claimer's (an attempt is at most 5 s): past it, a deliverer that died has lost it. */
export const DELIVERY_LEASE_SECONDS = 30;

/**
 * Endpoints whose deliverer must be started or woken: not running now (`deliverer_until` past), with
 * a delivery nobody was told of, or one overdue for a while (its workflow is gone: a crash, a
 * termination). A running deliverer is never signalled: it hears of new deliveries by NOTIFY.
 */
export async function endpointsToDispatch(sql: Tx, o: { staleSeconds: number; limit: number }): Promise<string[]> {
  const rows = await sql<{ endpointId: string }[]>`
    select ep.endpoint_id from webhook_endpoints ep
    where (ep.deliverer_until is null or ep.deliverer_until < now())
      and exists (
        select 1 from webhook_deliveries d
        where d.endpoint_id = ep.endpoint_id and d.status in ('pending', 'delivering')
          and (d.dispatched_at is null
            or greatest(coalesce(d.next_attempt_at, d.dispatched_at), d.dispatched_at) < now() - make_interval(secs => ${o.staleSeconds})))
    limit ${o.limit}`;
  return rows.map((r) => r.endpointId);
}

/**
 * The endpoint's deliverer was signalled: its open deliveries are dispatched (the stale clock
 * restarts), and the deliverer counts as running for `startSeconds` (until its activity starts and
 * refreshes it), so the deliveries that come meanwhile do not signal it again.
 */
export async function markDispatched(sql: Tx, endpointId: string, startSeconds = 10): Promise<void> {
  await sql`
    with dispatched as (
      update webhook_deliveries set dispatched_at = now() where endpoint_id = ${endpointId} and status in ('pending', 'delivering')
    )
    update webhook_endpoints set deliverer_until = greatest(coalesce(deliverer_until, now()), now() + make_interval(secs => ${startSeconds}))
    where endpoint_id = ${endpointId}`;
}

/**
 * The deliverer of an endpoint is running until now + `seconds` (refreshed as it runs); answers
 * whether the endpoint is gone (deleted, or never existed).
 */
export async function touchDeliverer(sql: Tx, endpointId: string, seconds: number): Promise<{ gone: boolean }> {
  const [r] = await sql<{ deletedAt: Date | null }[]>`
    update webhook_endpoints set deliverer_until = now() + make_interval(secs => ${seconds})
    where endpoint_id = ${endpointId} returning deleted_at`;
  return { gone: !r || r.deletedAt !== null };
}

/**
 * The deliverer stops (it parks, goes idle or is stopped): cleared, and every open delivery of the
 * endpoint counted as dispatched (the deliverer has seen them). Then the caller looks again: a
 * delivery fanned out before this is found by that look; one after it makes the dispatcher signal.
 */
export async function releaseDeliverer(sql: Tx, endpointId: string): Promise<void> {
  await sql`
    with seen as (
      update webhook_deliveries set dispatched_at = now()
      where endpoint_id = ${endpointId} and status in ('pending', 'delivering') and dispatched_at is null
    )
    update webhook_endpoints set deliverer_until = null where endpoint_id = ${endpointId}`;
}

export interface ClaimedDelivery {
  deliveryId: string;
  submissionId: string;
  /** Attempts made before this one. */
  attempts: number;
  firstAttemptAt: Date;
}

const openHeads = (sql: Tx, endpointId: string, submissionId?: string) => sql`
  select distinct on (submission_id) delivery_id, seq, lease_until, next_attempt_at
  from webhook_deliveries
  where endpoint_id = ${endpointId} and status in ('pending', 'delivering')
    ${submissionId === undefined ? sql`` : sql`and submission_id = ${submissionId}`}
  order by submission_id, seq`;

/**
 * Claim up to `limit` deliveries of the endpoint that are due: each the first open one of its
 * submission (order per submission), not leased by anyone (one in flight per submission), its next
 * attempt time reached. Leased for DELIVERY_LEASE_SECONDS and marked delivering.
 */
export async function claimDue(sql: Tx, o: { endpointId: string; limit: number; submissionId?: string }): Promise<ClaimedDelivery[]> {
  if (o.limit <= 0) return [];
  return sql<ClaimedDelivery[]>`
    with heads as (${openHeads(sql, o.endpointId, o.submissionId)}),
    due as (
      select delivery_id from heads
      where (lease_until is null or lease_until < now()) and (next_attempt_at is null or next_attempt_at <= now())
      order by seq limit ${o.limit}
    )
    update webhook_deliveries d set status = 'delivering',
      lease_until = now() + make_interval(secs => ${DELIVERY_LEASE_SECONDS}),
      first_attempt_at = coalesce(d.first_attempt_at, now()),
      dispatched_at = coalesce(d.dispatched_at, now())
    from due
    where d.delivery_id = due.delivery_id and d.status in ('pending', 'delivering') and (d.lease_until is null or d.lease_until < now())
    returning d.delivery_id, d.submission_id, d.attempts, d.first_attempt_at`;
}

/**
 * In how many seconds the endpoint's first head can next be claimed (its retry time, or the end of a
 * lease a dead deliverer left; 0: now), by the database's clock; null when nothing is open.
 */
export async function nextClaimIn(sql: Tx, endpointId: string): Promise<number | null> {
  const [r] = await sql<{ seconds: number | null }[]>`
    with heads as (${openHeads(sql, endpointId)})
    select extract(epoch from min(greatest(coalesce(next_attempt_at, now()), coalesce(lease_until, now()))) - now())::float8 as seconds from heads`;
  return r!.seconds === null ? null : Math.max(0, r!.seconds);
}

/** Give claimed deliveries back unattempted (the deliverer is stopping): the next one takes them at once. */
export async function releaseClaims(sql: Tx, deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await sql`update webhook_deliveries set lease_until = null where delivery_id = any(${deliveryIds}) and status = 'delivering'`;
}

/** The endpoint is deleted: every delivery still open to it is cancelled. */
export async function cancelOpenDeliveries(sql: Tx, endpointId: string): Promise<number> {
  const r = await sql`
    update webhook_deliveries set status = 'cancelled', completed_at = now(), next_attempt_at = null, lease_until = null,
      last_error = coalesce(last_error, 'endpoint deleted')
    where endpoint_id = ${endpointId} and status in ('pending', 'delivering')`;
  return r.count;
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
  // One round trip: the delivery, its endpoint and its event as the partner receives it.
  const [r] = await sql<(EventRow & { deliveryId: string; deliveryStatus: string; endpointId: string; endpointUrl: string; endpointDeletedAt: Date | null })[]>`
    with dd as (
      select d.delivery_id, d.status, d.endpoint_id, d.event_id, ep.url, ep.deleted_at
      from webhook_deliveries d join webhook_endpoints ep on ep.endpoint_id = d.endpoint_id where d.delivery_id = ${deliveryId}
    )
    select ev.*, dd.delivery_id, dd.status as delivery_status, dd.endpoint_id, dd.url as endpoint_url, dd.deleted_at as endpoint_deleted_at
    from dd cross join lateral (${eventSelect(sql)} where e.event_id = dd.event_id) ev`;
  if (!r) return undefined;
  return { deliveryId: r.deliveryId, status: r.deliveryStatus, endpointId: r.endpointId, url: r.endpointUrl, endpointDeleted: r.endpointDeletedAt !== null, event: partnerEvent(r, publicBaseUrl) };
}

/**
 * One attempt's outcome, in one statement: the log row, the delivery's last answer and either its
 * next retry, or (`final`) its end: succeeded when the attempt did, else failed with `final` as the reason.
 */
export async function recordAttempt(
  sql: Tx,
  o: { deliveryId: string; statusCode: number | null; error: string | null; durationMs: number; ok: boolean; nextAttemptAt: Date | null; failedBecause?: string | undefined },
): Promise<void> {
  const ends = o.ok || o.failedBecause !== undefined;
  await sql`
    with d as (
      update webhook_deliveries set attempts = attempts + 1, last_status_code = ${o.statusCode},
        last_error = ${o.error ?? (o.ok ? null : (o.failedBecause ?? null))},
        status = ${o.ok ? 'succeeded' : ends ? 'failed' : sql`status`},
        completed_at = ${ends ? sql`now()` : sql`completed_at`},
        next_attempt_at = ${ends ? null : o.nextAttemptAt}, lease_until = null
      where delivery_id = ${o.deliveryId} returning delivery_id, attempts
    )
    insert into webhook_attempts (delivery_id, attempt, status_code, error, duration_ms)
    select delivery_id, attempts, ${o.statusCode}, ${o.error}, ${o.durationMs} from d`;
}

export async function finishDelivery(sql: Tx, deliveryId: string, status: 'failed' | 'cancelled', reason: string): Promise<void> {
  await sql`
    update webhook_deliveries set status = ${status}, completed_at = now(), next_attempt_at = null, lease_until = null,
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
      update webhook_deliveries set status = 'pending', dispatched_at = null, next_attempt_at = null, completed_at = null,
        lease_until = null, first_attempt_at = null
      where delivery_id = ${deliveryId} and endpoint_id = ${endpointId} and status <> 'delivering'
      returning delivery_id, endpoint_id
    )
    -- The dispatcher (a stopped deliverer) and the endpoint's running deliverer both hear of it.
    select pg_notify(${EVENTS_CHANNEL}, delivery_id), pg_notify(${DELIVERIES_CHANNEL}, endpoint_id) from again`;
  return r.length > 0;
}

export async function deliveryStatus(sql: Tx, endpointId: string, deliveryId: string): Promise<string | undefined> {
  const [d] = await sql<{ status: string }[]>`select status from webhook_deliveries where delivery_id = ${deliveryId} and endpoint_id = ${endpointId}`;
  return d?.status;
}
