import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { InvalidCredentialError, ProviderUnavailableError, type ProvenIdentity } from './types';

/**
 * The oldest bearer token accepted (seconds since its `iat`), and the longest lifetime (`exp - iat`)
 * one may claim: a token minted with an `exp` a century out is refused, not honoured for a century.
 */
export const MAX_TOKEN_AGE_SECONDS = 24 * 3600;

/** Header `typ` values accepted when the provider sets one (RFC 7519 / RFC 9068); none set is fine too. */
const ACCEPTED_TYPS = new Set(['jwt', 'at+jwt']);

export interface JwtSettings {
  jwksUrl: string;
  issuer: string;
  audience: string;
  algorithms: string[];
  clockToleranceSeconds: number;
  /** Defaults to MAX_TOKEN_AGE_SECONDS. */
  maxTokenAgeSeconds?: number;
}

/** `application/at+jwt` and `at+JWT` are the same type (RFC 7515 4.1.9: case-insensitive, prefix optional). */
const normalTyp = (typ: string) => typ.toLowerCase().replace(/^application\//, '');

/** One remote JWKS per process (jose caches keys and refetches on an unknown kid). */
export function createBearerVerifier(s: JwtSettings): (token: string) => Promise<ProvenIdentity> {
  const jwks: JWTVerifyGetKey = createRemoteJWKSet(new URL(s.jwksUrl), { timeoutDuration: 3000, cooldownDuration: 30_000 });
  const maxAge = s.maxTokenAgeSeconds ?? MAX_TOKEN_AGE_SECONDS;
  return async (token) => {
    let verified: Awaited<ReturnType<typeof jwtVerify>>;
    try {
      // maxTokenAge makes `iat` required, refuses one older than maxAge and one in the future
      // beyond the clock tolerance.
      verified = await jwtVerify(token, jwks, {
        issuer: s.issuer,
        audience: s.audience,
        algorithms: s.algorithms,
        clockTolerance: s.clockToleranceSeconds,
        maxTokenAge: maxAge,
        requiredClaims: ['sub', 'exp', 'iat', 'iss', 'aud'],
      });
    } catch (err) {
      // The key set could not be fetched: the provider is away, not the caller wrong.
      if (err instanceof errors.JWKSTimeout || (err instanceof Error && /fetch failed|ECONNREFUSED|Expected 200 OK/i.test(err.message))) {
        throw new ProviderUnavailableError('identity provider key set unreachable');
      }
      if (err instanceof errors.JOSEError) throw new InvalidCredentialError(err.code);
      if (err instanceof TypeError) throw new ProviderUnavailableError('identity provider key set unreachable');
      throw new InvalidCredentialError('malformed token');
    }
    const { payload, protectedHeader } = verified;
    const { typ } = protectedHeader;
    if (typ !== undefined && (typeof typ !== 'string' || !ACCEPTED_TYPS.has(normalTyp(typ)))) throw new InvalidCredentialError('unexpected token type');
    // Both are numbers here: jose checked them (required, numeric dates).
    if ((payload.exp as number) - (payload.iat as number) > maxAge) throw new InvalidCredentialError('token lifetime exceeds the maximum');
    return { kind: 'bearer', subject: String(payload.sub), issuer: String(payload.iss) };
  };
}
