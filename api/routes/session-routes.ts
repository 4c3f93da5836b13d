// The four routes of a cookie surface (api/auth/session-surface.ts): sign in with a bearer token,
// sign in with a one-time link, who is signed in, sign out. The console and the portal each mount
// them with their own answers.
import type { Response } from 'express';
import { z } from 'zod';
import { revokeSession } from '../../lib/console/sessions';
import type { Permission } from '../../lib/identity/permissions';
import type { ProvenIdentity } from '../../lib/identity/types';
import type { Actor } from '../auth/middleware';
import type { SessionLocals, SessionSurface } from '../auth/session-surface';
import { sessionFromBearer, sessionFromLink } from '../auth/signin';
import { AppError } from '../http/errors';
import { sameOrigin } from '../http/same-origin';
import { defineRoute, reply, type Auth, type Route } from '../routing/route';

const sessionBody = z.object({ token: z.string().min(20).max(8192) }).strict();
const signinQuery = z.object({ code: z.string().min(20).max(200) }).strict();

type Envelope<T extends z.ZodType> = z.ZodObject<{ success: z.ZodLiteral<true>; data: T }>;

export interface SessionRoutes<SignedIn extends z.ZodType, Me extends z.ZodType> {
  surface: SessionSurface;
  /** How summaries name it: 'review console', 'partner portal'. */
  name: string;
  tag: string;
  auth: Extract<Auth, 'console' | 'portal'>;
  permission: Permission;
  /** The one-time link route's summary (where links come from). */
  linkSummary: string;
  signedIn: { description: string; schema: Envelope<SignedIn>; data(s: { identity: ProvenIdentity; actor: Actor; csrf: string; expiresAt: Date }): z.input<SignedIn> };
  me: { description: string; schema: Envelope<Me>; data(s: SessionLocals): z.input<Me> };
}

export function sessionRoutes<SignedIn extends z.ZodType, Me extends z.ZodType>(o: SessionRoutes<SignedIn, Me>): Route[] {
  const { surface } = o;
  const signin = { doc: 'intake', tag: o.tag, auth: 'public' } as const;
  const signedInAs = { doc: 'intake', tag: o.tag, auth: o.auth, permission: o.permission } as const;
  const notServed = surface.served ? ([404] as const) : [];
  const localsOf = (res: Response) => surface.localsOf(res);
  return [
    defineRoute({
      ...signin, method: 'post', path: `${surface.home}/api/session`, operationId: `${surface.id}SignIn`,
      summary: `Sign in to the ${o.name} with your bearer token: sets the session cookie`,
      body: sessionBody, problems: [401, 403, ...notServed, 503],
      // The answers are typed where the surface gives its schemas and payloads (SessionRoutes).
      ok: { 201: [o.signedIn.description, o.signedIn.schema as z.ZodType] },
      async handler({ deps, req, res, body }) {
        surface.served?.(deps);
        if (!sameOrigin(req)) throw new AppError('csrf_failed', `Sign in from the ${surface.id} page itself.`);
        const session = await sessionFromBearer(deps, surface, body.token);
        surface.setCookie(deps, res, session.token, session.expiresAt);
        res.set('cache-control', 'no-store');
        return reply(201, { data: o.signedIn.data(session) });
      },
    }),
    defineRoute({
      ...signin, method: 'get', path: `${surface.home}/signin`, operationId: `${surface.id}SignInLink`,
      summary: o.linkSummary,
      query: signinQuery, problems: [403, ...notServed],
      ok: { 303: [`to ${surface.home}, signed in; or to ${surface.home}?signin=expired when the link is used or expired`, null] },
      async handler({ deps, res, query }) {
        surface.served?.(deps);
        const session = await sessionFromLink(deps, surface, query.code);
        if (!session) return res.redirect(303, `${surface.home}?signin=expired`);
        surface.setCookie(deps, res, session.token, session.expiresAt);
        res.redirect(303, surface.home);
      },
    }),
    defineRoute({
      ...signedInAs, method: 'get', path: `${surface.home}/api/me`, operationId: `${surface.id}Me`, summary: 'Who is signed in, and the CSRF token for writes',
      ok: { 200: [o.me.description, o.me.schema as z.ZodType] },
      handler: ({ res }) => ({ data: o.me.data(localsOf(res)) }),
    }),
    defineRoute({
      ...signedInAs, method: 'delete', path: `${surface.home}/api/session`, operationId: `${surface.id}SignOut`, summary: 'Sign out: the session ends and the cookie is cleared',
      ok: { 204: ['signed out', null] },
      async handler({ deps, res }) {
        await revokeSession(deps.sql, localsOf(res).token);
        surface.clearCookie(deps, res);
        res.status(204).end();
      },
    }),
  ];
}
