// The credential each auth kind of the route list takes. `operator` is a mapped human operator's
// bearer token, or the review console's session: the console calls the same routes.
import type { Request } from 'express';
import { sameOrigin } from '../http/same-origin';
import { isTemporalUiOrigin } from '../http/temporal-ui-cors';
import { authenticate } from './middleware';
import type { SessionSurface } from './session-surface';
import type { Authenticator, Authenticators } from './kinds';

const headersOf = (req: Request) => ({ apiKey: req.get('x-api-key'), authorization: req.get('authorization') });

export function authenticators(surfaces: { console: SessionSurface; portal: SessionSurface }): Authenticators {
  const credential: Authenticator = (deps, req) => authenticate(deps, headersOf(req));
  const console: Authenticator = (deps, req, res) => surfaces.console.authenticate(deps, req, res);
  // A request with a credential header is judged by it; without one, by the console's session.
  const byHeaderOr = (session: Authenticator): Authenticator => (deps, req, res) =>
    req.get('authorization') || req.get('x-api-key') || !surfaces.console.sessionOf(req) ? credential(deps, req, res) : session(deps, req, res);
  return {
    any: credential,
    api_key: credential,
    operator: byHeaderOr(console),
    codec: byHeaderOr((deps, req, res) => surfaces.console.authenticate(deps, req, res, { csrfExempt: sameOrigin(req) || isTemporalUiOrigin(deps.cfg, req.headers.origin) })),
    console,
    portal: (deps, req, res) => surfaces.portal.authenticate(deps, req, res),
  };
}
