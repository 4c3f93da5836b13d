import { z } from 'zod';
import type { Sql } from '../db';
import { verifyLocalApiKey } from './api-keys';
import { createBearerVerifier } from './jwt';
import { LOCAL_ALG, LOCAL_AUDIENCE } from './local-keys';
import { InvalidCredentialError, ProviderUnavailableError, type IdentityProvider, type ProvenIdentity } from './types';

export const LOCAL_ISSUER = 'urn:tattoo-intake:local-idp';
export const LOCAL_JWKS_PATH = '/.well-known/jwks.json';

export interface IdentitySettings {
  IDP_DRIVER: 'local' | 'external';
  IDP_JWKS_URL?: string | undefined;
  IDP_ISSUER?: string | undefined;
  IDP_AUDIENCE?: string | undefined;
  IDP_KEY_VERIFY_URL?: string | undefined;
  IDP_KEY_VERIFY_TOKEN?: string | undefined;
  IDP_ALGORITHMS: string;
  IDP_CLOCK_TOLERANCE_SECONDS: number;
}

/** The external provider's answer for an API key: non-secret identity and permission metadata. */
const keyVerifyAnswer = z.object({
  valid: z.boolean(),
  keyId: z.string().min(1).optional(),
  organizationId: z.string().min(1).optional(),
  permissions: z.array(z.string()).optional(),
});

async function verifyKeyRemotely(url: string, token: string | undefined, key: string): Promise<ProvenIdentity> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ key }),
      signal: AbortSignal.timeout(3000),
    });
  } catch {
    throw new ProviderUnavailableError('identity provider key verification unreachable');
  }
  if (res.status >= 500) throw new ProviderUnavailableError(`identity provider answered ${res.status}`);
  if (res.status === 401 || res.status === 403 || res.status === 404) throw new InvalidCredentialError('key not recognised');
  const parsed = keyVerifyAnswer.safeParse(await res.json().catch(() => null));
  if (!res.ok || !parsed.success) throw new ProviderUnavailableError('identity provider answered unexpectedly');
  if (!parsed.data.valid || !parsed.data.keyId) throw new InvalidCredentialError('key not valid');
  return {
    kind: 'api_key',
    subject: parsed.data.keyId,
    issuer: '',
    organizationId: parsed.data.organizationId,
    providerPermissions: parsed.data.permissions,
  };
}

export function createIdentityProvider(cfg: IdentitySettings, o: { sql: Sql; localJwksUrl: string }): IdentityProvider {
  if (cfg.IDP_DRIVER === 'local') {
    const verifyBearer = createBearerVerifier({
      jwksUrl: o.localJwksUrl,
      issuer: LOCAL_ISSUER,
      audience: LOCAL_AUDIENCE,
      algorithms: [LOCAL_ALG],
      clockToleranceSeconds: cfg.IDP_CLOCK_TOLERANCE_SECONDS,
    });
    return { driver: 'local', verifyBearer, verifyApiKey: (key) => verifyLocalApiKey(o.sql, key) };
  }
  const { IDP_JWKS_URL, IDP_ISSUER, IDP_AUDIENCE, IDP_KEY_VERIFY_URL } = cfg;
  if (!IDP_JWKS_URL || !IDP_ISSUER || !IDP_AUDIENCE || !IDP_KEY_VERIFY_URL) {
    throw new Error('IDP_DRIVER=external needs IDP_JWKS_URL, IDP_ISSUER, IDP_AUDIENCE and IDP_KEY_VERIFY_URL');
  }
  const verifyBearer = createBearerVerifier({
    jwksUrl: IDP_JWKS_URL,
    issuer: IDP_ISSUER,
    audience: IDP_AUDIENCE,
    // `none` and HMAC algorithms are never accepted, whatever the configuration says.
    algorithms: cfg.IDP_ALGORITHMS.split(',').map((a) => a.trim()).filter((a) => a && a !== 'none' && !a.startsWith('HS')),
    clockToleranceSeconds: cfg.IDP_CLOCK_TOLERANCE_SECONDS,
  });
  return {
    driver: 'external',
    verifyBearer,
    verifyApiKey: (key) => verifyKeyRemotely(IDP_KEY_VERIFY_URL, cfg.IDP_KEY_VERIFY_TOKEN, key),
  };
}

export type { IdentityProvider };
