// Webhook endpoints and their signing secrets (sealed at rest, opened to sign): register, list,
// delete, rotate. Explicit column lists, parameters only.
import crypto from 'node:crypto';
import type { Sql, Tx } from '../db';
import type { EventType } from '../intake/outbox';
import type { SecretBox } from './secret-box';
import { newSecret } from './send';

const id = (prefix: string) => prefix + crypto.randomBytes(12).toString('hex');

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
