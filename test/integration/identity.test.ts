// Identity providers against real HTTP: a fake *external* IdP (a true external boundary) serving a
// JWKS and a key-verify endpoint on loopback, verified by jose exactly as in production.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MappingRefusedError, upsertMapping } from '../../lib/identity/actors';
import { revokeApiKey } from '../../lib/identity/api-keys';
import { createIdentityProvider, LOCAL_ISSUER } from '../../lib/identity';
import { issueLocalToken, LOCAL_ALG, LOCAL_AUDIENCE } from '../../lib/identity/local-keys';
import { InvalidCredentialError, ProviderUnavailableError } from '../../lib/identity/types';
import { apiKeyActor, bearerActor } from '../helpers/auth';
import { call, INTAKE, submissionBody } from '../helpers/intake';
import { freePort } from '../../lib/net/free-port';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

const ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'tattoo-intake';

interface FakeIdp {
  url: string;
  sign(
    claims?: Record<string, unknown>,
    o?: { alg?: string; key?: Parameters<SignJWT['sign']>[0]; kid?: string; exp?: string | number | null; iat?: number | null; typ?: string; iss?: string; aud?: string },
  ): Promise<string>;
  validKeys: Map<string, { keyId: string; organizationId: string; permissions: string[] }>;
  close(): Promise<void>;
}

async function startFakeIdp(): Promise<FakeIdp> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const validKeys = new Map<string, { keyId: string; organizationId: string; permissions: string[] }>();
  const server = http.createServer((req, res) => {
    if (req.url === '/jwks') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    if (req.url === '/verify-key' && req.method === 'POST') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const hit = validKeys.get(JSON.parse(body).key);
        if (!hit) return res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ valid: true, ...hit }));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    validKeys,
    // iat / exp: null leaves the claim out; a number is an absolute NumericDate.
    sign: (claims = {}, o = {}) => {
      const jwt = new SignJWT({ ...claims })
        .setProtectedHeader({ alg: o.alg ?? 'RS256', kid: o.kid ?? 'k1', ...(o.typ ? { typ: o.typ } : {}) })
        .setSubject('user-1')
        .setIssuer(o.iss ?? ISSUER)
        .setAudience(o.aud ?? AUDIENCE);
      if (o.iat !== null) jwt.setIssuedAt(o.iat);
      if (o.exp !== null) jwt.setExpirationTime(o.exp ?? '10m');
      return jwt.sign(o.key ?? privateKey);
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function externalSettings(idpUrl: string) {
  return {
    IDP_DRIVER: 'external' as const,
    IDP_JWKS_URL: `${idpUrl}/jwks`,
    IDP_ISSUER: ISSUER,
    IDP_AUDIENCE: AUDIENCE,
    IDP_KEY_VERIFY_URL: `${idpUrl}/verify-key`,
    IDP_ALGORITHMS: 'RS256',
    IDP_CLOCK_TOLERANCE_SECONDS: 5,
  };
}

describe('external identity provider: bearer tokens through a real JWKS over HTTP', () => {
  let idp: FakeIdp;
  let stack: TestStack;
  let provider: ReturnType<typeof createIdentityProvider>;
  beforeAll(async () => {
    idp = await startFakeIdp();
    stack = await startTestStack({ worker: false });
    provider = createIdentityProvider(externalSettings(idp.url), { sql: stack.sql, localJwksUrl: '' });
  });
  afterAll(async () => {
    await stack?.stop();
    await idp?.close();
  });

  it('accepts a token signed by the published key', async () => {
    await expect(provider.verifyBearer(await idp.sign())).resolves.toMatchObject({ kind: 'bearer', subject: 'user-1', issuer: ISSUER });
  });

  it.each([
    ['an expired token', () => idp.sign({}, { exp: '-1h' })],
    ['a wrong issuer', () => idp.sign({}, { iss: 'https://evil.example/' })],
    ['a wrong audience', () => idp.sign({}, { aud: 'someone-else' })],
    ['a token signed by an unknown key', async () => idp.sign({}, { key: (await generateKeyPair('RS256')).privateKey })],
    ['a token signed by an unknown kid', async () => idp.sign({}, { key: (await generateKeyPair('RS256')).privateKey, kid: 'k-unknown' })],
    ['alg none', async () => `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'user-1', iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })).toString('base64url')}.`],
  ])('refuses %s as an invalid credential', async (_name, make) => {
    await expect(provider.verifyBearer(await make())).rejects.toBeInstanceOf(InvalidCredentialError);
  });

  const now = () => Math.floor(Date.now() / 1000);
  it.each([
    ['an exp a century out (lifetime beyond the maximum token age)', () => idp.sign({}, { exp: '100y' })],
    ['a lifetime of 24 h and one second', () => idp.sign({}, { iat: now(), exp: now() + 24 * 3600 + 1 })],
    ['an iat older than the maximum token age (exp still ahead)', () => idp.sign({}, { iat: now() - 25 * 3600, exp: now() + 600 })],
    ['an iat in the future beyond the clock tolerance', () => idp.sign({}, { iat: now() + 120, exp: now() + 600 })],
    ['no iat', () => idp.sign({}, { iat: null })],
    ['no exp', () => idp.sign({}, { exp: null })],
    ['a header typ other than JWT / at+jwt', () => idp.sign({}, { typ: 'dpop+jwt' })],
    ['a header typ of JOSE', () => idp.sign({}, { typ: 'JOSE' })],
  ])('refuses %s as an invalid credential', async (_name, make) => {
    await expect(provider.verifyBearer(await make())).rejects.toBeInstanceOf(InvalidCredentialError);
  });

  it.each([
    ['typ JWT', { typ: 'JWT' }],
    ['typ at+jwt', { typ: 'at+jwt' }],
    ['typ application/at+JWT', { typ: 'application/at+JWT' }],
    ['no typ', {}],
    ['a lifetime of exactly 24 h', { iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 24 * 3600 }],
    ['an iat in the future within the clock tolerance', { iat: Math.floor(Date.now() / 1000) + 3 }],
  ] as const)('accepts a token with %s', async (_name, o) => {
    await expect(provider.verifyBearer(await idp.sign({}, o))).resolves.toMatchObject({ kind: 'bearer', subject: 'user-1' });
  });

  it('reports the provider unavailable (not an invalid credential) when the JWKS cannot be fetched', async () => {
    const gone = createIdentityProvider(externalSettings(`http://127.0.0.1:${await freePort()}`), { sql: stack.sql, localJwksUrl: '' });
    await expect(gone.verifyBearer(await idp.sign())).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(gone.verifyApiKey('tpk_x_y')).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('answers 403 over HTTP for a key the provider validated but no actor mapping covers, and 503 while the provider is down', async () => {
    const ext = await startTestStack({
      worker: false,
      env: { IDP_DRIVER: 'external', PARTNER_PORTAL_URL: 'https://portal.idp.example/keys', ...Object.fromEntries(Object.entries(externalSettings(idp.url)).map(([k, v]) => [k, String(v)])) },
    });
    try {
      // The partner portal is the identity provider's then: not served here, and the retired routes say where it is.
      expect((await fetch(`${ext.url}/portal`)).status).toBe(404);
      const signIn = await call(ext, 'POST', '/portal/api/session', { body: { token: await idp.sign() } });
      expect([signIn.status, signIn.body.code]).toEqual([404, 'not_found']);
      expect(signIn.body.detail).toContain('https://portal.idp.example/keys');
      const retired = await call(ext, 'GET', '/api/v1/api-keys');
      expect([retired.status, retired.headers.get('link')]).toEqual([410, '<https://portal.idp.example/keys>; rel="help"']);
      expect((await call(ext, 'GET', '/portal/api/docs-prefill')).body).toMatchObject({ data: null, reason: 'signed_out' });
      idp.validKeys.set('partner-key-1', { keyId: 'ext-key-1', organizationId: 'org-ext', permissions: ['portfolio_intake:stage'] });
      const unmapped = await call(ext, 'GET', `${INTAKE}/submissions/sub_x`, { headers: { 'x-api-key': 'partner-key-1' } });
      expect(unmapped.status).toBe(403);
      expect(unmapped.body.code).toBe('actor_not_mapped');
      await upsertMapping(ext.sql, { actorId: uid('ext-'), credentialKind: 'api_key', credentialSubject: 'ext-key-1', role: 'partner', permissions: ['portfolio_intake:stage'], organizationId: 'org-ext' });
      expect((await call(ext, 'GET', `${INTAKE}/submissions/sub_x`, { headers: { 'x-api-key': 'partner-key-1' } })).status).toBe(404);
      expect((await call(ext, 'GET', `${INTAKE}/submissions/sub_x`, { headers: { 'x-api-key': 'unknown-key' } })).status).toBe(401);
      await idp.close();
      const down = await call(ext, 'GET', `${INTAKE}/submissions/sub_x`, { headers: { 'x-api-key': 'partner-key-1' } });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBeTruthy();
    } finally {
      await ext.stop();
      idp = await startFakeIdp();
    }
  });
});

describe('local identity provider and actor mappings', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
  });
  afterAll(async () => stack?.stop());

  it('serves its public JWKS and never the private key', async () => {
    const r = await call(stack, 'GET', '/.well-known/jwks.json');
    expect(r.status).toBe(200);
    expect(r.body.keys).toHaveLength(1);
    expect(r.body.keys[0]).not.toHaveProperty('d');
  });

  it('answers 401 invalid_credential over HTTP for a local token living beyond the maximum age, from the future, or of a foreign typ', async () => {
    const member = await bearerActor(stack, { permissions: ['portfolio_intake:stage'] });
    const key = stack.api.deps.localSigningKey!;
    const pk = await importJWK(key.privateJwk, LOCAL_ALG);
    const now = Math.floor(Date.now() / 1000);
    const token = (o: { iat?: number; exp?: number; typ?: string }) =>
      new SignJWT({})
        .setProtectedHeader({ alg: LOCAL_ALG, kid: key.kid, typ: o.typ ?? 'JWT' })
        .setSubject(member.subject!)
        .setIssuer(LOCAL_ISSUER)
        .setAudience(LOCAL_AUDIENCE)
        .setIssuedAt(o.iat ?? now)
        .setExpirationTime(o.exp ?? now + 600)
        .sign(pk);
    const get = async (t: string) => call(stack, 'GET', `${INTAKE}/submissions/sub_x`, { headers: { authorization: `Bearer ${t}` } });
    // The same subject with an ordinary token gets past authentication (404: no such submission).
    expect((await get(await token({}))).status).toBe(404);
    for (const t of [await token({ exp: now + 100 * 365 * 86400 }), await token({ iat: now + 3600, exp: now + 7200 }), await token({ typ: 'secevent+jwt' })]) {
      const r = await get(t);
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.code).toBe('invalid_credential');
    }
  });

  it('the local provider will not mint a token the verifier would refuse', async () => {
    await expect(issueLocalToken(stack.api.deps.localSigningKey!, { subject: 's', issuer: LOCAL_ISSUER, ttlSeconds: 24 * 3600 + 1 })).rejects.toBeInstanceOf(RangeError);
  });

  it('a revoked API key is 401', async () => {
    const p = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    expect((await call(stack, 'GET', `${INTAKE}/submissions/sub_x`, { headers: p.headers })).status).toBe(404);
    await revokeApiKey(stack.sql, p.keyId!);
    expect((await call(stack, 'GET', `${INTAKE}/submissions/sub_x`, { headers: p.headers })).status).toBe(401);
  });

  it('an inactive mapping is treated as no mapping (403)', async () => {
    const p = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'], active: false });
    expect((await call(stack, 'GET', `${INTAKE}/submissions/sub_x`, { headers: p.headers })).status).toBe(403);
  });

  it.each(['artists:write', 'bookings:manage', 'portfolios:publish', 'portfolio_intake:review'] as const)('refuses to map a partner key with %s', async (perm) => {
    await expect(apiKeyActor(stack, { permissions: [perm] })).rejects.toBeInstanceOf(MappingRefusedError);
  });

  it('grants stage_cross_tenant only to approved service actors, never to a self-service key', async () => {
    await expect(apiKeyActor(stack, { permissions: ['portfolio_intake:stage'], capabilities: ['portfolio_intake:stage_cross_tenant'] })).rejects.toBeInstanceOf(MappingRefusedError);
    const service = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'], capabilities: ['portfolio_intake:stage_cross_tenant'], selfService: false, role: 'service' });
    expect(service.actorId).toBeTruthy();
  });

  it('a partner staging for another tenant is 403 out_of_scope unless it holds the cross-tenant capability', async () => {
    const partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const r = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { tenantId: 'someone-else' }) });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_scope');
    const scoped = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'], artistScope: ['artist-a'] });
    const r2 = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: scoped.headers, body: submissionBody(scoped, { artistCanonicalId: 'artist-b' }) });
    expect(r2.status).toBe(403);
  });

  it('retired local API-key management routes answer 410', async () => {
    for (const [m, p] of [['GET', '/api/v1/api-keys'], ['POST', '/api/v1/api-keys'], ['DELETE', '/api/v1/api-keys/abc'], ['POST', '/api/v1/auth/api-keys']] as const) {
      const r = await call(stack, m, p, m === 'POST' ? { body: {} } : {});
      expect(r.status).toBe(410);
      expect(r.body.code).toBe('route_retired');
      // Where keys are managed now: this API's partner portal.
      expect(r.body.detail).toContain(`${stack.url}/portal`);
      expect(r.headers.get('link')).toBe(`<${stack.url}/portal>; rel="help"`);
    }
  });
});
