// GET /metrics: the API's Prometheus metrics. Open outside production; in production only with the
// metrics bearer token (METRICS_TOKEN), and not there at all without one (lib/metrics-access.ts).
import { z } from '../openapi/zod';
import { metricsAccess } from '../../lib/metrics-access';
import { AppError } from '../http/errors';
import { defineRoute, type Route } from '../routing/route';

const Exposition = z.string().openapi({ type: 'string', description: 'the Prometheus text exposition format' });

export function metricsRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'public', method: 'get', path: '/metrics', operationId: 'metrics', tag: 'meta', auth: 'public', limit: 'none', problems: [401, 404],
      summary: 'Prometheus metrics (in production: only with the metrics bearer token, METRICS_TOKEN)',
      okContentType: 'text/plain', ok: { 200: ['the metrics', Exposition] },
      async handler({ deps, req, res }) {
        const access = metricsAccess({ token: deps.cfg.METRICS_TOKEN, production: deps.cfg.NODE_ENV === 'production' }, req.get('authorization'));
        if (access === 'hidden') throw new AppError('not_found', 'No such route.');
        if (access === 'unauthenticated')
          throw new AppError('unauthenticated', 'GET /metrics needs the metrics bearer token (METRICS_TOKEN).', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } });
        res.set('cache-control', 'no-store').type(deps.metrics.registry.contentType).send(await deps.metrics.text());
      },
    }),
  ];
}
