// The partner portal's key operations: an organization's API keys, listed, created,
// rotated with an overlap and revoked by its own people. The writes go through the owner's
// functions of migration 1700000021000 (the API's role may not write keys or mappings itself);
// they only make self-service partner keys, and audit every action without the secret.
import { KEY_PREFIX, generateApiKey, hashSecret } from '../identity/api-keys';
import { SELF_SERVICE_PERMISSIONS, type Permission } from '../identity/permissions';
import type { Sql } from '../db';
import type { PortalKey } from './types';

export type { PortalKey } from './types';

export class PortalKeyError extends Error {
  constructor(readonly reason: 'not_found' | 'permission_not_selectable') {
    super(reason);
    this.name = 'PortalKeyError';
  }
}

/** The functions raise these (SQLSTATE): a key that is not the organization's, or a permission outside the set. */
function portalError(err: unknown): never {
  const code = (err as { code?: string }).code;
  if (code === 'P0002') throw new PortalKeyError('not_found');
  if (code === '22023') throw new PortalKeyError('permission_not_selectable');
  throw err;
}

interface KeyRow {
  keyId: string;
  prefix: string;
  label: string;
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedBy: string | null;
  permissions: Permission[] | null;
  studioScope: string[] | null;
  artistScope: string[] | null;
  expired: boolean;
}

function view(r: KeyRow): PortalKey {
  const status = r.revokedAt ? 'revoked' : r.expired ? 'expired' : r.expiresAt ? 'expiring' : 'active';
  return {
    keyId: r.keyId,
    name: r.label,
    prefix: `${r.prefix}_${r.keyId}`,
    permissions: r.permissions ?? [],
    scopes: { studios: r.studioScope ?? [], artists: r.artistScope ?? [] },
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
    replacedBy: r.replacedBy,
    status,
    // What portal_rotate_key accepts (migrations/1700000021000_partner-portal.sql), said before the click.
    rotatable: (r.permissions ?? []).length > 0 && (r.permissions ?? []).every((p) => (SELF_SERVICE_PERMISSIONS as readonly Permission[]).includes(p)),
  };
}

const select = (sql: Sql) => sql`
  select k.key_id, k.prefix, k.label, k.created_by, k.created_at, k.last_used_at, k.expires_at, k.revoked_at, k.replaced_by,
    coalesce(k.expires_at <= now(), false) as expired, m.permissions, m.studio_scope, m.artist_scope
  from api_keys k
  left join actor_mappings m on m.credential_kind = 'api_key' and m.credential_issuer = '' and m.credential_subject = api_key_mapping_subject(k.key_id)`;

/** Every key of the organization, newest first (revoked and expired ones too, marked). */
export async function listKeys(sql: Sql, organizationId: string): Promise<PortalKey[]> {
  const rows = await sql<KeyRow[]>`${select(sql)} where k.organization_id = ${organizationId} order by k.created_at desc, k.key_id limit 500`;
  return rows.map(view);
}

export async function findKey(sql: Sql, organizationId: string, keyId: string): Promise<PortalKey | undefined> {
  const [row] = await sql<KeyRow[]>`${select(sql)} where k.organization_id = ${organizationId} and k.key_id = ${keyId}`;
  return row ? view(row) : undefined;
}

/** A new key; its secret is in the answer once and never again. */
export async function createKey(
  sql: Sql,
  o: { organizationId: string; by: string; name: string; permissions: readonly Permission[]; expiresAt?: Date | undefined },
): Promise<{ key: string; view: PortalKey }> {
  const k = generateApiKey();
  await sql`select portal_create_key(${k.keyId}, ${KEY_PREFIX}, ${hashSecret(k.secret)}, ${o.name}, ${o.organizationId}, ${o.by},
    ${o.expiresAt ?? null}, ${sql.array([...o.permissions])}::text[])`.catch(portalError);
  return { key: k.key, view: (await findKey(sql, o.organizationId, k.keyId))! };
}

/**
 * A new key for the same actor: the old key's mapping (role, permissions, capabilities, scopes)
 * moves to it, so the key's submissions and idempotency records stay its own; the old key works,
 * as that actor, for `overlapSeconds` more (0: revoked now).
 */
export async function rotateKey(
  sql: Sql,
  o: { organizationId: string; by: string; keyId: string; overlapSeconds: number },
): Promise<{ key: string; view: PortalKey; previousExpiresAt: string }> {
  const k = generateApiKey();
  const [row] = await sql<{ ends: Date }[]>`select portal_rotate_key(${o.keyId}, ${o.organizationId}, ${o.by}, ${o.overlapSeconds},
    ${k.keyId}, ${KEY_PREFIX}, ${hashSecret(k.secret)}) as ends`.catch(portalError);
  return { key: k.key, view: (await findKey(sql, o.organizationId, k.keyId))!, previousExpiresAt: row!.ends.toISOString() };
}

/** Revoked at once (401 from the next request); not_found for another organization's key or one revoked already. */
export async function revokeKey(sql: Sql, o: { organizationId: string; by: string; keyId: string }): Promise<PortalKey> {
  const [row] = await sql<{ done: boolean }[]>`select portal_revoke_key(${o.keyId}, ${o.organizationId}, ${o.by}) as done`;
  if (!row?.done) throw new PortalKeyError('not_found');
  return (await findKey(sql, o.organizationId, o.keyId))!;
}
