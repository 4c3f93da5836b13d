import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { InvalidCredentialError, ProviderUnavailableError, type ProvenIdentity } from './types';

export interface JwtSettings {
  jwksUrl: string;
  issuer: string;
  audience: string;
  algorithms: string[];
  clockToleranceSeconds: number;
}

/** One remote JWKS per process (jose caches keys and refetches on an unknown kid). */
export function createBearerVerifier(s: JwtSettings): (token: string) => Promise<ProvenIdentity> {
  const jwks: JWTVerifyGetKey = createRemoteJWKSet(new URL(s.jwksUrl), { timeoutDuration: 3000, cooldownDuration: 30_000 });
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: s.issuer,
        audience: s.audience,
        algorithms: s.algorithms,
        clockTolerance: s.clockToleranceSeconds,
        requiredClaims: ['sub', 'exp', 'iss', 'aud'],
      });
      return { kind: 'bearer', subject: String(payload.sub), issuer: String(payload.iss) };
    } catch (err) {
      // The key set could not be fetched: the provider is away, not the caller wrong.
      if (err instanceof errors.JWKSTimeout || (err instanceof Error && /fetch failed|ECONNREFUSED|Expected 200 OK/i.test(err.message))) {
        throw new ProviderUnavailableError('identity provider key set unreachable');
      }
      if (err instanceof errors.JOSEError) throw new InvalidCredentialError(err.code);
      if (err instanceof TypeError) throw new ProviderUnavailableError('identity provider key set unreachable');
      throw new InvalidCredentialError('malformed token');
    }
  };
}
