// 405 with Allow, and OPTIONS, from the route definitions: Express alone would answer OPTIONS
// listing the blocked (405-only) methods too, and an unserved method on a known path with 404.
import type { RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { AppError } from '../http/errors';
import { expressPath, type Route } from './route';

type Table = { matches: (p: string) => boolean; methods: Set<string> }[];

/** Known paths with the methods really served there (blocked ones left out). */
export function methodTable(routes: readonly Route[]): Table {
  const byPath = new Map<string, Set<string>>();
  for (const r of routes) {
    const set = byPath.get(r.path) ?? new Set<string>();
    if (r.kind === 'operation') set.add(r.method.toUpperCase());
    byPath.set(r.path, set);
  }
  return [...byPath].map(([p, methods]) => {
    const fn = match(expressPath(p), { decode: false });
    return { matches: (x: string) => fn(x) !== false, methods };
  });
}

/** The methods served at a path, with HEAD beside GET; undefined for an unknown path. */
export function allowedAt(table: Table, path: string): Set<string> | undefined {
  const allowed = new Set(table.filter((t) => t.matches(path)).flatMap((t) => [...t.methods]));
  if (allowed.size === 0) return undefined;
  if (allowed.has('GET')) allowed.add('HEAD');
  return allowed;
}

export interface MethodGuards {
  /** Before the routes: OPTIONS answers 204 with Allow naming only the methods really served. */
  options: RequestHandler;
  /** After the routes: a known path asked with a method it does not serve answers 405 with Allow. */
  notAllowed: RequestHandler;
}

export function methodGuards(routes: readonly Route[]): MethodGuards {
  const table = methodTable(routes);
  return {
    options: (req, res, next) => {
      if (req.method !== 'OPTIONS') return next();
      const allowed = allowedAt(table, req.path);
      if (!allowed) return next();
      res.set('Allow', [...allowed].sort().join(', ')).status(204).end();
    },
    notAllowed: (req, _res, next) => {
      const allowed = allowedAt(table, req.path);
      // No match, or a path only blocked routes know (no item route): 404.
      if (!allowed || allowed.size === 0 || allowed.has(req.method)) return next();
      const allow = [...allowed].sort().join(', ');
      next(new AppError('method_not_allowed', `${req.method} is not answered here; allowed: ${allow}.`, { headers: { Allow: allow } }));
    },
  };
}
