// The tokens a Temporal frontend with the JWT authorizer accepts (temporal/tokens.ts): what the
// pinned server's default claim mapper reads, checked here with an independent verifier (jose)
// against the JWKS the frontend is given; the refresh that keeps a writer's token from expiring.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateTemporalSigningKey, mintTemporalToken, namespacePermission, TEMPORAL_TOKEN_AUDIENCE, temporalJwks, tokenSource } from '../../temporal/tokens';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-tokens-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('Temporal tokens', () => {
  const key = loadOrCreateTemporalSigningKey(dir);

  it('the key is made once under DATA_DIR/secrets, private to its owner, and the JWKS carries only its public half', () => {
    expect(loadOrCreateTemporalSigningKey(dir)).toEqual(key);
    const file = path.join(dir, 'secrets', 'temporal-jwt-key.json');
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    const jwks = temporalJwks(key);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d');
    expect(jwks.keys[0]).toMatchObject({ kid: key.kid, alg: 'ES256', kty: 'EC', crv: 'P-256' });
  });

  it('a minted token verifies against the JWKS with our audience and carries sub, permissions and a 15-minute life', async () => {
    const token = mintTemporalToken(key, { subject: 'tattoo-intake-api', permissions: [namespacePermission('default', 'write')], ttlSeconds: 900 });
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(temporalJwks(key)), { audience: TEMPORAL_TOKEN_AUDIENCE, algorithms: ['ES256'] });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: key.kid });
    expect(payload).toMatchObject({ sub: 'tattoo-intake-api', permissions: ['default:write'] });
    expect(payload.exp! - payload.iat!).toBe(900);
  });

  it('a token for another audience, or signed by another key, does not verify', async () => {
    const token = mintTemporalToken(key, { subject: 'x', permissions: ['default:read'], ttlSeconds: 60 });
    await expect(jwtVerify(token, createLocalJWKSet(temporalJwks(key)), { audience: 'tattoo-intake-api' })).rejects.toThrow();
    const other = loadOrCreateTemporalSigningKey(fs.mkdtempSync(path.join(dir, 'other-')));
    await expect(jwtVerify(token, createLocalJWKSet({ keys: [{ ...other.publicJwk, kid: key.kid }] }))).rejects.toThrow();
  });

  it('lifetimes outside 1 s .. 12 h are refused', () => {
    for (const ttlSeconds of [0, 1.5, 12 * 3600 + 1]) expect(() => mintTemporalToken(key, { subject: 'x', permissions: [], ttlSeconds })).toThrow(RangeError);
  });

  it('a token source keeps its token until two thirds of its life, then mints a fresh one', () => {
    let now = Date.parse('2026-11-28T21:00:00Z');
    const source = tokenSource(key, { subject: 'tattoo-intake-worker', permissions: ['default:write'], ttlSeconds: 900 }, () => now);
    expect(source.refreshMs).toBe(600_000);
    const first = source.current();
    now += 599_000;
    expect(source.current()).toBe(first);
    now += 1_000;
    const second = source.current();
    expect(second).not.toBe(first);
    const exp = (t: string) => (JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp;
    expect(exp(second) - exp(first)).toBe(600);
  });
});
