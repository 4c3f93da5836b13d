// `npm run legacy:fixture -- --create`: the cutover quick path's legacy store made by the project
// itself (no psql): the database is created when missing, filled, and its URL printed last; by
// default on the server of the runtime store the tool finds (here DATABASE_URL), never the runtime
// store itself.
import postgres from 'postgres';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { runScript } from '../helpers/run-script';
import { uid } from '../helpers/stack';

const made: string[] = [];
const admin = () => postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
const urlOf = (db: string) => inject('pgAdminUrl').replace(/\/postgres$/, `/${db}`);
const lastLine = (s: string) => s.trim().split('\n').at(-1);
const password = () => decodeURIComponent(new URL(inject('pgAdminUrl')).password);

afterAll(async () => {
  const a = admin();
  for (const db of made) await a.unsafe(`drop database if exists ${db} with (force)`);
  await a.end();
});

describe('npm run legacy:fixture -- --create', () => {
  it('creates the database named by --database-url when missing, fills it, prints its URL last; again: it exists, the same rows', async () => {
    const db = uid('legacy_create_');
    made.push(db);
    const missing = await runScript('scripts/legacy-fixture.ts', ['--rows', '20', '--database-url', urlOf(db)]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--create makes it');
    expect(missing.stdout + missing.stderr).not.toContain(password());

    for (const pass of ['created database', 'exists']) {
      const r = await runScript('scripts/legacy-fixture.ts', ['--create', '--rows', '20', '--database-url', urlOf(db)]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`legacy fixture: ${pass === 'exists' ? `database ${db} exists` : `created database ${db}`}`);
      expect(lastLine(r.stdout)).toBe(urlOf(db));
      const legacy = postgres(lastLine(r.stdout)!, { max: 1 });
      const [row] = await legacy<{ n: number }[]>`select count(*)::int as n from studios`;
      await legacy.end();
      expect(row?.n).toBe(20);
    }
  }, 120_000);

  it("without --database-url: --database on the runtime store's server, never the runtime store itself", async () => {
    const runtime = uid('t_runtime_');
    const legacyDb = uid('legacy_beside_');
    made.push(runtime, legacyDb);
    const a = admin();
    await a.unsafe(`create database ${runtime}`);
    await a.end();
    const env = { DATABASE_URL: urlOf(runtime) };

    const self = await runScript('scripts/legacy-fixture.ts', ['--create', '--rows', '5', '--database', runtime], env);
    expect(self.code).toBe(64);
    expect(self.stderr).toContain('is the runtime store itself');

    const r = await runScript('scripts/legacy-fixture.ts', ['--create', '--rows', '5', '--database', legacyDb], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('legacy fixture: the PostgreSQL of DATABASE_URL');
    expect(lastLine(r.stdout)).toBe(urlOf(legacyDb));
  }, 120_000);
});
