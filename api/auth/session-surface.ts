// A cookie surface (the review console, the partner portal): a person signs in with their bearer
// token or a one-time link and gets an HttpOnly, SameSite=Strict cookie holding a random token (only
// its hash is stored, lib/console/sessions.ts). Every request re-reads the person's actor mapping, so
// a permission removed takes effect at once; every write must echo the session's CSRF token in the
// surface's header and come from this origin. One factory serves both surfaces.
import type { Request, Response } from 'express';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { findSession, type SessionSurface as SurfaceId } from '../../lib/console/sessions';
import { findActiveActor } from '../../lib/identity/actors';
import type { ProvenIdentity } from '../../lib/identity/types';
import type { Actor } from './middleware';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { sameOrigin } from '../http/same-origin';

/** A session never outlives this, whatever the token's own expiry. */
export const SESSION_MAX_SECONDS = 12 * 3600;

export interface SessionLocals {
  actor: Actor;
  /** The person's token subject (as they signed in). */
  subject: string;
  csrf: string;
  expiresAt: Date;
  token: string;
}

/** The surface whose session authenticated this request (undefined: a credential header). */
export const surfaceOf = (res: Response) => res.locals.surface as SurfaceId | undefined;

export interface SurfaceOptions {
  id: SurfaceId;
  /** How messages name it: 'console', 'partner portal'. */
  title: string;
  /** The page (and the one-time link's landing): '/console', '/portal'. */
  home: string;
  /** Where the cookie is sent. */
  cookiePath: string;
  cookie: string;
  /** The CSRF header as messages spell it: 'X-Console-CSRF'. */
  csrfHeader: string;
  /** Who may sign in: an actively mapped person (else actor_not_mapped with this message) whom `allow` lets in (it throws the problem when not). */
  unmapped: string;
  allow(actor: Actor): void;
  /** What each request checks again (default: the same); the routes' own rules come after it. */
  eachRequest?: { unmapped: string; allow?(actor: Actor): void };
  /** Throws when this deployment does not serve the surface. */
  served?(deps: AppDeps): void;
}

export interface SessionSurface extends SurfaceOptions {
  /** The person behind a proven identity, if they may sign in (throws the problem when not). */
  admit(deps: AppDeps, identity: ProvenIdentity): Promise<Actor>;
  sessionOf(req: Request): string | undefined;
  setCookie(deps: AppDeps, res: Response, token: string, expiresAt: Date): void;
  clearCookie(deps: AppDeps, res: Response): void;
  /**
   * The auth kind of the route list: the session's person, still admitted; writes need the CSRF
   * token and this origin, unless `csrfExempt` (a POST that changes nothing, from an origin the caller trusts).
   */
  authenticate(deps: AppDeps, req: Request, res: Response, opts?: { csrfExempt?: boolean }): Promise<Actor>;
  localsOf(res: Response): SessionLocals;
}

export function sessionSurface(o: SurfaceOptions): SessionSurface {
  const cookieOf = (deps: AppDeps, token: string, maxAge: number) =>
    serializeCookie(o.cookie, token, { httpOnly: true, sameSite: 'strict', path: o.cookiePath, maxAge, secure: deps.cfg.NODE_ENV === 'production' });
  const localsKey = `session:${o.id}`;
  const check = (c: { unmapped: string; allow?(actor: Actor): void }) => async (deps: AppDeps, identity: ProvenIdentity) => {
    const actor = await findActiveActor(deps.sql, identity);
    if (!actor) throw new AppError('actor_not_mapped', c.unmapped);
    c.allow?.(actor);
    return actor;
  };
  const admit = check(o);
  const current = o.eachRequest ? check(o.eachRequest) : admit;
  return {
    ...o,
    admit,
    sessionOf: (req) => parseCookies(req.headers.cookie ?? '')[o.cookie],
    setCookie(deps, res, token, expiresAt) {
      res.append('Set-Cookie', cookieOf(deps, token, Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000))));
    },
    clearCookie(deps, res) {
      res.append('Set-Cookie', cookieOf(deps, '', 0));
    },
    async authenticate(deps, req, res, opts = {}) {
      o.served?.(deps);
      const token = this.sessionOf(req);
      const session = token ? await findSession(deps.sql, token, o.id) : undefined;
      if (!token || !session) throw new AppError('unauthenticated', `Sign in to the ${o.title} first (POST ${o.home}/api/session, or a one-time link).`);
      const actor = await current(deps, session.identity);
      if (req.method !== 'GET' && req.method !== 'HEAD' && !opts.csrfExempt && (!sameOrigin(req) || req.get(o.csrfHeader) !== session.csrf))
        throw new AppError('csrf_failed', `This ${o.id} request lacks its ${o.csrfHeader} token or comes from another origin.`);
      res.locals.surface = o.id;
      res.locals[localsKey] = { actor, subject: session.identity.subject, csrf: session.csrf, expiresAt: session.expiresAt, token } satisfies SessionLocals;
      res.set('cache-control', 'private, no-store');
      return actor;
    },
    localsOf: (res) => res.locals[localsKey] as SessionLocals,
  };
}
