// Tokens for a Temporal frontend that runs the server's JWT authorizer and default claim mapper (the
// real server with TEMPORAL_AUTH=jwt, temporal/real-server.ts; a cluster configured as docs/deploy.md
// says). What the pinned server (1.32.2, common/authorization/default_jwt_claim_mapper.go and
// default_authorizer.go) reads: `sub`; `permissions`, a list of `<namespace>:<read|write|admin>`
// (`temporal-system:<role>` for the whole cluster); `aud`, which must equal the frontend's
// `global.authorization.audience`; `exp`. Signed ES256 (its key provider takes RS256 and ES256
// keys from a JWKS) with a key of its own, never the identity provider's: a token the API accepts
// is never one Temporal accepts. Signing is synchronous (node:crypto), so a connection's apiKey
// callback can mint when the token in hand is getting old.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JWK } from 'jose';
import { loadOrCreateFile } from '../lib/secrets';

/** `global.authorization.audience` of the frontend, and the `aud` of every token minted here. */
export const TEMPORAL_TOKEN_AUDIENCE = 'tattoo-intake-temporal';
/** `global.authorization.permissionsClaimName`. */
export const TEMPORAL_PERMISSIONS_CLAIM = 'permissions';
/** The embedded stack's signing key, under DATA_DIR/secrets (TEMPORAL_JWT_KEY_FILE names another). */
export const TEMPORAL_SIGNING_KEY_FILE = 'temporal-jwt-key.json';
/** The longest lifetime a token minted here may have (the on-call reader token's ceiling). */
export const TEMPORAL_TOKEN_MAX_SECONDS = 12 * 3600;
/** The claim mapper's scope for cluster-wide roles (primitives.SystemLocalNamespace). */
const SYSTEM_SCOPE = 'temporal-system';

export type TemporalRole = 'read' | 'write' | 'admin';
export const namespacePermission = (namespace: string, role: TemporalRole) => `${namespace}:${role}`;
/** A role on every namespace and the cluster's own calls (ListNamespaces, GetClusterInfo). */
export const systemPermission = (role: TemporalRole) => `${SYSTEM_SCOPE}:${role}`;
/** Cluster admin: what the launcher registers the namespace and its search attributes with. */
export const SYSTEM_ADMIN_PERMISSION = systemPermission('admin');

export interface TemporalSigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/** The key file at `file` (TEMPORAL_JWT_KEY_FILE, or the stack's under DATA_DIR/secrets). */
export function temporalKeyFileOf(cfg: { DATA_DIR: string; TEMPORAL_JWT_KEY_FILE?: string | undefined }): string {
  return cfg.TEMPORAL_JWT_KEY_FILE ?? path.join(cfg.DATA_DIR, 'secrets', TEMPORAL_SIGNING_KEY_FILE);
}

export function readTemporalSigningKey(file: string): TemporalSigningKey {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`no Temporal token signing key at ${file}: the stack launcher makes it (npm start -- --temporal server), so does npm run iam -- temporal-jwks; or set TEMPORAL_JWT_KEY_FILE`);
    throw err;
  }
  return JSON.parse(text) as TemporalSigningKey;
}

/** The embedded stack's key: made on first use (P-256), kept under DATA_DIR/secrets. */
export function loadOrCreateTemporalSigningKey(dataDir: string): TemporalSigningKey {
  const text = loadOrCreateFile(dataDir, TEMPORAL_SIGNING_KEY_FILE, () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const kid = `temporal-${Date.now().toString(36)}`;
    const key: TemporalSigningKey = {
      kid,
      privateJwk: { ...(privateKey.export({ format: 'jwk' }) as JWK), kid, alg: 'ES256' },
      publicJwk: { ...(publicKey.export({ format: 'jwk' }) as JWK), kid, alg: 'ES256', use: 'sig' },
    };
    return JSON.stringify(key);
  });
  return JSON.parse(text) as TemporalSigningKey;
}

/** The JWKS the frontend's `jwtKeyProvider.keySourceURIs` reads: the public half only. */
export const temporalJwks = (key: TemporalSigningKey) => ({ keys: [key.publicJwk] });

const b64url = (v: object | Buffer) => (Buffer.isBuffer(v) ? v : Buffer.from(JSON.stringify(v))).toString('base64url');

export interface TemporalTokenClaims {
  subject: string;
  permissions: string[];
  ttlSeconds: number;
}

export function mintTemporalToken(key: TemporalSigningKey, c: TemporalTokenClaims, now = Date.now()): string {
  if (!Number.isInteger(c.ttlSeconds) || c.ttlSeconds < 1 || c.ttlSeconds > TEMPORAL_TOKEN_MAX_SECONDS) {
    throw new RangeError(`a Temporal token lives 1 to ${TEMPORAL_TOKEN_MAX_SECONDS} seconds (got ${c.ttlSeconds})`);
  }
  const iat = Math.floor(now / 1000);
  const header = { alg: 'ES256', typ: 'JWT', kid: key.kid };
  const payload = { sub: c.subject, aud: TEMPORAL_TOKEN_AUDIENCE, iat, nbf: iat, exp: iat + c.ttlSeconds, [TEMPORAL_PERMISSIONS_CLAIM]: c.permissions };
  const input = `${b64url(header)}.${b64url(payload)}`;
  const privateKey = crypto.createPrivateKey({ key: key.privateJwk as crypto.JsonWebKey, format: 'jwk' });
  // JWS ES256 is the raw r||s pair, not DER.
  const signature = crypto.sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(signature)}`;
}

/**
 * A token that is always fresh enough: `current()` mints a new one once the one in hand has lived
 * two thirds of its lifetime (a 15-minute token is replaced after 10), so a caller never presents
 * one that expires in flight.
 */
export interface TokenSource {
  current(): string;
  /** Milliseconds between refreshes, for a holder that must be told (NativeConnection.setApiKey). */
  readonly refreshMs: number;
}

export function tokenSource(key: TemporalSigningKey, c: TemporalTokenClaims, clock: () => number = Date.now): TokenSource {
  const refreshMs = Math.floor((c.ttlSeconds * 1000 * 2) / 3);
  let token: { value: string; at: number } | undefined;
  return {
    refreshMs,
    current() {
      const now = clock();
      if (!token || now - token.at >= refreshMs) token = { value: mintTemporalToken(key, c, now), at: now };
      return token.value;
    },
  };
}
