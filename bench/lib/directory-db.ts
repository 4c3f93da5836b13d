// One seeded directory database per size inside a bench PostgreSQL. With a kept data folder
// (--data-dir) a database seeded by an earlier run is reused, so a 1M-studio figure does not
// pay five minutes of seeding every time; a database whose studio count differs is rebuilt.
import postgres from 'postgres';
import { createSql, type Sql } from '../../lib/db';
import type { EmbeddedPg } from '../../lib/db/embedded';
import { migrateUp } from '../../lib/db/migrate';
import { seedDirectory } from '../../scripts/seed/directory';
import { seedProgress } from '../../scripts/seed/progress';

export interface DirectoryDb {
  url: string;
  sql: Sql;
  rows: number;
  seededMs: number | null;
}

export async function ensureDirectoryDb(pg: EmbeddedPg, size: number, log: (s: string) => void): Promise<DirectoryDb> {
  const dbName = `bench_${size}`;
  const url = pg.url.replace(/\/intake$/, `/${dbName}`);
  const admin = postgres(pg.url.replace(/\/intake$/, '/postgres'), { max: 1, onnotice: () => {} });
  try {
    const exists = (await admin`select 1 from pg_database where datname = ${dbName}`).length > 0;
    if (exists) {
      const probe = postgres(url, { max: 1, onnotice: () => {} });
      const [r] = await probe<{ n: number }[]>`select count(*)::int as n from studios where source_type = 'synthetic_seed'`.catch(() => [{ n: -1 }]);
      await probe.end();
      if (r?.n === size) {
        await migrateUp(url); // indexes added since the seed
        const sql = createSql(url, { max: 10 });
        log(`reusing ${dbName} (${size.toLocaleString('en-US')} studios)\n`);
        return { url, sql, rows: await totalRows(sql), seededMs: null };
      }
      await admin.unsafe(`drop database ${dbName} with (force)`);
    }
    await admin.unsafe(`create database ${dbName}`);
  } finally {
    await admin.end();
  }
  await migrateUp(url);
  const sql = createSql(url, { max: 10 });
  log(`seeding ${size.toLocaleString('en-US')} studios ...\n`);
  const progress = seedProgress();
  const seeded = await seedDirectory(sql, { studios: size, seed: 1, onProgress: progress.onProgress }).finally(() => progress.stop());
  const rows = Object.values(seeded.counts).reduce((a, b) => a + b, 0);
  log(`seeded in ${(seeded.ms / 1000).toFixed(1)} s (${rows.toLocaleString('en-US')} rows)\n`);
  return { url, sql, rows, seededMs: seeded.ms };
}

async function totalRows(sql: Sql): Promise<number> {
  const [r] = await sql<{ n: number }[]>`
    select ((select count(*) from studios) + (select count(*) from artists) + (select count(*) from portfolio_assets) + (select count(*) from designs))::int as n`;
  return r!.n;
}
