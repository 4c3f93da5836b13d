// Behind PgBouncer in transaction mode (DATABASE_DIRECT_URL set): no prepared statements through the
// pooler, LISTEN and the migrations on the direct URL (the pooled e2e checks where LISTEN went);
// without it, the pool as before. No connection is opened here.
import { describe, expect, it } from 'vitest';
import { databaseWhereOf, directDatabaseUrlOf } from '../../lib/config';
import { createSql } from '../../lib/db';
import { pgbouncerConfig, pgbouncerUsers } from '../../scripts/tools/pgbouncer';

const POOLER = 'postgres://intake_app:pw@127.0.0.1:6432/intake';
const DIRECT = 'postgres://intake_app:pw@127.0.0.1:5432/intake';

describe('pooled connections', () => {
  it('createSql without a direct URL prepares statements, as before', async () => {
    const sql = createSql(DIRECT);
    expect(sql.options.prepare).toBe(true);
    await sql.end();
  });

  it('createSql with a direct URL prepares nothing through the pooler', async () => {
    const sql = createSql(POOLER, { directUrl: DIRECT });
    expect(sql.options.prepare).toBe(false);
    expect(sql.options.port).toEqual([6432]);
    await sql.end();
  });

  it('the migrations and LISTEN go to DATABASE_DIRECT_URL when set, else to DATABASE_URL', () => {
    expect(directDatabaseUrlOf({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT })).toBe(DIRECT);
    expect(directDatabaseUrlOf({ DATABASE_URL: DIRECT })).toBe(DIRECT);
  });

  it("a process's start line names where its connections go, without credentials", () => {
    expect(databaseWhereOf({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT })).toEqual({ database: '127.0.0.1:6432/intake', databaseDirect: '127.0.0.1:5432/intake' });
    expect(databaseWhereOf({ DATABASE_URL: DIRECT })).toEqual({ database: '127.0.0.1:5432/intake' });
  });

  it('the PgBouncer files: transaction mode on loopback, no unix socket, passwords quoted', () => {
    const ini = pgbouncerConfig({ port: 6432, database: 'intake', server: { host: '127.0.0.1', port: 5432 }, authFile: '/x/users.txt', statsUsers: ['intake_app'] });
    expect(ini).toContain('pool_mode = transaction');
    expect(ini).toContain('listen_addr = 127.0.0.1');
    expect(ini).toMatch(/^unix_socket_dir =$/m);
    expect(ini).toContain('intake = host=127.0.0.1 port=5432 dbname=intake');
    expect(pgbouncerUsers([{ user: 'intake_app', password: 'a"b' }])).toBe('"intake_app" "a""b"\n');
  });
});
