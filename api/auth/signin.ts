// Signing in to a cookie surface (the review console, the partner portal): a person's bearer token
// or a one-time link becomes a session of that surface (lib/console/sessions.ts). The surface's
// `admit` says whether the person may use it (and throws the problem when not).
import { decodeJwt } from 'jose';
import { createSession, redeemSigninCode } from '../../lib/console/sessions';
import { InvalidCredentialError, ProviderUnavailableError, type ProvenIdentity } from '../../lib/identity/types';
import { SESSION_MAX_SECONDS, type SessionSurface } from './session-surface';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';

/** A session from a bearer token: it lasts as long as the token, at most SESSION_MAX_SECONDS (an hour when the token names no expiry). */
export async function sessionFromBearer(deps: AppDeps, surface: SessionSurface, bearer: string) {
  let identity: ProvenIdentity;
  try {
    identity = await deps.identity.verifyBearer(bearer);
  } catch (err) {
    if (err instanceof InvalidCredentialError) throw new AppError('invalid_credential', 'The token is not valid.');
    if (err instanceof ProviderUnavailableError) throw new AppError('identity_provider_unavailable', 'The identity provider cannot be reached; try again shortly.');
    throw err;
  }
  const actor = await surface.admit(deps, identity);
  const exp = decodeJwt(bearer).exp;
  const expiresAt = new Date(Math.min(Date.now() + SESSION_MAX_SECONDS * 1000, exp ? exp * 1000 : Date.now() + 3600 * 1000));
  const session = await createSession(deps.sql, identity, expiresAt, surface.id);
  return { identity, actor, token: session.token, csrf: session.csrf, expiresAt };
}

/** A session from a one-time link's code; undefined when the code is used, expired or another surface's. */
export async function sessionFromLink(deps: AppDeps, surface: SessionSurface, code: string) {
  const redeemed = await redeemSigninCode(deps.sql, code, surface.id);
  if (!redeemed) return undefined;
  await surface.admit(deps, redeemed.identity);
  const { token } = await createSession(deps.sql, redeemed.identity, redeemed.sessionExpiresAt, surface.id);
  return { token, expiresAt: redeemed.sessionExpiresAt };
}
