// Mounting the route list on Express: the JSON body parser, then the credential (the authenticator
// of the route's auth kind) and the rate limit, then the permission, then the schemas, then the
// handler, whose answer is written with its envelope.
import express, { type Express, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { enforce } from '../auth/middleware';
import type { Authenticators } from '../auth/kinds';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { rateKeysOf } from '../http/rate-limit';
import { parseInput } from '../http/validate';
import { Reply } from './answer';
import { authRuleOf, expressPath, rateFamilyOf, type OperationDef, type Route } from './route';

function blockedHandler(allow: string): RequestHandler {
  return (req) => {
    throw new AppError('public_writes_blocked', `${req.method} is not available on this resource: public writes are blocked.`, { headers: { Allow: allow } });
  };
}


/** Whether an answer's schema is the `{ success: true, ... }` envelope. */
function isEnvelope(schema: z.ZodType | null | undefined): boolean {
  if (!schema) return false;
  // Two answers under one status (the plan or the published asset): an envelope when each is one.
  if ('options' in schema && Array.isArray(schema.options)) return schema.options.length > 0 && (schema.options as z.ZodType[]).every(isEnvelope);
  return 'shape' in schema && typeof schema.shape === 'object' && schema.shape !== null && 'success' in schema.shape;
}

/** Writes what the handler returned: the envelope around its body, with its status. */
function writeAnswer(op: OperationDef, res: Response, result: unknown): void {
  if (result === undefined) {
    if (!res.headersSent) throw new Error(`${op.method.toUpperCase()} ${op.path} answered nothing`);
    return;
  }
  const [status, body] = result instanceof Reply ? [result.status, result.body] : [Number(Object.keys(op.ok)[0]), result];
  const schema = op.ok[status]?.[1];
  res.status(status).json(isEnvelope(schema) ? { success: true, ...(body as object) } : body);
}

/** Mount every route on the app: JSON body parser, then credential and permission, then the schemas, then the handler. */
export function mountRoutes(app: Express, routes: readonly Route[], deps: AppDeps, authenticators: Authenticators): void {
  for (const r of routes) {
    const path = expressPath(r.path);
    if (r.kind === 'blocked') {
      app[r.method](path, blockedHandler(r.allow));
      continue;
    }
    const rule = authRuleOf(r);
    const family = rateFamilyOf(r);
    const chain: RequestHandler[] = [
      (_req, res, next) => {
        res.locals.route = r.path; // the route template, for the request metrics
        next();
      },
    ];
    if (r.body) chain.push(express.json({ limit: r.bodyLimit ?? '64kb' }));
    chain.push(async (req, res) => {
      const actor = r.auth === 'public' ? undefined : await authenticators[r.auth](deps, req, res);
      // Counted per credential once it is proven (per client address on public routes), before
      // anything is read or written: a refused request changes nothing.
      if (deps.rateLimits && family !== 'none') await deps.rateLimits.consume(family, rateKeysOf(family, actor, req.ip), res);
      if (actor) enforce(actor, rule);
      const params = r.params ? parseInput(r.params, req.params, 'path') : undefined;
      const query = r.query ? parseInput(r.query, req.query, 'query') : undefined;
      const body = r.body ? parseInput(r.body, req.body, 'body') : undefined;
      const result = await r.handler({
        req,
        res,
        deps,
        routes,
        params,
        query,
        body,
        actor() {
          if (!actor) throw new Error(`actor() on the public route ${r.method.toUpperCase()} ${r.path}`);
          return actor;
        },
      });
      writeAnswer(r, res, result);
    });
    app[r.method](path, ...chain);
  }
}
