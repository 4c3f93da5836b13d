// What routes an Express app really has, read from its router stack (Express 5 / router 2):
// the OpenAPI coverage test compares this list with the operation table, and the 405 handler
// uses it to answer "method not allowed" with an Allow header on every known path.
import type { Express, RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { AppError } from './errors';

export interface ExpressRoute {
  method: string; // lower case; 'all' for app.all / router.all
  /** OpenAPI form: /api/v1/artists/{id}. */
  path: string;
  /** Answered by the public-writes-blocked handler (405 by design, not an operation). */
  blocked: boolean;
}

interface LayerLike {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean>; stack: { handle: { name?: string } }[] };
  handle?: { stack?: LayerLike[] };
}

export const BLOCKED_HANDLER_NAME = 'publicWritesBlocked';

const toOpenApi = (p: string) => p.replace(/:(\w+)/g, '{$1}');

export function routesOf(app: Express): ExpressRoute[] {
  const out: ExpressRoute[] = [];
  const walk = (stack: LayerLike[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route && typeof layer.route.path === 'string') {
        const blocked = layer.route.stack.every((l) => l.handle.name === BLOCKED_HANDLER_NAME);
        for (const [m, on] of Object.entries(layer.route.methods)) {
          if (on) out.push({ method: m === '_all' ? 'all' : m, path: toOpenApi(prefix + layer.route.path), blocked });
        }
      } else if (layer.handle?.stack) {
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        walk(layer.handle.stack, prefix + mount);
      }
    }
  };
  walk((app as unknown as { router: { stack: LayerLike[] } }).router.stack, '');
  return out;
}

/**
 * After the routers: a request whose path is a known route but whose method is not answered there
 * gets 405 with Allow (HEAD with GET), instead of 404. The table is read once, on first use.
 */
export function methodNotAllowed(app: Express, exclude: (path: string) => boolean = () => false): RequestHandler {
  let table: { matches: (p: string) => boolean; methods: Set<string> }[] | undefined;
  const build = () => {
    const byPath = new Map<string, Set<string>>();
    for (const r of routesOf(app)) {
      if (exclude(r.path)) continue;
      const set = byPath.get(r.path) ?? new Set<string>();
      if (!r.blocked) set.add(r.method.toUpperCase());
      byPath.set(r.path, set);
    }
    return [...byPath].map(([p, methods]) => {
      const fn = match(p.replace(/\{(\w+)\}/g, ':$1'), { decode: false });
      return { matches: (x: string) => fn(x) !== false, methods };
    });
  };
  return (req, _res, next) => {
    table ??= build();
    const hit = table.filter((t) => t.matches(req.path));
    const allowed = new Set(hit.flatMap((t) => [...t.methods]));
    // No match, or a path only the public-writes-blocked handlers know (no item route): 404.
    if (allowed.size === 0) return next();
    if (allowed.has('ALL') || allowed.has(req.method)) return next();
    if (allowed.has('GET')) allowed.add('HEAD');
    const allow = [...allowed].sort().join(', ');
    next(new AppError('method_not_allowed', `${req.method} is not answered here; allowed: ${allow || 'none'}.`, { headers: { Allow: allow } }));
  };
}
