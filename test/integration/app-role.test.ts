// The least-privilege role of the embedded stack's API and worker (issue 17): rows in and out of
// the intake and directory tables, read-only credentials, no DDL.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppRole } from '../../lib/db/app-role';
import { createTestDatabase } from '../helpers/stack';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let app: postgres.Sql;
beforeAll(async () => {
  db = await createTestDatabase();
  app = postgres(await ensureAppRole(db.url, 'app-Secret_42'), { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await app?.end();
  await db?.drop();
});

const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code ?? String(e));

describe('the app role', () => {
  it('reads and writes the tables the API and worker use', async () => {
    expect(await codeOf(app`select count(*) from submissions`)).toBe('ok');
    expect(await codeOf(app`insert into rate_limits (key, points, expire) values ('t:k', 1, 0)`)).toBe('ok');
    expect(await codeOf(app`update rate_limits set points = 2 where key = 't:k'`)).toBe('ok');
    expect(await codeOf(app`delete from rate_limits where key = 't:k'`)).toBe('ok');
    expect(await codeOf(app`select pg_notify('intake_transitions', '{}')`)).toBe('ok');
    expect(await codeOf(app`select count(*) from actor_mappings`)).toBe('ok');
  });

  it('cannot write credentials, change the schema or act as a superuser', async () => {
    expect(await codeOf(app`update actor_mappings set permissions = '{portfolios:publish}'`)).toBe('42501');
    expect(await codeOf(app`insert into api_keys (key_id) values ('x')`)).toBe('42501');
    expect(await codeOf(app`create table evil (x int)`)).toBe('42501');
    expect(await codeOf(app`drop table submissions`)).toBe('42501');
    const [me] = await app<{ rolsuper: boolean }[]>`select rolsuper from pg_roles where rolname = current_user`;
    expect(me!.rolsuper).toBe(false);
  });
});
