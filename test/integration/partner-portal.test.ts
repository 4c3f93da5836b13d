// Issue 24, the portal's API: people of a partner organization (partner_api_keys:manage, mapped by
// an operator) sign in with their bearer token and manage their organization's keys; the keys they
// make work on the API, rotate with an overlap, revoke at once; nothing outside the self-service set
// and nothing of another organization. Real PostgreSQL (as the least-privilege role's functions
// would run them), real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, SELF_SERVICE_PERMISSIONS, type Permission } from '../../lib/identity/permissions';
import { createSigninCode } from '../../lib/console/sessions';
import { LOCAL_ISSUER } from '../../lib/identity';
import { upsertMapping } from '../../lib/identity/actors';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call } from '../helpers/intake';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(async () => stack?.stop());

/** A person of `organizationId` who may manage its keys (as `npm run iam -- map` would make them). */
const person = (organizationId = uid('org-'), permissions: Permission[] = ['partner_api_keys:manage']) =>
  bearerActor(stack, { organizationId, permissions, role: 'partner_admin' });

/** Signed in: the cookie and the CSRF header every write sends. */
async function signIn(p: TestCredential): Promise<{ headers: Record<string, string>; me: any }> {
  const r = await call(stack, 'POST', '/portal/api/session', { body: { token: p.token } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const cookie = r.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^portal_session=[^;]+;.*HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  expect(cookie).toMatch(/Path=\/portal/);
  return { headers: { cookie: cookie.split(';')[0]!, 'x-portal-csrf': r.body.data.csrfToken }, me: r.body.data };
}

const keysOf = async (h: Record<string, string>) => (await call(stack, 'GET', '/portal/api/keys', { headers: h })).body.data as any[];

describe('the partner portal API', () => {
  it('signs in a person with partner_api_keys:manage, and nobody else', async () => {
    const pat = await person();
    const { headers, me } = await signIn(pat);
    expect(me).toMatchObject({ organizationId: pat.organizationId, subject: pat.subject });
    expect(me.permissions).toContain('partner_api_keys:manage');
    const again = await call(stack, 'GET', '/portal/api/me', { headers });
    expect(again.body.data).toMatchObject({ organizationId: pat.organizationId, csrfToken: me.csrfToken });
    expect(again.headers.get('cache-control')).toContain('no-store');

    // A member without the permission, an unmapped token, a bad token, and no session at all.
    const member = await bearerActor(stack, { permissions: ['artists:read'] });
    expect((await call(stack, 'POST', '/portal/api/session', { body: { token: member.token } })).body.code).toBe('permission_denied');
    const unmapped = await bearerActor(stack, { mapped: false });
    expect((await call(stack, 'POST', '/portal/api/session', { body: { token: unmapped.token } })).body.code).toBe('actor_not_mapped');
    expect((await call(stack, 'POST', '/portal/api/session', { body: { token: 'x'.repeat(40) } })).status).toBe(401);
    expect((await call(stack, 'GET', '/portal/api/keys')).status).toBe(401);
    // A session cookie from another site's page is refused at sign-in (Origin is not ours).
    const foreign = await call(stack, 'POST', '/portal/api/session', { body: { token: pat.token }, headers: { origin: 'https://evil.example' } });
    expect([foreign.status, foreign.body.code]).toEqual([403, 'csrf_failed']);
  });

  it('a key made in the portal works on the API, is listed without its secret, and every action is audited without it', async () => {
    const pat = await person();
    const { headers } = await signIn(pat);
    const made = await call(stack, 'POST', '/portal/api/keys', { headers, body: { name: 'Booking site', permissions: ['artists:read', 'portfolio_intake:stage'] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = made.body.data.key as string;
    expect(key.startsWith(`tpk_${made.body.data.keyId}_`)).toBe(true);
    // The secret is what follows the key id (it may itself hold '_': base64url).
    const secret = key.slice(`tpk_${made.body.data.keyId}_`.length);
    expect(secret.length).toBeGreaterThanOrEqual(40);
    expect(made.body.data).toMatchObject({ name: 'Booking site', permissions: ['artists:read', 'portfolio_intake:stage'], status: 'active', expiresAt: null, lastUsedAt: null });
    // It reads the beta directory with that key.
    const read = await call(stack, 'GET', '/api/v1/artists?limit=1', { headers: { 'x-api-key': key } });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    // Listed with its prefix, last use and creator; the secret is nowhere.
    const listed = await call(stack, 'GET', '/portal/api/keys', { headers });
    const row = listed.body.data.find((k: any) => k.keyId === made.body.data.keyId);
    expect(row).toMatchObject({ name: 'Booking site', prefix: `tpk_${made.body.data.keyId}`, createdBy: pat.actorId });
    expect(row.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(listed.body.selectablePermissions).toEqual([...SELF_SERVICE_PERMISSIONS]);
    const audit = await stack.sql<{ action: string; detail: unknown }[]>`select action, detail from access_audit where subject = ${pat.actorId} and action like 'portal_%'`;
    expect(audit.map((a) => a.action)).toEqual(['portal_key_created']);
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it('every permission outside the self-service set is refused with 422, and nothing is written', async () => {
    const pat = await person();
    const { headers } = await signIn(pat);
    const forbidden = PERMISSIONS.filter((p) => !(SELF_SERVICE_PERMISSIONS as readonly string[]).includes(p));
    expect(forbidden).toEqual(expect.arrayContaining(['portfolio_intake:review', 'portfolio_intake:classify', 'portfolios:publish', 'artists:write', 'bookings:manage', 'partner_api_keys:manage']));
    for (const p of forbidden) {
      const r = await call(stack, 'POST', '/portal/api/keys', { headers, body: { name: 'x', permissions: ['artists:read', p] } });
      expect([r.status, r.body.code], p).toEqual([422, 'permission_not_selectable']);
    }
    // A capability is not even a permission: the schema refuses it.
    expect((await call(stack, 'POST', '/portal/api/keys', { headers, body: { name: 'x', permissions: ['portfolio_intake:stage_cross_tenant'] } })).status).toBe(400);
    expect(await keysOf(headers)).toEqual([]);
  });

  it('rotates with an overlap (both keys work, then the old one gets 401), with none (at once), and revokes (401 at once)', async () => {
    const pat = await person();
    const { headers } = await signIn(pat);
    const made = (await call(stack, 'POST', '/portal/api/keys', { headers, body: { name: 'Reader', permissions: ['artists:read'] } })).body.data;
    const works = async (key: string) => (await call(stack, 'GET', '/api/v1/artists?limit=1', { headers: { 'x-api-key': key } })).status;

    const rotated = await call(stack, 'POST', `/portal/api/keys/${made.keyId}/rotate`, { headers, body: { overlapSeconds: 3600 } });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.data).toMatchObject({ name: 'Reader', permissions: ['artists:read'], previousKeyId: made.keyId });
    const overlapEnds = Date.parse(rotated.body.data.previousExpiresAt);
    expect(overlapEnds - Date.now()).toBeGreaterThan(3500_000);
    expect(overlapEnds - Date.now()).toBeLessThanOrEqual(3600_000);
    expect([await works(made.key), await works(rotated.body.data.key)]).toEqual([200, 200]);
    // A rotated key is not rotated twice.
    expect((await call(stack, 'POST', `/portal/api/keys/${made.keyId}/rotate`, { headers, body: { overlapSeconds: 0 } })).status).toBe(404);
    // The overlap ends (moved to the past, as the clock would): the old key gets 401, the new one works.
    await stack.sql`update api_keys set expires_at = now() - interval '1 second' where key_id = ${made.keyId}`;
    expect([await works(made.key), await works(rotated.body.data.key)]).toEqual([401, 200]);
    expect((await keysOf(headers)).find((k) => k.keyId === made.keyId)).toMatchObject({ status: 'expired', replacedBy: rotated.body.data.keyId });

    // No overlap: the old key stops at once.
    const now = await call(stack, 'POST', `/portal/api/keys/${rotated.body.data.keyId}/rotate`, { headers, body: { overlapSeconds: 0 } });
    expect(now.status).toBe(200);
    expect([await works(rotated.body.data.key), await works(now.body.data.key)]).toEqual([401, 200]);
    // Overlaps other than the four offered are refused.
    expect((await call(stack, 'POST', `/portal/api/keys/${now.body.data.keyId}/rotate`, { headers, body: { overlapSeconds: 60 } })).status).toBe(400);

    const revoked = await call(stack, 'POST', `/portal/api/keys/${now.body.data.keyId}/revoke`, { headers });
    expect([revoked.status, revoked.body.data.status]).toEqual([200, 'revoked']);
    expect(await works(now.body.data.key)).toBe(401);
    expect((await call(stack, 'POST', `/portal/api/keys/${now.body.data.keyId}/revoke`, { headers })).status).toBe(404);
    const actions = (await stack.sql<{ action: string }[]>`select action from access_audit where subject = ${pat.actorId} and action like 'portal_%' order by id`).map((a) => a.action);
    expect(actions).toEqual(['portal_key_created', 'portal_key_rotated', 'portal_key_rotated', 'portal_key_revoked']);
  });

  it('an expiry set at create ends the key; a past or far expiry is refused', async () => {
    const pat = await person();
    const { headers } = await signIn(pat);
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const made = await call(stack, 'POST', '/portal/api/keys', { headers, body: { name: 'Short-lived', permissions: ['search:read'], expiresAt: soon } });
    expect([made.status, made.body.data.status, made.body.data.expiresAt]).toEqual([201, 'expiring', soon]);
    await stack.sql`update api_keys set expires_at = now() - interval '1 second' where key_id = ${made.body.data.keyId}`;
    expect((await call(stack, 'GET', '/api/v1/search?q=ink', { headers: { 'x-api-key': made.body.data.key } })).status).toBe(401);
    for (const expiresAt of [new Date(Date.now() - 1000).toISOString(), new Date(Date.now() + 3 * 366 * 86_400_000).toISOString(), 'tomorrow']) {
      expect((await call(stack, 'POST', '/portal/api/keys', { headers, body: { name: 'x', permissions: ['search:read'], expiresAt } })).status).toBe(400);
    }
  });

  it("another organization's keys cannot be listed, rotated or revoked", async () => {
    const a = await signIn(await person());
    const b = await signIn(await person());
    const theirs = (await call(stack, 'POST', '/portal/api/keys', { headers: a.headers, body: { name: 'A only', permissions: ['artists:read'] } })).body.data;
    expect(await keysOf(b.headers)).toEqual([]);
    expect((await call(stack, 'POST', `/portal/api/keys/${theirs.keyId}/rotate`, { headers: b.headers, body: { overlapSeconds: 0 } })).status).toBe(404);
    expect((await call(stack, 'POST', `/portal/api/keys/${theirs.keyId}/revoke`, { headers: b.headers })).status).toBe(404);
    expect((await call(stack, 'GET', '/api/v1/artists?limit=1', { headers: { 'x-api-key': theirs.key } })).status).toBe(200);
    // Nor can an operator's key of the same organization be rotated into a self-service one.
    const opKey = await apiKeyActor(stack, { organizationId: a.me.organizationId, permissions: ['owner_portfolio_assets:read'] });
    const r = await call(stack, 'POST', `/portal/api/keys/${opKey.keyId}/rotate`, { headers: a.headers, body: { overlapSeconds: 0 } });
    expect([r.status, r.body.code]).toEqual([422, 'permission_not_selectable']);
    // The list says so before anyone clicks: the page offers Rotate only on a key the portal may rotate.
    const listed = await keysOf(a.headers);
    expect(listed.find((k) => k.keyId === opKey.keyId)).toMatchObject({ rotatable: false });
    expect(listed.find((k) => k.keyId === theirs.keyId)).toMatchObject({ rotatable: true });
  });

  it('writes need the CSRF token; a permission removed ends the portal at the next request; sign-out ends the session', async () => {
    const pat = await person();
    const { headers } = await signIn(pat);
    const noCsrf = await call(stack, 'POST', '/portal/api/keys', { headers: { cookie: headers.cookie! }, body: { name: 'x', permissions: ['artists:read'] } });
    expect([noCsrf.status, noCsrf.body.code]).toEqual([403, 'csrf_failed']);
    const wrongOrigin = await call(stack, 'POST', '/portal/api/keys', { headers: { ...headers, origin: 'https://evil.example' }, body: { name: 'x', permissions: ['artists:read'] } });
    expect(wrongOrigin.body.code).toBe('csrf_failed');
    // The operator takes the permission away: the very next request is refused.
    await upsertMapping(stack.sql, {
      actorId: pat.actorId, credentialKind: 'bearer', credentialSubject: pat.subject!, credentialIssuer: LOCAL_ISSUER,
      role: 'partner_admin', permissions: ['artists:read'], organizationId: pat.organizationId!,
    });
    expect((await call(stack, 'GET', '/portal/api/keys', { headers })).body.code).toBe('permission_denied');

    const kim = await person();
    const s = await signIn(kim);
    expect((await call(stack, 'DELETE', '/portal/api/session', { headers: s.headers })).status).toBe(204);
    expect((await call(stack, 'GET', '/portal/api/me', { headers: s.headers })).status).toBe(401);
  });

  it('a one-time portal link signs in once; a console link does not open the portal, nor a portal session the console', async () => {
    const pat = await person();
    const code = await createSigninCode(stack.sql, { subject: pat.subject!, issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + 3600_000), surface: 'portal' });
    const first = await fetch(`${stack.url}/portal/signin?code=${code}`, { redirect: 'manual' });
    expect([first.status, first.headers.get('location')]).toEqual([303, '/portal']);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    expect((await call(stack, 'GET', '/portal/api/me', { headers: { cookie } })).body.data.organizationId).toBe(pat.organizationId);
    const second = await fetch(`${stack.url}/portal/signin?code=${code}`, { redirect: 'manual' });
    expect(second.headers.get('location')).toBe('/portal?signin=expired');
    // Surfaces do not mix: a console code is no portal code; a portal cookie is no console session.
    const consoleCode = await createSigninCode(stack.sql, { subject: pat.subject!, issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + 3600_000) });
    expect((await fetch(`${stack.url}/portal/signin?code=${consoleCode}`, { redirect: 'manual' })).headers.get('location')).toBe('/portal?signin=expired');
    const consoleCookie = cookie.replace(/^portal_session=/, 'console_session=');
    expect((await call(stack, 'GET', '/console/api/me', { headers: { cookie: consoleCookie } })).status).toBe(401);
  });

  it("the organization's webhook endpoints through the portal: the partner API's own operations, same answers, same organization only", async () => {
    const org = uid('org-');
    const { headers } = await signIn(await person(org));
    const partnerKey = await apiKeyActor(stack, { organizationId: org, permissions: ['portfolio_intake:stage'] });
    const made = await call(stack, 'POST', '/portal/api/webhook-endpoints', { headers, body: { url: 'http://127.0.0.1:9/hooks', description: 'Booking system' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data.secret).toMatch(/^whsec_/);
    const id = made.body.data.endpointId as string;
    // The partner API lists the very same endpoint, without its secret, and so does the portal.
    const viaApi = await call(stack, 'GET', '/api/private/portfolio-intake/v1/webhook-endpoints', { headers: partnerKey.headers });
    const viaPortal = await call(stack, 'GET', '/portal/api/webhook-endpoints', { headers });
    expect(viaPortal.body.data).toEqual(viaApi.body.data);
    expect(viaPortal.body.data.map((e: any) => e.endpointId)).toEqual([id]);
    expect(JSON.stringify(viaPortal.body)).not.toContain(made.body.data.secret);
    // Rotate, read the (empty) delivery log, redeliver nothing, delete.
    const rotated = await call(stack, 'POST', `/portal/api/webhook-endpoints/${id}/rotate-secret`, { headers, body: { overlapSeconds: 3600 } });
    expect([rotated.status, rotated.body.data.secret === made.body.data.secret]).toEqual([200, false]);
    expect((await call(stack, 'GET', `/portal/api/webhook-endpoints/${id}/deliveries`, { headers })).body).toMatchObject({ data: [], next_cursor: null });
    expect((await call(stack, 'POST', `/portal/api/webhook-endpoints/${id}/deliveries/dlv_none/redeliver`, { headers })).status).toBe(404);
    // Another organization's person sees none of it.
    const other = await signIn(await person());
    expect((await call(stack, 'GET', '/portal/api/webhook-endpoints', { headers: other.headers })).body.data).toEqual([]);
    expect((await call(stack, 'DELETE', `/portal/api/webhook-endpoints/${id}`, { headers: other.headers })).status).toBe(404);
    expect((await call(stack, 'DELETE', `/portal/api/webhook-endpoints/${id}`, { headers })).status).toBe(204);
    expect((await call(stack, 'GET', '/api/private/portfolio-intake/v1/webhook-endpoints', { headers: partnerKey.headers })).body.data).toEqual([]);
  });

  it('the mapping rules: partner_api_keys:manage is never on an API key', async () => {
    await expect(apiKeyActor(stack, { permissions: ['partner_api_keys:manage'] })).rejects.toThrow(/not available on v1 partner keys/);
  });
});
