// From events to deliveries: the fan-out of each event to the endpoints that hear it, and the
// dispatcher's marks on the endpoints whose deliverer should run (started, touched, released).
import type { Sql, Tx } from '../db';
import { DELIVERIES_CHANNEL } from './wakeups';

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
