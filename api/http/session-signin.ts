// Signing in to a cookie surface (the review console, the partner portal): a person's bearer token
// or a one-time link becomes a session of that surface (lib/console/sessions.ts). `admit` says
// whether the person may use the surface (and throws the problem when not).
import { decodeJwt } from 'jose';
import { createSession, redeemSigninCode, type SessionSurface } from '../../lib/console/sessions';
import { InvalidCredentialError, ProviderUnavailableError, type ProvenIdentity } from '../../lib/identity/types';
import type { Actor } from '../auth/middleware';
import type { AppDeps } from '../deps';
import { AppError } from './errors';

type Admit = (deps: AppDeps, identity: ProvenIdentity) => Promise<Actor>;

/** A session from a bearer token: it lasts as long as the token, at most `maxSeconds` (an hour when the token names no expiry). */
export async function sessionFromBearer(deps: AppDeps, bearer: string, surface: SessionSurface, maxSeconds: number, admit: Admit) {
  let identity: ProvenIdentity;
  try {
    identity = await deps.identity.verifyBearer(bearer);
  } catch (err) {
    if (err instanceof InvalidCredentialError) throw new AppError('invalid_credential', 'The token is not valid.');
    if (err instanceof ProviderUnavailableError) throw new AppError('identity_provider_unavailable', 'The identity provider cannot be reached; try again shortly.');
    throw err;
  }
  const actor = await admit(deps, identity);
  const exp = decodeJwt(bearer).exp;
  const expiresAt = new Date(Math.min(Date.now() + maxSeconds * 1000, exp ? exp * 1000 : Date.now() + 3600 * 1000));
  const session = await createSession(deps.sql, identity, expiresAt, surface);
  return { identity, actor, token: session.token, csrf: session.csrf, expiresAt };
}

/** A session from a one-time link's code; undefined when the code is used, expired or another surface's. */
export async function sessionFromLink(deps: AppDeps, code: string, surface: SessionSurface, admit: Admit) {
  const redeemed = await redeemSigninCode(deps.sql, code, surface);
  if (!redeemed) return undefined;
  await admit(deps, redeemed.identity);
  const { token } = await createSession(deps.sql, redeemed.identity, redeemed.sessionExpiresAt, surface);
  return { token, expiresAt: redeemed.sessionExpiresAt };
}
