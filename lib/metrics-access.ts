// Who may read a /metrics endpoint (the API's and the worker's): with METRICS_TOKEN set, only a
// request bearing it; without one, anyone outside production (a developer's loopback stack) and
// nobody in production (the endpoint is not served).
import crypto from 'node:crypto';

export type MetricsAccess = 'allowed' | 'unauthenticated' | 'hidden';

export function metricsAccess(o: { token: string | undefined; production: boolean }, authorization: string | undefined): MetricsAccess {
  if (o.token === undefined) return o.production ? 'hidden' : 'allowed';
  const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  // Compare digests: constant time, whatever the lengths.
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(o.token).digest();
  return crypto.timingSafeEqual(a, b) ? 'allowed' : 'unauthenticated';
}
