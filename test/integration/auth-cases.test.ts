import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission } from '../../lib/identity/permissions';
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

async function rightCredential(route: ProtectedRoute): Promise<TestCredential> {
  const permissions = route.permission ? [route.permission] : [];
  if (route.operator) return bearerActor(stack, { permissions, operator: true });
  if (route.credentials?.length === 1 && route.credentials[0] === 'bearer') return bearerActor(stack, { permissions });
  return apiKeyActor(stack, { permissions });
}

describe.each(PROTECTED_ROUTES)('$method $path', (route) => {
  const send = (headers: Record<string, string> = {}) => call(stack, route.method, route.path, { headers, ...(route.body !== undefined ? { body: route.body } : {}) });

  it('without a credential answers 401 problem+json', async () => {
    const r = await send();
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ success: false, code: 'unauthenticated' });
  });

  it('with an invalid API key or a malformed bearer token answers 401', async () => {
    expect((await send({ 'x-api-key': 'tpk_AAAAAAAAAAAA_' + 'b'.repeat(43) })).status).toBe(401);
    expect((await send({ authorization: 'Bearer not.a.token' })).status).toBe(401);
  });

  it('with a valid but unmapped credential answers 403', async () => {
    const unmapped = await apiKeyActor(stack, { mapped: false });
    const r = await send(unmapped.headers);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('actor_not_mapped');
  });

  it.runIf(route.permission)('with a mapped credential lacking the permission answers 403', async () => {
    const cred = route.operator
      ? await bearerActor(stack, { permissions: [], operator: true })
      : await apiKeyActor(stack, { permissions: [otherPermission(route.permission!)] });
    const r = await send(cred.headers);
    expect(r.status).toBe(403);
  });

  it('with the right credential gets past authentication and authorization', async () => {
    const r = await send((await rightCredential(route)).headers);
    expect([401, 403]).not.toContain(r.status);
  });

  it.runIf(route.operator)('refuses an API key even when it is mapped with every grantable permission', async () => {
    const grantable = PERMISSIONS.filter((p) => !['artists:write', 'bookings:manage', 'portfolios:publish', 'portfolio_intake:review'].includes(p));
    const r = await send((await apiKeyActor(stack, { permissions: grantable })).headers);
    expect(r.status).toBe(403);
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
