// The partner portal's session (issue 24): an HttpOnly, SameSite=Strict cookie holding a random
// token (only its hash is stored, lib/console/sessions.ts with surface `portal`), minted from a
// person's bearer token or a one-time link. Every request re-reads the person's actor mapping, so a
// permission removed takes effect at once; every write must echo the session's CSRF token in
// X-Portal-CSRF and come from this origin.
import type { Request, Response } from 'express';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { findSession } from '../../lib/console/sessions';
import { findActiveActor } from '../../lib/identity/actors';
import type { Actor } from '../auth/middleware';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { sameOrigin } from '../http/same-origin';

export { sameOrigin };

export const PORTAL_COOKIE = 'portal_session';
export const PORTAL_CSRF_HEADER = 'x-portal-csrf';
/** A session never outlives this, whatever the token's own expiry. */
export const PORTAL_SESSION_MAX_SECONDS = 12 * 3600;

export interface PortalLocals {
  actor: Actor;
  /** The person's token subject (as they signed in). */
  subject: string;
  csrf: string;
  expiresAt: Date;
  token: string;
}

export function setPortalCookie(deps: AppDeps, res: Response, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  res.append('Set-Cookie', serializeCookie(PORTAL_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/portal', maxAge, secure: deps.cfg.NODE_ENV === 'production' }));
}

export function clearPortalCookie(deps: AppDeps, res: Response): void {
  res.append('Set-Cookie', serializeCookie(PORTAL_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/portal', maxAge: 0, secure: deps.cfg.NODE_ENV === 'production' }));
}

/**
 * The `portal` auth kind of the route list: the session's person, still mapped (the route's rule
 * then asks for partner_api_keys:manage); writes need the CSRF token. Kept in res.locals.portal.
 */
/** The portal is the local identity provider's: with IDP_DRIVER=external it is not served. */
export function requireLocalPortal(deps: AppDeps): void {
  if (deps.cfg.IDP_DRIVER !== 'local')
    throw new AppError('not_found', `The partner portal is your identity provider's${deps.cfg.PARTNER_PORTAL_URL ? `: ${deps.cfg.PARTNER_PORTAL_URL}` : ''}.`);
}

export async function authenticatePortal(deps: AppDeps, req: Request, res: Response): Promise<Actor> {
  requireLocalPortal(deps);
  const token = parseCookies(req.headers.cookie ?? '')[PORTAL_COOKIE];
  const session = token ? await findSession(deps.sql, token, 'portal') : undefined;
  if (!token || !session) throw new AppError('unauthenticated', 'Sign in to the partner portal first (POST /portal/api/session, or a one-time link).');
  const actor = await findActiveActor(deps.sql, session.identity);
  if (!actor) throw new AppError('actor_not_mapped', 'Your sign-in has no active actor mapping any more.');
  if (req.method !== 'GET' && req.method !== 'HEAD' && (!sameOrigin(req) || req.get(PORTAL_CSRF_HEADER) !== session.csrf))
    throw new AppError('csrf_failed', 'This portal request lacks its X-Portal-CSRF token or comes from another origin.');
  res.locals.portal = { actor, subject: session.identity.subject, csrf: session.csrf, expiresAt: session.expiresAt, token } satisfies PortalLocals;
  res.set('cache-control', 'private, no-store');
  return actor;
}

export const portalOf = (res: Response) => res.locals.portal as PortalLocals;
