import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';

function runEntry(entry: string, env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, entry)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('configuration is checked once at start', () => {
  it('the API in production without DATABASE_URL exits non-zero naming each missing variable', () => {
    const r = runEntry('api/main.ts', { NODE_ENV: 'production', TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('DATABASE_URL');
    expect(r.stderr).toContain('PUBLIC_BASE_URL');
    expect(r.stderr).toContain('UPLOAD_SIGNING_SECRET');
    expect(r.stderr).toContain('DECISION_SIGNING_KEY');
    expect(r.stderr).toContain('WEBHOOK_SECRET_KEY: required when NODE_ENV=production');
    expect(r.stderr).toContain('PORTAL_HANDOFF_KEY: required when NODE_ENV=production with IDP_DRIVER=local');
    expect(r.stderr).not.toContain('TEMPORAL_ADDRESS:');
  });

  it('the worker in production without WEBHOOK_SECRET_KEY exits 78 saying what the key is; a malformed key is named, never echoed', () => {
    const missing = runEntry('worker/main.ts', { NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@127.0.0.1:1/db', TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(missing.status).toBe(78);
    expect(missing.stderr).toMatch(/WEBHOOK_SECRET_KEY: required when NODE_ENV=production: the key webhook signing secrets are encrypted with at rest, 32 random bytes/);
    const short = runEntry('worker/main.ts', { NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@127.0.0.1:1/db', TEMPORAL_ADDRESS: '127.0.0.1:1', WEBHOOK_SECRET_KEY: 'c2hvcnQtc2VjcmV0LWtleQ==' });
    expect(short.status).toBe(78);
    expect(short.stderr).toContain('WEBHOOK_SECRET_KEY: expected 32 random bytes');
    expect(short.stderr).not.toContain('c2hvcnQtc2VjcmV0LWtleQ');
  });

  it('a production migrate without DATABASE_URL exits 78 naming it, and connects nowhere', () => {
    const r = runEntry('scripts/migrate.ts', { NODE_ENV: 'production' });
    expect(r.status, r.stdout + r.stderr).toBe(78);
    expect(r.stderr).toContain('DATABASE_URL: required when NODE_ENV=production');
    expect(r.stdout).not.toContain('[migrate] PostgreSQL');
  });

  it('the worker rejects a malformed value and names it, without echoing the value', () => {
    const r = runEntry('worker/main.ts', { DATABASE_URL: 'mysql://secret-pass@host/db', TEMPORAL_ADDRESS: 'nope' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('DATABASE_URL');
    expect(r.stderr).toContain('TEMPORAL_ADDRESS');
    expect(r.stderr).not.toContain('secret-pass');
  });
});
