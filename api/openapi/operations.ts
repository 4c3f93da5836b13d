// The documented operations are the route definitions themselves (api/http/route.ts): this file
// only picks them out and says which problem answers each one can give.
import { isOperation, rateFamilyOf, type Operation, type Route } from '../routing/route';
import type { ProblemStatus } from './components';

export type { Operation };

export function operations(routes: readonly Route[]): Operation[] {
  return routes.filter(isOperation);
}

const AUTH_PROBLEMS: ProblemStatus[] = [401, 403, 503];
/** Problem statuses an operation can answer, from what it is. */
export function problemStatusesOf(op: Operation): ProblemStatus[] {
  const s = new Set<ProblemStatus>(op.problems ?? []);
  if (op.auth !== 'public') for (const p of AUTH_PROBLEMS) s.add(p);
  if (op.query || op.params || op.body) s.add(400);
  if (op.body || op.rawBody) s.add(413);
  if (rateFamilyOf(op) !== 'none') s.add(429);
  return [...s].sort((a, b) => a - b);
}
