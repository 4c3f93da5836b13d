// One delivery: what to send, its attempts and how it ended, the endpoint's delivery log, and a
// redelivery on request.
import { Counter } from 'prom-client';
import type { Tx } from '../db';
import { EVENTS_CHANNEL, type EventType } from '../intake/outbox';
import { eventSelect, partnerEvent, type EventRow, type PartnerEvent } from './feed';
import { DELIVERIES_CHANNEL } from './wakeups';

/** Where a delivery stands. */
export const deliveryStatuses = ['pending', 'delivering', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

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
 * Delivery attempts this process made, by outcome: sent (2xx), retry (failed, another is scheduled)
 * or failed (the delivery ended failed: refused target or retry window over). The worker's /metrics
 * registers it; the WebhookDeliveriesFailing alert reads it (ops/prometheus/alerts.yml).
 */
export const deliveryAttempts = new Counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts this process made, by outcome (sent, retry, failed: the delivery gave up)',
  labelNames: ['outcome'],
  registers: [],
});

/** The backlog the API's /metrics reports at each scrape: open deliveries and the age of the oldest. */
export async function deliveryBacklog(sql: Tx): Promise<{ open: number; oldestAgeSeconds: number }> {
  const [r] = await sql<{ open: number; age: number }[]>`
    select count(*)::int as open, coalesce(floor(extract(epoch from now() - min(created_at))), 0)::int as age
    from webhook_deliveries where status in ('pending', 'delivering')`;
  return { open: r?.open ?? 0, oldestAgeSeconds: r?.age ?? 0 };
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
  deliveryAttempts.inc({ outcome: o.ok ? 'sent' : ends ? 'failed' : 'retry' });
}

export interface DeliveryLogRow {
  deliveryId: string;
  eventId: string;
  eventType: EventType;
  submissionId: string;
  status: DeliveryStatus;
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
