// The credential kinds of the route list, and what proves each one.
import type { Request, Response } from 'express';
import type { AppDeps } from '../deps';
import type { Actor } from './middleware';

/**
 * public: no credential; any: X-API-Key or bearer; api_key: X-API-Key only; operator: bearer of a
 * mapped human operator; portal: the partner portal's session cookie (a person signed in with their
 * bearer token; writes also carry X-Portal-CSRF); console: the review console's session cookie (a
 * mapped human operator signed in with their bearer token; writes also carry X-Console-CSRF);
 * codec: as operator, for the Temporal codec endpoint (api/routes/temporal-codec.ts), whose POSTs
 * change nothing: the console session needs no X-Console-CSRF there when the request comes from
 * this origin or from the Temporal Web UI's (TEMPORAL_UI_URL), which cannot send it.
 */
export type Auth = 'public' | 'any' | 'api_key' | 'operator' | 'portal' | 'console' | 'codec';

/** Proves the request's credential for an auth kind; built in server.ts (the sessions are the console's and the portal's). */
export type Authenticator = (deps: AppDeps, req: Request, res: Response) => Promise<Actor>;
export type Authenticators = Readonly<Record<Exclude<Auth, 'public'>, Authenticator>>;
