import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import type { AppDeps } from './deps';
import { errorHandler, notFoundHandler } from './http/problem';
import { methodGuards } from './http/method-guards';
import { mountRoutes } from './http/route';
import { docsPageRouter } from './openapi/router';
import { allRoutes } from './routes';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const PROBES = new Set(['/api/v1/health/live', '/api/v1/health/ready']);

/** The caller's x-request-id when it is well-formed, else a new UUID; echoed as a header. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}
/** The full path: inside a mounted router Express shortens req.url, originalUrl keeps it. */
const pathOf = (req: { url?: string; originalUrl?: string }) => (req.originalUrl ?? req.url ?? '').split('?')[0]!;

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const httpLogger = pinoHttp({
    logger: deps.log,
    genReqId: requestId,
    customAttributeKeys: { reqId: 'requestId' },
    // Signed upload URLs carry their signature in the query: log the path only.
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // 5xx answers we chose (503 while a dependency is away) are warnings; thrown errors are errors.
    // A successful liveness or readiness probe is not logged: orchestrators send one every few
    // seconds per instance, and the line says nothing the next probe would not. A failing probe is.
    customLogLevel: (req, res, err) =>
      err && !err.message.startsWith('failed with status code')
        ? 'error'
        : res.statusCode >= 400
          ? 'warn'
          : req.method === 'GET' && PROBES.has(pathOf(req))
            ? 'silent'
            : 'info',
  });
  app.use(httpLogger);

  const routes = allRoutes({ maxMediaBytes: deps.cfg.MAX_MEDIA_BYTES });
  const methods = methodGuards(routes);
  app.use(methods.options);
  mountRoutes(app, routes, deps);
  app.use(docsPageRouter(deps));

  app.use(methods.notAllowed);
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
}
