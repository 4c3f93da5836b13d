// Routes Express answers vs operations the documents declare: both directions must be empty.
import type { ExpressRoute } from '../http/routes-of';
import type { Operation } from './operations';

const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Pages and assets of the docs site itself are not API operations. */
export const UNDOCUMENTED_PREFIXES = ['/docs'];

export function compareRoutes(routes: ExpressRoute[], ops: Pick<Operation, 'method' | 'path'>[]) {
  const key = (m: string, p: string) => `${m.toUpperCase()} ${p}`;
  const routed = new Set(
    routes
      .filter((r) => !r.blocked && !UNDOCUMENTED_PREFIXES.some((x) => r.path.startsWith(x)))
      .flatMap((r) => (r.method === 'all' ? ALL_METHODS : [r.method]).map((m) => key(m, r.path))),
  );
  const documented = new Set(ops.map((o) => key(o.method, o.path)));
  return {
    undocumented: [...routed].filter((k) => !documented.has(k)).sort(),
    unrouted: [...documented].filter((k) => !routed.has(k)).sort(),
  };
}
