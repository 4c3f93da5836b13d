// Local API keys: `<prefix>_<keyId>_<secret>`. Only a hash of the secret is stored, beside the
// non-secret key id; comparison is constant-time.
import crypto from 'node:crypto';
import type { Sql, Tx } from '../db';
import { InvalidCredentialError, type ProvenIdentity } from './types';

export const KEY_PREFIX = 'tpk';
const KEY_SHAPE = /^([a-z]{2,8})_([A-Za-z0-9]{12,32})_([A-Za-z0-9_-]{32,128})$/;

export function hashSecret(secret: string): Buffer {
  return crypto.createHash('sha256').update(secret).digest();
}

export function parseApiKey(key: string): { prefix: string; keyId: string; secret: string } | null {
  const m = KEY_SHAPE.exec(key);
  if (!m) return null;
  return { prefix: m[1]!, keyId: m[2]!, secret: m[3]! };
}

export interface NewApiKey {
  keyId: string;
  /** The whole key, shown once to its owner; only a hash of its secret is stored. */
  key: string;
  secret: string;
}

/** Fresh key material; nothing is stored until `storeApiKey`. */
export function generateApiKey(): NewApiKey {
  const keyId = crypto.randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
  const secret = crypto.randomBytes(32).toString('base64url');
  return { keyId, secret, key: `${KEY_PREFIX}_${keyId}_${secret}` };
}

/** Stores the hash of a generated key; `sql` may be a transaction (see createMappedApiKey in actors.ts). */
export async function storeApiKey(sql: Tx, k: NewApiKey, o: { organizationId: string; label?: string; ownerSubject?: string }): Promise<void> {
  await sql`
    insert into api_keys (key_id, prefix, secret_hash, label, organization_id, owner_subject)
    values (${k.keyId}, ${KEY_PREFIX}, ${hashSecret(k.secret)}, ${o.label ?? ''}, ${o.organizationId}, ${o.ownerSubject ?? null})`;
}

/** A key on its own, without a mapping (it proves an identity but may do nothing until mapped). */
export async function createApiKey(sql: Tx, o: { organizationId: string; label?: string; ownerSubject?: string }) {
  const k = generateApiKey();
  await storeApiKey(sql, k, o);
  return { keyId: k.keyId, key: k.key };
}

export async function revokeApiKey(sql: Sql, keyId: string): Promise<boolean> {
  const r = await sql`update api_keys set revoked_at = now() where key_id = ${keyId} and revoked_at is null`;
  return r.count === 1;
}

// A fixed dummy hash so unknown key ids cost the same comparison as known ones.
const DUMMY = hashSecret('dummy');

export async function verifyLocalApiKey(sql: Sql, key: string): Promise<ProvenIdentity> {
  const parsed = parseApiKey(key);
  if (!parsed) throw new InvalidCredentialError('malformed key');
  const rows = await sql<{ secretHash: Buffer; prefix: string; organizationId: string; revokedAt: Date | null; expired: boolean; lastUsedStale: boolean }[]>`
    select secret_hash, prefix, organization_id, revoked_at, coalesce(expires_at <= now(), false) as expired,
      (last_used_at is null or last_used_at < now() - interval '1 minute') as last_used_stale
    from api_keys where key_id = ${parsed.keyId}`;
  const row = rows[0];
  const ok = crypto.timingSafeEqual(row?.secretHash ?? DUMMY, hashSecret(parsed.secret));
  if (!row || !ok || row.prefix !== parsed.prefix) throw new InvalidCredentialError('unknown key');
  if (row.revokedAt) throw new InvalidCredentialError('revoked key');
  // Past its expiry (set at create, or by a rotation's overlap ending).
  if (row.expired) throw new InvalidCredentialError('expired key');
  // When it was last used, to the minute (the portal shows it); a failed write never fails the request.
  if (row.lastUsedStale) void sql`update api_keys set last_used_at = now() where key_id = ${parsed.keyId}`.catch(() => {});
  return { kind: 'api_key', subject: parsed.keyId, issuer: '', organizationId: row.organizationId };
}
