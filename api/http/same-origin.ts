import type { Request } from 'express';

/**
 * Same-origin only: a browser's Origin (sent on every cross-site POST) must be this API's: the same
 * scheme, host and port (the scheme as the request came, behind a trusted proxy its
 * X-Forwarded-Proto). A request without one (not from a browser page, or a same-origin GET) passes.
 * The console's and the partner portal's cookie-authenticated writes use it beside their CSRF tokens.
 */
export function sameOrigin(req: Request): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).origin === new URL(`${req.protocol}://${req.headers.host ?? ''}`).origin;
  } catch {
    return false;
  }
}
