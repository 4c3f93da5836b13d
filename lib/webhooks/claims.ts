// A deliverer's claims: the due head delivery of each submission, leased to it for a while, given
// back when it stops, cancelled when the endpoint goes.
import type { Tx } from '../db';
import { DELIVERY_LEASE_SECONDS } from './dispatch';

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
