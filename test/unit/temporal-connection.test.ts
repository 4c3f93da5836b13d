// How the API and the worker connect to a frontend with the JWT authorizer (TEMPORAL_AUTH=jwt):
// the configuration rules, TLS left as TEMPORAL_TLS says (an apiKey alone would turn the SDK's TLS
// on against a plain-gRPC loopback frontend), and the writer tokens they present.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiConfigSchema, workerConfigSchema } from '../../lib/config/schema';
import { temporalConnectionOptions, writerTokens } from '../../temporal/connection';
import { loadOrCreateTemporalSigningKey, TEMPORAL_SIGNING_KEY_FILE } from '../../temporal/tokens';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-connection-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('TEMPORAL_AUTH configuration', () => {
  it('defaults to none, with 15-minute writer tokens when jwt', () => {
    expect(workerConfigSchema.parse({})).toMatchObject({ TEMPORAL_AUTH: 'none', TEMPORAL_TOKEN_TTL_SECONDS: 900 });
  });

  it.each([
    ['jwt beside a Temporal Cloud API key', { TEMPORAL_AUTH: 'jwt', TEMPORAL_API_KEY: 'cloud-key' }, 'TEMPORAL_API_KEY'],
    ['jwt in production without a named key file', { TEMPORAL_AUTH: 'jwt', NODE_ENV: 'production', DATABASE_URL: 'postgres://a@b/c', TEMPORAL_ADDRESS: 'temporal:7233', DECISION_VERIFY_KEY: 'PUBLIC KEY', WEBHOOK_SECRET_KEY: 'a'.repeat(64) }, 'TEMPORAL_JWT_KEY_FILE'],
    ['a token lifetime under a minute', { TEMPORAL_AUTH: 'jwt', TEMPORAL_TOKEN_TTL_SECONDS: '30' }, 'TEMPORAL_TOKEN_TTL_SECONDS'],
  ])('the worker refuses %s', (_, env, field) => {
    const r = workerConfigSchema.safeParse(env);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path[0])).toContain(field);
  });

  it('the API refuses jwt beside a Temporal Cloud API key too', () => {
    const r = apiConfigSchema.safeParse({ TEMPORAL_AUTH: 'jwt', TEMPORAL_API_KEY: 'cloud-key' });
    expect(r.error?.issues.map((i) => i.path[0])).toContain('TEMPORAL_API_KEY');
  });
});

describe('connection options and writer tokens', () => {
  const base = { DATA_DIR: dir, TEMPORAL_NAMESPACE: 'intake', TEMPORAL_ADDRESS: '127.0.0.1:7233', TEMPORAL_TLS: false };

  it('say tls false outright unless TEMPORAL_TLS, so a token does not turn TLS on; Temporal Cloud keeps its key and TLS', () => {
    expect(temporalConnectionOptions({ ...base, TEMPORAL_AUTH: 'jwt' })).toEqual({ address: '127.0.0.1:7233', tls: false });
    expect(temporalConnectionOptions({ ...base, TEMPORAL_TLS: true, TEMPORAL_AUTH: 'jwt' })).toEqual({ address: '127.0.0.1:7233', tls: true });
    expect(temporalConnectionOptions({ ...base, TEMPORAL_API_KEY: 'cloud-key' })).toEqual({ address: '127.0.0.1:7233', apiKey: 'cloud-key', tls: true });
  });

  it('without jwt there are no tokens; with it, a missing key file is named', () => {
    expect(writerTokens(base, 'api')).toBeUndefined();
    expect(() => writerTokens({ ...base, TEMPORAL_AUTH: 'jwt' }, 'api')).toThrow(path.join(dir, 'secrets', TEMPORAL_SIGNING_KEY_FILE));
  });

  it('the API and the worker present <namespace>:write tokens of their own subject and lifetime', () => {
    loadOrCreateTemporalSigningKey(dir);
    const api = writerTokens({ ...base, TEMPORAL_AUTH: 'jwt', TEMPORAL_TOKEN_TTL_SECONDS: 900 }, 'api')!;
    expect(claimsOf(api.current())).toMatchObject({ sub: 'tattoo-intake-api', permissions: ['intake:write'] });
    const worker = writerTokens({ ...base, TEMPORAL_AUTH: 'jwt', TEMPORAL_TOKEN_TTL_SECONDS: 120 }, 'worker')!;
    const claims = claimsOf(worker.current());
    expect(claims).toMatchObject({ sub: 'tattoo-intake-worker', permissions: ['intake:write'] });
    expect((claims.exp as number) - (claims.iat as number)).toBe(120);
    expect(worker.refreshMs).toBe(80_000);
  });
});
