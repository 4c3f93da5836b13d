// A rotation is a new secret for the same actor (A1, A2): an operator-made key with scopes,
// capabilities and a role is rotated in the portal; the new key is that same actor with every field
// of its mapping, reads and completes the old key's submissions, and replays a create retried with
// the same idempotencyKey. The portal lists the scopes; its origin check takes scheme, host and port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyActor, bearerActor, TEST_ARTIST, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, putUpload, submissionBody } from '../helpers/intake';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { LOG_LEVEL: 'silent' } });
});
afterAll(async () => stack?.stop());

async function signIn(p: TestCredential): Promise<Record<string, string>> {
  const r = await call(stack, 'POST', '/portal/api/session', { body: { token: p.token } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { cookie: r.headers.get('set-cookie')!.split(';')[0]!, 'x-portal-csrf': r.body.data.csrfToken };
}

const mappingOf = async (keyId: string) =>
  (await stack.sql<{ actorId: string; role: string; permissions: string[]; studioScope: string[]; artistScope: string[]; capabilities: string[] }[]>`
    select actor_id, role, permissions, studio_scope, artist_scope, capabilities from actor_mappings
    where credential_kind = 'api_key' and credential_subject = api_key_mapping_subject(${keyId})`)[0];

describe('a key rotation keeps what the key was', () => {
  it('scopes, capabilities and role survive; the old submissions stay readable and completable; an idempotent create replays across it', async () => {
    const organizationId = uid('org-');
    const key = await apiKeyActor(stack, {
      organizationId,
      role: 'partner_service',
      permissions: ['portfolio_intake:stage', 'artists:read'],
      studioScope: ['studio-rot-1'],
      artistScope: [TEST_ARTIST],
      capabilities: ['portfolio_intake:stage_cross_tenant'],
      selfService: false,
    });
    const before = await mappingOf(key.keyId!);
    const admin = await signIn(await bearerActor(stack, { organizationId, permissions: ['partner_api_keys:manage'], role: 'partner_admin' }));

    // A submission in flight (staged, bytes not yet sent) and one idempotency record.
    const body = submissionBody(key, { sizeBytes: 2048 });
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: key.headers, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.submission.submissionId as string;

    const rotated = await call(stack, 'POST', `/portal/api/keys/${key.keyId}/rotate`, { headers: admin, body: { overlapSeconds: 3600 } });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const fresh = { 'x-api-key': rotated.body.data.key as string };
    expect(rotated.body.data.scopes).toEqual({ studios: ['studio-rot-1'], artists: [TEST_ARTIST] });

    // The same actor, every field of its mapping kept.
    expect(await mappingOf(rotated.body.data.keyId)).toEqual(before);
    expect(await mappingOf(key.keyId!)).toEqual(before); // the old key, during its overlap

    // The portal lists both keys with their scopes.
    const listed = (await call(stack, 'GET', '/portal/api/keys', { headers: admin })).body.data as { keyId: string; scopes: unknown }[];
    for (const k of [key.keyId, rotated.body.data.keyId]) expect(listed.find((l) => l.keyId === k)?.scopes).toEqual({ studios: ['studio-rot-1'], artists: [TEST_ARTIST] });

    // The new key reads the old key's submission, replays its create, and completes its upload.
    expect((await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: fresh })).status).toBe(200);
    const replay = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: fresh, body });
    expect(replay.status, JSON.stringify(replay.body)).toBe(201);
    expect(replay.body.data.submission.submissionId).toBe(id);
    const [count] = await stack.sql<{ n: number }[]>`select count(*)::int as n from submissions where partner_actor_id = ${before!.actorId}`;
    expect(count!.n).toBe(1);
    expect((await putUpload(replay.body.data.upload.url, jpegBytes(2048))).status).toBe(200);
    const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: fresh });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.intakeStatus).toBe('awaiting_review');
    // The old key, while its overlap lasts, is the same actor too.
    expect((await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: key.headers })).body.data.intakeStatus).toBe('awaiting_review');
    // And the new key is still limited to its artist.
    const elsewhere = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: fresh, body: submissionBody(key, { artistCanonicalId: 'artist-not-in-scope' }) });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([403, 'artist_out_of_scope']);
  });

  it('the portal refuses a write from another scheme or port of the same host', async () => {
    const organizationId = uid('org-');
    const admin = await bearerActor(stack, { organizationId, permissions: ['partner_api_keys:manage'], role: 'partner_admin' });
    const session = await signIn(admin);
    const { host, port } = new URL(stack.url);
    const write = (origin: string) => call(stack, 'POST', '/portal/api/keys', { headers: { ...session, origin }, body: { name: 'x', permissions: ['artists:read'] } });
    expect((await write(`https://${host}`)).body.code).toBe('csrf_failed');
    expect((await write(`https://${host.split(':')[0]}:${port}`)).body.code).toBe('csrf_failed');
    expect((await write(`http://${host.split(':')[0]}:${Number(port) + 1}`)).body.code).toBe('csrf_failed');
    expect((await write(`http://${host}`)).status).toBe(201);
  });
});
