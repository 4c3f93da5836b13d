import express, { type Express } from 'express';
import type { AppDeps } from './deps';
import { requestLog } from './http/request-log';
import { allowedHosts } from './http/allowed-hosts';
import { securityHeaders } from './http/security-headers';
import { temporalCodecCors } from './http/temporal-ui-cors';
import { errorHandler, notFoundHandler } from './http/problem';
import { methodGuards } from './routing/method-guards';
import { mountRoutes } from './routing/mount';
import type { Authenticators } from './auth/kinds';
import { allRoutes } from './route-list';

export function createApp(deps: AppDeps, authenticators: Authenticators): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // req.ip: the forwarded client address behind a trusted proxy (TRUST_PROXY), else the peer's;
  // rate-limit keys and request logs use it.
  app.set('trust proxy', deps.cfg.TRUST_PROXY);
  app.use(securityHeaders(deps.cfg));

  // One line per request, on finish, and its duration into the request histogram (probes excepted).
  app.use(requestLog(deps.log, (req, res, seconds) => deps.metrics.observeRequest(req, res, seconds)));
  const hostCheck = allowedHosts(deps.cfg);
  if (hostCheck) app.use(hostCheck);

  const routes = allRoutes({ maxMediaBytes: deps.cfg.MAX_MEDIA_BYTES });
  const methods = methodGuards(routes);
  // The Temporal Web UI's preflight to the codec endpoint, answered before the generic OPTIONS.
  app.use(temporalCodecCors(deps.cfg));
  app.use(methods.options);
  mountRoutes(app, routes, deps, authenticators);

  app.use(methods.notAllowed);
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
}
