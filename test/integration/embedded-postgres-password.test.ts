// The embedded stack's PostgreSQL superuser has a generated password (issue 17): a cluster made
// with the old fixed one is moved to the generated one on its next start, and the tools find it.
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { databaseUrlOf, EMBEDDED_DEFAULTS, POSTGRES_PASSWORD_SECRET } from '../../lib/config';
import { startEmbeddedPostgres, type EmbeddedPg } from '../../lib/db/embedded';
import { freePort } from '../../lib/net/free-port';
import { uid } from '../helpers/stack';

let pg: EmbeddedPg | undefined;
afterAll(async () => pg?.stop());

const logsIn = async (url: string) => {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await sql`select 1`;
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === '28P01') return false;
    throw err;
  } finally {
    await sql.end();
  }
};

describe('embedded PostgreSQL password', () => {
  it('replaces the legacy fixed password with the given one on the next start', async () => {
    const dataDir = path.join(inject('tmpRoot'), uid('pg-pw-'));
    const port = await freePort();
    pg = await startEmbeddedPostgres({ dataDir, port }); // an old cluster: password `postgres`
    const legacyUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    expect(await logsIn(legacyUrl)).toBe(true);
    await pg.stop();

    pg = await startEmbeddedPostgres({ dataDir, port, password: 'generated-Secret_123' });
    expect(pg.url).toBe(`postgres://postgres:generated-Secret_123@127.0.0.1:${port}/intake`);
    expect(await logsIn(pg.url)).toBe(true);
    expect(await logsIn(legacyUrl)).toBe(false);
    await pg.stop();

    // and again with the same password: nothing to rotate, it just starts
    pg = await startEmbeddedPostgres({ dataDir, port, password: 'generated-Secret_123' });
    expect(await logsIn(pg.url)).toBe(true);
  });

  it('gives the tools the generated password from DATA_DIR/secrets, and the legacy URL before there is one', () => {
    const dataDir = path.join(inject('tmpRoot'), uid('data-'));
    expect(databaseUrlOf({ DATA_DIR: dataDir })).toBe(EMBEDDED_DEFAULTS.databaseUrl);
    fs.mkdirSync(path.join(dataDir, 'secrets'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'secrets', POSTGRES_PASSWORD_SECRET), 'AbC-123_xyz\n');
    expect(databaseUrlOf({ DATA_DIR: dataDir })).toBe('postgres://postgres:AbC-123_xyz@127.0.0.1:54329/intake');
    expect(databaseUrlOf({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u:p@db:5432/x' })).toBe('postgres://u:p@db:5432/x');
  });
});
