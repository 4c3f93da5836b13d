// One definition per endpoint: method, path, credential, permission, request and response
// schemas, handler. Express routing (mount.ts), both OpenAPI documents, the table-driven auth
// cases and the 405 / Allow table are all derived from the same list; nothing reads Express's
// router back.
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Permission } from '../../lib/identity/permissions';
import type { CredentialKind } from '../../lib/identity/types';
import type { Actor, AuthRule } from '../auth/middleware';
import type { Auth } from '../auth/kinds';
import type { Answer, OkTable } from './answer';
export { reply, Reply, type Answer } from './answer';
export type { Authenticator, Authenticators } from '../auth/kinds';
import type { AppDeps } from '../deps';
import type { ProblemStatus } from '../http/errors';
import type { RateFamily } from '../http/rate-limit';

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
  /** Headers of the success answers (OpenAPI header objects: what each says, its values). */
  okHeaders?: Readonly<Record<string, OkHeader>>;
  /** Problem answers besides the ones every operation of its kind has. */
  problems?: readonly ProblemStatus[];
  deprecated?: boolean;
}

/** A response header as the documents describe it; `required` when every success answer carries it. */
export interface OkHeader {
  description: string;
  required?: boolean;
  schema: { type: 'string'; enum?: readonly string[] };
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
    case 'codec':
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
