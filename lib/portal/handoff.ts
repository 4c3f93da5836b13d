// The docs handoff (the contract's section 5 rule 5): the portal gives the browser an
// encrypted token holding a key it just made, so that /docs can prefill X-API-Key, and only while:
// the browser has an active portal session; the handoff's person and organization are the
// session's; that person still holds partner_api_keys:manage; the handoff has not expired and the
// key is not revoked. The token is a JWE (dir + A256GCM, jose) under PORTAL_HANDOFF_KEY (32 bytes;
// generated into DATA_DIR/secrets outside production): the browser keeps it but cannot read it.
import { EncryptJWT, jwtDecrypt } from 'jose';

export interface HandoffClaims {
  /** The whole API key. */
  key: string;
  keyId: string;
  /** The person (actor id) and organization it was made for. */
  actorId: string;
  organizationId: string;
  /** Seconds since the epoch. */
  exp: number;
}

/** The 32-byte content key from its base64 or base64url text. */
export function handoffKeyOf(text: string): Uint8Array {
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 32) throw new Error('PORTAL_HANDOFF_KEY must be 32 bytes (base64)');
  return new Uint8Array(bytes);
}

export async function sealHandoff(secret: Uint8Array, c: Omit<HandoffClaims, 'exp'>, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }> {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  const token = await new EncryptJWT({ key: c.key, keyId: c.keyId, org: c.organizationId })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setSubject(c.actorId)
    .setIssuedAt()
    .setExpirationTime(exp)
    .encrypt(secret);
  return { token, expiresAt: new Date(exp * 1000) };
}

/** The claims, or why not: not ours (tampered, another key), or expired. */
export async function openHandoff(secret: Uint8Array, token: string): Promise<{ ok: true; claims: HandoffClaims } | { ok: false; reason: 'invalid' | 'expired' }> {
  try {
    const { payload } = await jwtDecrypt(token, secret, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    const { key, keyId, org } = payload as { key?: unknown; keyId?: unknown; org?: unknown };
    if (typeof key !== 'string' || typeof keyId !== 'string' || typeof org !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return { ok: false, reason: 'invalid' };
    return { ok: true, claims: { key, keyId, organizationId: org, actorId: payload.sub, exp: payload.exp } };
  } catch (err) {
    return { ok: false, reason: (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid' };
  }
}
