// The cutover tools name the place they could not reach (host:port/db), never the password.
import { describe, expect, it } from 'vitest';
import { connectionProblem, whereOf } from '../../lib/cutover/connection';
import { runScript } from '../helpers/run-script';

const URL_WITH_SECRET = 'postgres://owner:s3cret-pw@127.0.0.1:1/runtime_db';

describe('cutover tools and connections', () => {
  it('describe a URL as host:port/db only', () => {
    expect(whereOf(URL_WITH_SECRET)).toBe('127.0.0.1:1/runtime_db');
    expect(connectionProblem(URL_WITH_SECRET, Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe('cannot use PostgreSQL at 127.0.0.1:1/runtime_db: connection refused');
  });

  it.each([
    ['scripts/cutover.ts', ['status'], { DATABASE_URL: URL_WITH_SECRET }],
    ['scripts/cutover.ts', ['backfill'], { DATABASE_URL: URL_WITH_SECRET, LEGACY_DATA_URL: 'postgres://r:legacy-pw@127.0.0.1:1/legacy_db' }],
    ['scripts/legacy-fixture.ts', ['--rows', '10', '--database-url', URL_WITH_SECRET], {}],
  ] as const)('%s says where it connected and names host:port when it cannot, without the password', async (script, args, env) => {
    const r = await runScript(script, [...args], { ...env });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toContain('127.0.0.1:1/');
    expect(r.stderr).toContain('127.0.0.1:1/runtime_db');
    expect(r.stderr).toContain('connection refused');
    expect(r.stdout + r.stderr).not.toMatch(/s3cret-pw|legacy-pw/);
  }, 60_000);
});
