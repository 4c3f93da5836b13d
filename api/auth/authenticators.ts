// The credential each auth kind of the route list takes. `operator` is a mapped human operator's
// bearer token, or the review console's session: the console calls the same routes.
import type { Request } from 'express';
import { authenticate } from './middleware';
import type { SessionSurface } from './session-surface';
import type { Authenticator, Authenticators } from './kinds';

const headersOf = (req: Request) => ({ apiKey: req.get('x-api-key'), authorization: req.get('authorization') });

export function authenticators(surfaces: { console: SessionSurface; portal: SessionSurface }): Authenticators {
  const credential: Authenticator = (deps, req) => authenticate(deps, headersOf(req));
  const console: Authenticator = (deps, req, res) => surfaces.console.authenticate(deps, req, res);
  return {
    any: credential,
    api_key: credential,
    // A request with a credential header is judged by it; without one, by the console's session.
    operator: (deps, req, res) => (req.get('authorization') || req.get('x-api-key') || !surfaces.console.sessionOf(req) ? credential(deps, req, res) : console(deps, req, res)),
    console,
    portal: (deps, req, res) => surfaces.portal.authenticate(deps, req, res),
  };
}
