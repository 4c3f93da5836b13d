// Public writes are blocked (contract 4.3, DESIGN "Blocked write methods"): 405 with an Allow
// header naming what the resource does answer, and the problem code public_writes_blocked.
// Answered before authentication: the refusal is the same for everyone and reveals nothing.
import type { RequestHandler, Router } from 'express';
import { AppError } from '../../http/errors';

export type WriteMethod = 'post' | 'put' | 'patch' | 'delete';
export const WRITE_METHODS: readonly WriteMethod[] = ['post', 'put', 'patch', 'delete'];

/** `allow` is the Allow header; '' says the resource answers no method at all (RFC 9110 10.2.1). */
export function blocked(allow: string): RequestHandler {
  // The name marks these routes for the route listing (api/http/routes-of.ts): 405 by design.
  const publicWritesBlocked: RequestHandler = (req) => {
    throw new AppError('public_writes_blocked', `${req.method} is not available on this resource: public writes are blocked.`, {
      headers: { Allow: allow },
    });
  };
  return publicWritesBlocked;
}

export function blockWrites(r: Router, path: string, allow: string, methods: readonly WriteMethod[] = WRITE_METHODS): void {
  const route = r.route(path);
  for (const m of methods) route[m](blocked(allow));
}
