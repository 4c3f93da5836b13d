// One definition per endpoint: method, path, credential, permission, request and response
// schemas, handler. Express routing (mountRoutes), both OpenAPI documents, the table-driven auth
// cases and the 405 / Allow table are all derived from the same list; nothing reads Express's
// router back.
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { Permission } from '../../lib/identity/permissions';
import type { CredentialKind } from '../../lib/identity/types';
import { enforce, type Actor, type AuthRule } from '../auth/middleware';
import type { Auth, Authenticators } from '../auth/kinds';
export type { Authenticator, Authenticators } from '../auth/kinds';
import type { AppDeps } from '../deps';
import { AppError, type ProblemStatus } from '../http/errors';
import { rateKeysOf, type RateFamily } from '../http/rate-limit';
import { parseInput } from '../http/validate';

export type DocumentId = 'intake' | 'public';
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type { Auth };

export interface RouteContext<P, Q, B> {
  req: Request;
  res: Response;
  deps: AppDeps;
  /** Every route the app serves (the OpenAPI documents are built from it). */
  routes: readonly Route[];
  params: P;
  query: Q;
  body: B;
  /** The authenticated actor; only on routes whose auth is not 'public'. */
  actor(): Actor;
}

interface Documented {
  doc: DocumentId;
  operationId: string;
  summary: string;
  tag: string;
  /** Success answers: status -> [description, schema] (null: an answer without a body, such as 304). */
  ok: Readonly<Record<number, readonly [string, z.ZodType | null]>>;
  /** Problem answers besides the ones every operation of its kind has. */
  problems?: readonly ProblemStatus[];
  deprecated?: boolean;
}

/** What the documents need of an operation (a definition without its handler). */
export interface Operation extends Documented {
  kind: 'operation';
  method: Method;
  /** Full path in OpenAPI form: /api/v1/artists/{id}. */
  path: string;
  auth: Auth;
  permission?: Permission;
  /** Also open to a mapped human operator (bearer) holding this permission, without `permission` (operators read any submission). */
  operatorPermission?: Permission;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body is the media bytes themselves (image/jpeg, image/png, image/webp, image/heic). */
  rawBody?: boolean;
  /** Limit of the JSON body parser (default 64kb). */
  bodyLimit?: string;
  /** Media type of the success answers when they are not JSON (an image). */
  okContentType?: string;
  /** Rate-limit family (RATE_LIMIT_*_PER_MINUTE); default from what the operation is (rateFamilyOf). */
  limit?: RateFamily | 'none';
}

export interface OperationDef extends Operation {
  handler(ctx: RouteContext<any, any, any>): unknown;
}

type OkTable = Readonly<Record<number, readonly [string, z.ZodType | null]>>;
/** What a handler returns for an answer: its schema's body without `success: true` (mountRoutes writes the envelope). */
type Unsuccessful<T> = T extends { success: true } ? Omit<T, 'success'> : T;
type BodyOf<S> = S extends z.ZodType ? Unsuccessful<z.input<S>> : never;
/** One of the route's success answers: `reply(201, body)`; a bare body is the first status's. */
export class Reply<Status extends number = number, Body = unknown> {
  constructor(
    readonly status: Status,
    readonly body: Body,
  ) {}
}
export const reply = <Status extends number, Body>(status: Status, body: Body) => new Reply(status, body);
type Replies<OK extends OkTable> = { [K in keyof OK & number]: OK[K] extends readonly [string, infer S] ? (S extends z.ZodType ? Reply<K, BodyOf<S>> : never) : never }[keyof OK & number];
type FirstBody<OK extends OkTable> = OK extends { 200: readonly [string, infer S] } ? BodyOf<S> : OK extends { 201: readonly [string, infer S] } ? BodyOf<S> : never;
/**
 * A handler answers by returning a body (of its first success status) or a Reply (any of its
 * success statuses), typed by the route's response schemas; it returns nothing only when it wrote
 * the answer itself (bytes, redirects, 204).
 */
export type Answer<OK extends OkTable> = FirstBody<OK> | Replies<OK> | void;

/** A write method blocked by design (405 public_writes_blocked), answered before authentication. Not an operation. */
export interface BlockedRoute {
  kind: 'blocked';
  method: Method;
  path: string;
  /** The Allow header: what the resource does answer ('' when nothing). */
  allow: string;
}

export type Route = OperationDef | BlockedRoute;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Define an operation; the handler's params, query and body are typed by the schemas given. */
export function defineRoute<
  OK extends OkTable,
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  def: Omit<Operation, 'kind' | 'params' | 'query' | 'body' | 'ok'> & {
    ok: OK;
    params?: P;
    query?: Q;
    body?: B;
    handler(ctx: RouteContext<Out<P>, Out<Q>, Out<B>>): Answer<OK> | Promise<Answer<OK>>;
  },
): OperationDef {
  return { kind: 'operation', ...def } as OperationDef;
}

export type WriteMethod = 'post' | 'put' | 'patch' | 'delete';
const WRITE_METHODS: readonly WriteMethod[] = ['post', 'put', 'patch', 'delete'];

/** Public writes on a directory resource: 405 with `allow` (contract 4.3). */
export function blockedWrites(path: string, allow: string, methods: readonly WriteMethod[] = WRITE_METHODS): BlockedRoute[] {
  return methods.map((method) => ({ kind: 'blocked', method, path, allow }));
}

export function isOperation(r: Route): r is OperationDef {
  return r.kind === 'operation';
}

export const expressPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

/** The credential rule an auth kind stands for. */
export function authRuleOf(op: Pick<Operation, 'auth' | 'permission' | 'operatorPermission'>): AuthRule {
  const permission = { ...(op.permission ? { permission: op.permission } : {}), ...(op.operatorPermission ? { orOperatorWith: op.operatorPermission } : {}) };
  switch (op.auth) {
    case 'public':
    case 'any':
      return permission;
    case 'api_key':
      return { ...permission, credentials: ['api_key'] satisfies CredentialKind[] };
    case 'operator':
      return { ...permission, credentials: ['bearer'] satisfies CredentialKind[], operator: true };
    case 'portal':
      return { ...permission, credentials: ['bearer'] satisfies CredentialKind[] };
    case 'console':
      return { ...permission, credentials: ['bearer'] satisfies CredentialKind[], operator: true };
  }
}

/**
 * The limit an operation counts against: its own `limit`, else uploads (raw bodies), public
 * routes (per client address), reads (GET) and writes (signals) per credential.
 */
export function rateFamilyOf(op: Pick<Operation, 'limit' | 'rawBody' | 'auth' | 'method'>): RateFamily | 'none' {
  if (op.limit) return op.limit;
  if (op.rawBody) return 'upload';
  if (op.auth === 'public') return 'public';
  return op.method === 'get' ? 'read' : 'signal';
}

function blockedHandler(allow: string): RequestHandler {
  return (req) => {
    throw new AppError('public_writes_blocked', `${req.method} is not available on this resource: public writes are blocked.`, { headers: { Allow: allow } });
  };
}


/** Whether an answer's schema is the `{ success: true, ... }` envelope. */
const isEnvelope = (schema: z.ZodType | null | undefined) => !!schema && 'shape' in schema && typeof schema.shape === 'object' && schema.shape !== null && 'success' in schema.shape;

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
