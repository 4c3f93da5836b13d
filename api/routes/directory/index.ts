import type { BlockedRoute, Route, WriteMethod } from '../../routing/route';
import { artistsRoutes } from './artists';
import { designsRoutes } from './designs';
import { mediaFileRoutes } from './media-files';
import { meRoutes } from './me';
import { portfoliosRoutes } from './portfolios';
import { searchRoutes } from './search';
import { studiosRoutes } from './studios';

const WRITES: readonly WriteMethod[] = ['post', 'put', 'patch', 'delete'];

/**
 * One rule for the read-only directory: every write method (POST, PUT, PATCH, DELETE) on every
 * directory path that does not serve it answers 405 `public_writes_blocked` with Allow (the methods
 * served there), before authentication (contract 4.3). The definitions that name their blocked
 * writes keep them; the rest are derived here, so a new directory path cannot answer
 * `method_not_allowed` instead.
 */
export function withBlockedWrites(routes: Route[]): Route[] {
  const byPath = new Map<string, { served: Set<string>; blocked: Set<string> }>();
  for (const r of routes) {
    const entry = byPath.get(r.path) ?? { served: new Set<string>(), blocked: new Set<string>() };
    (r.kind === 'operation' ? entry.served : entry.blocked).add(r.method);
    byPath.set(r.path, entry);
  }
  const derived: BlockedRoute[] = [];
  for (const [path, { served, blocked }] of byPath) {
    const allow = [...served].flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()])).sort().join(', ');
    for (const method of WRITES) if (!served.has(method) && !blocked.has(method)) derived.push({ kind: 'blocked', method, path, allow });
  }
  return [...routes, ...derived];
}

/** Public and beta directory reads under /api/v1 (studios, search, artists, portfolios, designs, /me) and the public renditions under /media. */
export function directoryRoutes(): Route[] {
  return withBlockedWrites([...studiosRoutes(), ...searchRoutes(), ...artistsRoutes(), ...portfoliosRoutes(), ...designsRoutes(), ...meRoutes(), ...mediaFileRoutes()]);
}
