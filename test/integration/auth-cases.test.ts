import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../api/route-list';
import { COMPATIBILITY_TAG } from '../../api/openapi/documents';
import { isOperation, rateFamilyOf } from '../../api/routing/route';
import { createSession } from '../../lib/console/sessions';
import { LOCAL_ISSUER } from '../../lib/identity';
import { NOT_FOR_PARTNER_KEYS, PERMISSIONS, type Permission } from '../../lib/identity/permissions';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call } from '../helpers/intake';
import { PROTECTED_ROUTES, type ProtectedRoute } from '../helpers/protected-routes';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(async () => stack?.stop());

const otherPermission = (p: Permission): Permission => (p === 'search:read' ? 'studios:read' : 'search:read');

/** Every permission a key may hold. */
const KEY_GRANTABLE = PERMISSIONS.filter((p) => !NOT_FOR_PARTNER_KEYS.includes(p) && p !== 'portfolio_intake:review');

/** The console lets in operators who review; a route of it may ask for more (portfolios:publish). */
const CONSOLE_ENTRY: Permission = 'portfolio_intake:review';

async function rightCredential(route: ProtectedRoute): Promise<TestCredential> {
  const permissions = [...new Set([...(route.permission ? [route.permission] : []), ...(route.session === 'console' ? [CONSOLE_ENTRY] : [])])];
  if (route.operator) return bearerActor(stack, { permissions, operator: true });
  if (route.credentials?.length === 1 && route.credentials[0] === 'bearer') return bearerActor(stack, { permissions });
  return apiKeyActor(stack, { permissions });
}

/**
 * The headers a credential is sent with on this route: as itself, or, on a portal or console route,
 * as that surface's session of the same person (a session row, as sign-in would make it, and its
 * CSRF token).
 */
async function presented(route: ProtectedRoute, cred: TestCredential): Promise<Record<string, string>> {
  if (!route.session) return cred.headers;
  const s = await createSession(stack.sql, { kind: 'bearer', subject: cred.subject!, issuer: LOCAL_ISSUER }, new Date(Date.now() + 3600_000), route.session);
  return { cookie: `${route.session}_session=${s.token}`, [`x-${route.session}-csrf`]: s.csrf };
}

type CaseName =
  | 'no credential'
  | 'bad credential'
  | 'unmapped'
  | 'lacks the permission'
  | 'right credential'
  | 'API key on an operator route'
  | 'header credential instead of the session'
  | 'session without its CSRF token';
/** The cases each route's rule makes meaningful: built by filtering, so no case is ever skipped. */
function casesOf(route: ProtectedRoute): CaseName[] {
  return [
    'no credential',
    'bad credential',
    'unmapped',
    ...(route.permission ? (['lacks the permission'] as const) : []),
    'right credential',
    ...(route.operator && !route.session ? (['API key on an operator route'] as const) : []),
    ...(route.session ? (['header credential instead of the session'] as const) : []),
    ...(route.session && route.method !== 'GET' ? (['session without its CSRF token'] as const) : []),
  ];
}
const CASES = PROTECTED_ROUTES.flatMap((route) => casesOf(route).map((name) => [`${route.method} ${route.path}: ${name}`, route, name] as const));

describe('the shared auth cases, on every credentialed route', () => {
  it.each(CASES)('%s', async (_title, route, name) => {
    const send = (headers: Record<string, string> = {}) => call(stack, route.method, route.path, { headers, ...(route.body !== undefined ? { body: route.body } : {}) });
    switch (name) {
      case 'no credential': {
        const r = await send();
        expect(r.status).toBe(401);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(r.body).toMatchObject({ success: false, code: 'unauthenticated' });
        return;
      }
      case 'bad credential':
        expect((await send({ 'x-api-key': 'tpk_AAAAAAAAAAAA_' + 'b'.repeat(43) })).status).toBe(401);
        expect((await send({ authorization: 'Bearer not.a.token' })).status).toBe(401);
        return;
      case 'unmapped': {
        const r = await send(await presented(route, route.session ? await bearerActor(stack, { mapped: false }) : await apiKeyActor(stack, { mapped: false })));
        expect([r.status, r.body.code]).toEqual([403, 'actor_not_mapped']);
        return;
      }
      case 'lacks the permission': {
        const cred = route.operator
          ? await bearerActor(stack, { permissions: route.session === 'console' && route.permission !== CONSOLE_ENTRY ? [CONSOLE_ENTRY] : [], operator: true })
          : route.session
            ? await bearerActor(stack, { permissions: [otherPermission(route.permission!)] })
            : await apiKeyActor(stack, { permissions: [otherPermission(route.permission!)] });
        expect((await send(await presented(route, cred))).status).toBe(403);
        return;
      }
      case 'right credential': {
        // past authentication and authorization, and answered: a client error for the empty body or
        // the unknown id, or a success; never a 5xx
        const r = await send(await presented(route, await rightCredential(route)));
        expect([401, 403]).not.toContain(r.status);
        expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
        return;
      }
      case 'header credential instead of the session': {
        // A session surface takes its cookie only: the same person's bearer token, or a key, is no session.
        const right = await rightCredential(route);
        const key = await apiKeyActor(stack, { permissions: KEY_GRANTABLE });
        for (const headers of [right.headers, key.headers]) expect((await send(headers)).status).toBe(401);
        return;
      }
      case 'session without its CSRF token': {
        const { cookie } = await presented(route, await rightCredential(route));
        const r = await send({ cookie: cookie! });
        expect([r.status, r.body.code]).toEqual([403, 'csrf_failed']);
        return;
      }
      case 'API key on an operator route': {
        expect((await send((await apiKeyActor(stack, { permissions: KEY_GRANTABLE })).headers)).status).toBe(403);
        return;
      }
    }
  });
});

describe('the protected route list (derived from the route definitions)', () => {
  it('holds every credentialed operation, the operator-only decisions among them', () => {
    const approve = PROTECTED_ROUTES.find((r) => r.method === 'POST' && r.path.endsWith('/approve'));
    expect(approve).toMatchObject({ operator: true, permission: 'portfolio_intake:review', credentials: ['bearer'] });
    expect(PROTECTED_ROUTES.find((r) => r.path.endsWith('/upload-complete'))).toMatchObject({ credentials: ['api_key'] });
    expect(PROTECTED_ROUTES.some((r) => r.path.includes('/studios'))).toBe(false);
    expect(PROTECTED_ROUTES.length).toBeGreaterThanOrEqual(15);
  });
});

describe('the permission list', () => {
  it('covers every permission a route asks for', () => {
    for (const r of PROTECTED_ROUTES) if (r.permission) expect(PERMISSIONS).toContain(r.permission);
  });
});

describe('the compatibility routes (derived from the route list): 410 naming where to go, whatever the credential; no data touched; the public rate family', () => {
  const COMPAT = allRoutes({ maxMediaBytes: 1 }).filter(isOperation).filter((op) => op.tag === COMPATIBILITY_TAG);
  const tables = ['submissions', 'api_keys', 'actor_mappings', 'webhook_endpoints', 'console_sessions'] as const;
  const counts = async () => Promise.all(tables.map(async (t) => (await stack.sql`select count(*)::int as n from ${stack.sql(t)}`)[0]!.n as number));

  it('lists the legacy sign-up/sign-in and the webhook ingress routes', () => {
    expect(COMPAT.map((op) => op.path)).toEqual(expect.arrayContaining(['/api/v1/auth/signup', '/api/v1/auth/signin', '/api/v1/webhooks', '/api/v1/webhooks/{source}']));
    for (const op of COMPAT) expect([op.auth, rateFamilyOf(op), op.deprecated]).toEqual(['public', 'public', true]);
  });

  it.each(COMPAT.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_t, op) => {
    const before = await counts();
    const key = await apiKeyActor(stack, { permissions: KEY_GRANTABLE });
    const url = op.path.replace('{source}', 'stripe');
    for (const headers of [{}, key.headers, { 'x-api-key': 'tpk_AAAAAAAAAAAA_' + 'b'.repeat(43) }, { authorization: 'Bearer not.a.token' }]) {
      const r = await call(stack, op.method.toUpperCase(), url, { headers, body: { email: 'a@example.com', password: 'hunter2', type: 'payment.succeeded' } });
      expect(r.status).toBe(410);
      expect(['moved_to_portal', 'webhook_ingress_closed']).toContain(r.body.code);
    }
    const after = await counts();
    // The key made above is the only new row.
    expect(after.map((n, i) => n - before[i]!)).toEqual(tables.map((t) => (t === 'api_keys' || t === 'actor_mappings' ? 1 : 0)));
  });
});
