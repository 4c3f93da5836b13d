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

type Table = { matches: (p: string) => boolean; methods: Set<string> }[];

/** Known paths with the methods really served there (public-writes-blocked ones left out). */
function routeTable(app: Express, exclude: (path: string) => boolean): Table {
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
}

/** The methods served at a path, with HEAD beside GET; undefined for an unknown path. */
function allowedAt(table: Table, path: string): Set<string> | undefined {
  const allowed = new Set(table.filter((t) => t.matches(path)).flatMap((t) => [...t.methods]));
  if (allowed.size === 0) return undefined;
  if (allowed.has('GET')) allowed.add('HEAD');
  return allowed;
}

export interface MethodGuards {
  /** Before the routers: OPTIONS answers 204 with Allow naming only the methods really served. */
  options: RequestHandler;
  /** After the routers: a known path asked with a method it does not serve answers 405 with Allow. */
  notAllowed: RequestHandler;
}

/**
 * Express would answer OPTIONS itself, listing the 405-only (blocked) methods too, and answer an
 * unserved method on a known path with 404. The table is read from the app once, on first use.
 */
export function methodGuards(app: Express, exclude: (path: string) => boolean = () => false): MethodGuards {
  let table: Table | undefined;
  const tableOf = () => (table ??= routeTable(app, exclude));
  return {
    options: (req, res, next) => {
      if (req.method !== 'OPTIONS') return next();
      const allowed = allowedAt(tableOf(), req.path);
      if (!allowed || allowed.has('ALL')) return next();
      res.set('Allow', [...allowed].sort().join(', ')).status(204).end();
    },
    notAllowed: (req, _res, next) => {
      const allowed = allowedAt(tableOf(), req.path);
      // No match, or a path only the public-writes-blocked handlers know (no item route): 404.
      if (!allowed || allowed.has('ALL') || allowed.has(req.method)) return next();
      const allow = [...allowed].sort().join(', ');
      next(new AppError('method_not_allowed', `${req.method} is not answered here; allowed: ${allow}.`, { headers: { Allow: allow } }));
    },
  };
}
