// mountRoutes writes the answer a handler returns: the `{ success: true, ... }` envelope where the
// route's schema for that status is one (a union of envelopes included), the body as it is where it
// is not, and the status reply() names.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Authenticators } from '../../api/auth/kinds';
import type { AppDeps } from '../../api/deps';
import { errorHandler } from '../../api/http/problem';
import { mountRoutes } from '../../api/routing/mount';
import { defineRoute, reply } from '../../api/routing/route';

const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
const Plan = envelope(z.object({ dryRun: z.literal(true), steps: z.number() }));
const Done = envelope(z.object({ dryRun: z.literal(false), id: z.string() }));
const common = { doc: 'public', tag: 't', auth: 'public', summary: 's', limit: 'none' } as const;
const routes = [
  defineRoute({ ...common, method: 'get', path: '/one', operationId: 'one', ok: { 200: ['one', envelope(z.object({ n: z.number() }))] }, handler: () => ({ data: { n: 1 } }) }),
  defineRoute({
    ...common, method: 'get', path: '/either', operationId: 'either', query: z.object({ dry: z.enum(['yes', 'no']) }),
    ok: { 200: ['the plan or the result', z.union([Plan, Done])] },
    handler: ({ query }) => (query.dry === 'yes' ? { data: { dryRun: true as const, steps: 2 } } : { data: { dryRun: false as const, id: 'x' } }),
  }),
  defineRoute({ ...common, method: 'get', path: '/plain', operationId: 'plain', ok: { 200: ['not an envelope', z.object({ status: z.literal('ok') })] }, handler: () => ({ status: 'ok' as const }) }),
  defineRoute({
    ...common, method: 'post', path: '/made', operationId: 'made',
    ok: { 200: ['settled', envelope(z.object({ id: z.string() }))], 202: ['accepted', envelope(z.object({ id: z.string() }))] },
    handler: () => reply(202, { data: { id: 'y' } }),
  }),
];

let server: ReturnType<express.Express['listen']>;
let url = '';
beforeAll(async () => {
  const app = express();
  const none = (() => Promise.reject(new Error('public routes only'))) as Authenticators[keyof Authenticators];
  mountRoutes(app, routes, {} as AppDeps, { any: none, api_key: none, operator: none, console: none, portal: none, codec: none });
  app.use(errorHandler(pino({ level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = async (p: string, method = 'GET') => {
  const res = await fetch(url + p, { method });
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('typed answers', () => {
  it('wraps a body in the envelope its schema declares', async () => {
    expect(await get('/one')).toEqual({ status: 200, body: { success: true, data: { n: 1 } } });
  });
  it('wraps each branch of a union of envelopes', async () => {
    expect(await get('/either?dry=yes')).toEqual({ status: 200, body: { success: true, data: { dryRun: true, steps: 2 } } });
    expect(await get('/either?dry=no')).toEqual({ status: 200, body: { success: true, data: { dryRun: false, id: 'x' } } });
  });
  it('writes a body that is not an envelope as it is', async () => {
    expect(await get('/plain')).toEqual({ status: 200, body: { status: 'ok' } });
  });
  it('answers with the status reply() names', async () => {
    expect(await get('/made', 'POST')).toEqual({ status: 202, body: { success: true, data: { id: 'y' } } });
  });
});
