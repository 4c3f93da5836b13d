// `npm run legacy:fixture -- [--create] [--rows N] [--database-url URL]`: a messy legacy directory for
// tests, the benchmark and docs/cutover.md's quick path. Without --database-url it writes the
// database `legacy_demo` (--database) on the running stack's PostgreSQL (the server databaseOf()
// finds: DATABASE_URL, else DATA_DIR/stack.json, else POSTGRES_PORT); --create makes the database
// first when it is missing (no psql needed). The last line printed is the URL to use as LEGACY_DATA_URL.
import postgres from 'postgres';
import { parseCli } from '../lib/cli';
import { databaseOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { connectionProblem, whereOf } from '../lib/cutover/connection';
import { createSql } from '../lib/db';
import { writeLegacyFixture } from './cutover/fixture';

const { values } = parseCli(
  'Writes a messy legacy directory (the schema of ../shared/legacy/schema.sql, every kind of mess its README lists): <rows> studios, 1.5 artists per studio, a portfolio item per artist, a design per other artist, soft deletes. Replaces the legacy tables there. The same rows for the same seed. Without --database-url: the database legacy_demo (--database) on the running stack\'s PostgreSQL (DATABASE_URL, else DATA_DIR/stack.json, else POSTGRES_PORT). The last line printed is the URL to use as LEGACY_DATA_URL.',
  'npm run legacy:fixture --',
  {
    options: {
      rows: { type: 'string', default: '1000', description: 'legacy studios to write' },
      'database-url': { type: 'string', description: "the legacy database to write (default: --database on the running stack's PostgreSQL)" },
      database: { type: 'string', default: 'legacy_demo', description: "without --database-url: the database on the running stack's PostgreSQL" },
      create: { type: 'boolean', default: false, description: 'create the database first when it does not exist (as the URL\'s user, which needs CREATEDB)' },
      seed: { type: 'string', default: '1', description: 'seed of the generator' },
      'no-media': { type: 'boolean', default: false, description: 'no portfolio items or designs' },
    },
  },
);
const rows = Number(values.rows);
const seed = Number(values.seed);
const fail = (m: string): never => {
  console.error(m);
  process.exit(64);
};
if (!Number.isInteger(rows) || rows < 1 || rows > 10_000_000) fail('--rows must be a whole number from 1 to 10000000');
if (!Number.isSafeInteger(seed)) fail('--seed must be a whole number');
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(values.database!)) fail('--database must be a plain lower-case name (letters, digits, _)');

let url = values['database-url'];
if (!url) {
  const runtime = databaseOf(loadConfigOrExit(toolConfigSchema));
  const u = new URL(runtime.url);
  if (u.pathname === `/${values.database}`) fail(`--database ${values.database} is the runtime store itself; name another`);
  u.pathname = `/${values.database}`;
  url = u.toString();
  console.log(`legacy fixture: the PostgreSQL of ${runtime.source}`);
}
let dbName: string;
try {
  dbName = decodeURIComponent(new URL(url).pathname.slice(1));
} catch {
  dbName = '';
}
if (!dbName) fail('--database-url must name a database (postgres://user:password@host:port/<database>)');

if (values.create) {
  // The same server and user, its maintenance database: CREATE DATABASE cannot run inside the target.
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const a = postgres(admin.toString(), { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    const [found] = await a`select 1 as one from pg_database where datname = ${dbName}`;
    if (found) console.log(`legacy fixture: database ${dbName} exists`);
    else {
      await a.unsafe(`create database "${dbName.replace(/"/g, '""')}"`);
      console.log(`legacy fixture: created database ${dbName}`);
    }
  } catch (err) {
    console.error(connectionProblem(admin.toString(), err));
    process.exit(1);
  } finally {
    await a.end({ timeout: 5 });
  }
}

const sql = createSql(url, { max: 2 });
console.log(`legacy fixture: writing to ${whereOf(url)}`);
const started = Date.now();
try {
  const n = await writeLegacyFixture(sql, { studios: rows, seed, media: !values['no-media'], onTable: (t, k) => console.log(`  ${t.padEnd(16)} ${k.toLocaleString('en-US')} rows`) });
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${Object.entries(n).map(([t, k]) => `${k} ${t}`).join(', ')}`);
  console.log('the legacy store to read (LEGACY_DATA_URL; it holds the password, keep it to this machine):');
  console.log(url);
} catch (err) {
  const e = err as { code?: string };
  console.error(connectionProblem(url, err) + (e.code === '3D000' ? ` (no database ${dbName}: --create makes it)` : ''));
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
