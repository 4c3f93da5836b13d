// The local identity provider's signing key: generated on first start, kept under .data/secrets
// (never in git). Its public half is served as a JWKS so bearer tokens go through the same
// remote-JWKS verification as with an external provider.
import fs from 'node:fs';
import path from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { loadOrCreateFile } from '../secrets';
import { MAX_TOKEN_AGE_SECONDS } from './jwt';

export const LOCAL_ALG = 'ES256';
export const LOCAL_AUDIENCE = 'tattoo-intake-api';

export interface LocalSigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export async function loadOrCreateSigningKey(dataDir: string): Promise<LocalSigningKey> {
  // The key pair is made asynchronously, so only when the file is missing; written as loadOrCreateFile writes.
  const existing = readKeyFile(dataDir);
  if (existing) return existing;
  const { privateKey, publicKey } = await generateKeyPair(LOCAL_ALG, { extractable: true });
  const kid = `local-${Date.now().toString(36)}`;
  const key: LocalSigningKey = {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: LOCAL_ALG },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: LOCAL_ALG, use: 'sig' },
  };
  // Ours, or the one another process wrote first.
  return JSON.parse(loadOrCreateFile(dataDir, SIGNING_KEY_FILE, () => JSON.stringify(key))) as LocalSigningKey;
}

const SIGNING_KEY_FILE = 'idp-signing-key.json';

function readKeyFile(dataDir: string): LocalSigningKey | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets', SIGNING_KEY_FILE), 'utf8')) as LocalSigningKey;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return undefined;
  }
}

export async function issueLocalToken(
  key: LocalSigningKey,
  o: { subject: string; issuer: string; audience?: string; ttlSeconds?: number },
): Promise<string> {
  const ttl = o.ttlSeconds ?? 3600;
  // The verifier refuses a longer lifetime (lib/identity/jwt.ts); say so here rather than mint a dud.
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_AGE_SECONDS) throw new RangeError(`ttlSeconds must be an integer from 1 to ${MAX_TOKEN_AGE_SECONDS}`);
  const pk = await importJWK(key.privateJwk, LOCAL_ALG);
  return new SignJWT({})
    .setProtectedHeader({ alg: LOCAL_ALG, kid: key.kid, typ: 'JWT' })
    .setSubject(o.subject)
    .setIssuer(o.issuer)
    .setAudience(o.audience ?? LOCAL_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttl}s`)
    .sign(pk);
}
