// The review console's session (issue 14; in the route list since issue 27): an HttpOnly,
// SameSite=Strict cookie holding a random token (only its hash is stored, lib/console/sessions.ts),
// minted from an operator's bearer token or a one-time link. Every request re-reads the operator's
// mapping, so a permission removed takes effect at once; every write must echo the session's CSRF
// token in X-Console-CSRF and come from this origin.
import type { Request, Response } from 'express';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { findSession } from '../../lib/console/sessions';
import { findActiveActor } from '../../lib/identity/actors';
import type { ProvenIdentity } from '../../lib/identity/types';
import { isOperatorWith, type Actor } from '../auth/middleware';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { sameOrigin } from '../http/same-origin';

export const CONSOLE_COOKIE = 'console_session';
export const CONSOLE_CSRF_HEADER = 'x-console-csrf';
/** A session never outlives this, whatever the token's own expiry. */
export const CONSOLE_SESSION_MAX_SECONDS = 12 * 3600;

export interface ConsoleLocals {
  actor: Actor;
  csrf: string;
  expiresAt: Date;
  token: string;
}

/** The operator behind a proven credential, if it is still an active human operator who may review. */
export async function operatorOf(deps: AppDeps, identity: ProvenIdentity): Promise<Actor> {
  const actor = await findActiveActor(deps.sql, identity);
  if (!actor) throw new AppError('actor_not_mapped', 'The credential has no active actor mapping (any more).');
  if (!isOperatorWith(actor, 'portfolio_intake:review')) throw new AppError('operator_required', 'The console is for mapped human operators with portfolio_intake:review.');
  return actor;
}

export function setConsoleCookie(deps: AppDeps, res: Response, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  res.append('Set-Cookie', serializeCookie(CONSOLE_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/console', maxAge, secure: deps.cfg.NODE_ENV === 'production' }));
}

export function clearConsoleCookie(deps: AppDeps, res: Response): void {
  res.append('Set-Cookie', serializeCookie(CONSOLE_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/console', maxAge: 0, secure: deps.cfg.NODE_ENV === 'production' }));
}

/**
 * The `console` auth kind of the route list: the session's operator, still mapped as a human
 * operator with portfolio_intake:review (the route's rule may ask for more, e.g. portfolios:publish);
 * writes need the CSRF token and this origin. Kept in res.locals.console.
 */
export async function authenticateConsole(deps: AppDeps, req: Request, res: Response): Promise<Actor> {
  const token = parseCookies(req.headers.cookie ?? '')[CONSOLE_COOKIE];
  const session = token ? await findSession(deps.sql, token, 'console') : undefined;
  if (!token || !session) throw new AppError('unauthenticated', 'Sign in to the console first (POST /console/api/session, or a one-time link).');
  const actor = await operatorOf(deps, session.identity);
  if (req.method !== 'GET' && req.method !== 'HEAD' && (!sameOrigin(req) || req.get(CONSOLE_CSRF_HEADER) !== session.csrf))
    throw new AppError('csrf_failed', 'This console request lacks its X-Console-CSRF token or comes from another origin.');
  res.locals.console = { actor, csrf: session.csrf, expiresAt: session.expiresAt, token } satisfies ConsoleLocals;
  res.set('cache-control', 'private, no-store');
  return actor;
}

export const consoleOf = (res: Response) => res.locals.console as ConsoleLocals;
