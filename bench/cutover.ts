// I1 (issue 25, target >= 0.1 at 1M in issue 37, aim 0.3): backfill rows per second at N legacy
// studios (plus their artists) through the cutover's whole path (read-only legacy reader,
// normalization, the runtime tables, ledger, checkpoints; into this empty store a bulk load, whose
// time includes building every index and search document), divided by a plain COPY of the same rows
// into an unindexed table, in the same run on the same PostgreSQL. Also the backfill process's peak
// RSS (VmHWM, read from /proc while it runs), and the CPU seconds the backfill process and PostgreSQL used.
// Run: npm run bench:cutover [-- --studios 1000000 --pg-stats --cpu-prof DIR]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import { parseCli } from '../lib/cli';
import { PROJECT_ROOT } from '../lib/config';
import { createSql } from '../lib/db';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { migrateUp } from '../lib/db/migrate';
import { freePort } from '../lib/net/free-port';
import { artistRow, copyLine, studioRow, writeLegacyFixture } from '../scripts/cutover/fixture';
import { Readable } from 'node:stream';
import { processCpuMs, serverCpuMs } from './lib/process-cpu';
import { printTable, writeResults } from './lib/results';
import { tempStackDir } from '../scripts/stack';

const { values } = parseCli('I1: cutover backfill rows/s against a plain COPY of the same rows; the backfill peak RSS, and the CPU seconds of the backfill and of PostgreSQL.', 'npm run bench:cutover --', {
  options: {
    studios: { type: 'string', default: '1000000', description: 'legacy studios to generate (plus 1.5 artists each)' },
    'batch-size': { type: 'string', default: '5000', description: 'rows per backfill batch' },
    'data-dir': { type: 'string', description: 'keep the databases here between runs (default: a temporary folder)' },
    'pg-stats': { type: 'boolean', default: false, description: 'also print the backfill\'s costliest statements (pg_stat_statements)' },
    'cpu-prof': { type: 'string', description: 'write the backfill process\'s V8 CPU profile into this folder (node --cpu-prof)' },
  },
});
const STUDIOS = Number(values.studios);
if (!Number.isInteger(STUDIOS) || STUDIOS < 100) {
  console.error('--studios must be a whole number >= 100');
  process.exit(64);
}
function* lines(n: number, row: (i: number) => unknown[]) {
  let buf = '';
  for (let i = 1; i <= n; i++) {
    buf += copyLine(row(i));
    if (i % 5000 === 0) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}
const log = (s: string) => process.stderr.write(`${s}\n`);
const dir = values['data-dir'] ?? tempStackDir('bench-cutover-');
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort(), flags: values['pg-stats'] ? ['-c', 'shared_preload_libraries=pg_stat_statements'] : [] });
const urlOf = (db: string) => pg.url.replace(/\/intake$/, `/${db}`);
log(`PostgreSQL at 127.0.0.1:${pg.port} (data in ${dir})`);

try {
  const admin = postgres(urlOf('postgres'), { max: 1, onnotice: () => {} });
  for (const db of ['legacy_bench', 'runtime_bench']) await admin.unsafe(`drop database if exists ${db} with (force)`).then(() => admin.unsafe(`create database ${db}`));
  await admin.end();

  const legacy = createSql(urlOf('legacy_bench'), { max: 2 });
  const t0 = Date.now();
  const counts = await writeLegacyFixture(legacy, { studios: STUDIOS, seed: 1, media: false });
  log(`legacy fixture: ${counts.studios} studios, ${counts.artists} artists in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const rows = counts.studios + counts.artists;

  await migrateUp(urlOf('runtime_bench'));
  const runtime = createSql(urlOf('runtime_bench'), { max: 2 });

  // baseline: the same rows, COPY out of the legacy store and COPY into unindexed tables
  await runtime.unsafe(`create table if not exists copy_legacy_studios (id bigint, slug text, name text, description text, address text, city text, state text, country text, zip text, lat float8, lng float8, phone text, email text, website text, instagram text, price_range text, rating numeric, reviews_count int, styles text[], is_verified bool, is_featured bool, status text, created_at timestamptz, updated_at timestamptz)`);
  await runtime.unsafe(`create table if not exists copy_legacy_artists (id bigint, studio_id bigint, name text, bio text, instagram text, specialties text[], years_experience int, hourly_rate numeric, is_active bool, created_at timestamptz, updated_at timestamptz)`);
  // the same rows as COPY text (the generator's own rows), written to a file first so only the load is timed
  const files = { copy_legacy_studios: path.join(dir, 'studios.copy'), copy_legacy_artists: path.join(dir, 'artists.copy') };
  await pipeline(Readable.from(lines(counts.studios, (i) => studioRow(1, i))), fs.createWriteStream(files.copy_legacy_studios));
  await pipeline(Readable.from(lines(counts.artists, (i) => artistRow(1, i, counts.studios))), fs.createWriteStream(files.copy_legacy_artists));
  const c0 = performance.now();
  for (const [table, file] of Object.entries(files)) {
    const into = await runtime`copy ${runtime(table)} from stdin`.writable();
    await pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), into);
  }
  const copyS = (performance.now() - c0) / 1000;
  log(`COPY baseline: ${rows} rows in ${copyS.toFixed(1)} s`);
  if (values['pg-stats']) {
    await runtime`create extension if not exists pg_stat_statements`;
    await runtime`select pg_stat_statements_reset()`;
  }
  await legacy.end();

  // the backfill, as an owner runs it (its own process, so its peak RSS is its own)
  const postmaster = pg.pid();
  const pgCpu0 = postmaster ? serverCpuMs(postmaster) / 1000 : NaN;
  const b0 = performance.now();
  // (the node flags of package.json's `cutover` script: a larger young generation, fewer scavenges of each batch's objects)
  const child = spawn(process.execPath, ['--max-semi-space-size=64', ...(values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : []), '--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/cutover.ts'), 'backfill', '--batch-size', values['batch-size']], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: urlOf('runtime_bench'), LEGACY_DATA_URL: urlOf('legacy_bench'), TEMPORAL_ADDRESS: '127.0.0.1:1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let peakKb = 0;
  let nodeCpu = 0;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
      nodeCpu = processCpuMs(child.pid!) / 1000;
    } catch {
      /* exited */
    }
  }, 200);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  const backfillS = (performance.now() - b0) / 1000;
  const pgCpu = postmaster ? serverCpuMs(postmaster) / 1000 - pgCpu0 : NaN;
  if (code !== 0) throw new Error(`backfill exited with ${code}`);

  if (values['pg-stats']) {
    const top = await runtime<{ ms: number; calls: number; query: string }[]>`
      select round(total_exec_time)::int as ms, calls::int, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 110) as query
      from pg_stat_statements order by total_exec_time desc limit 15`;
    for (const t of top) log(`${String(t.ms).padStart(8)} ms ${String(t.calls).padStart(6)}x  ${t.query}`);
  }
  await runtime.end();
  const copyRps = rows / copyS;
  const backfillRps = rows / backfillS;
  const result = {
    studios: counts.studios,
    artists: counts.artists,
    rows,
    copy_s: Math.round(copyS * 10) / 10,
    copy_rows_per_s: Math.round(copyRps),
    backfill_s: Math.round(backfillS * 10) / 10,
    backfill_rows_per_s: Math.round(backfillRps),
    i1_ratio: Math.round((backfillRps / copyRps) * 1000) / 1000,
    target: '>= 0.1 (aim 0.3)',
    backfill_peak_rss_mb: Math.round(peakKb / 1024),
    // where the time went: CPU seconds of the backfill process (to its last 200 ms sample) and of
    // PostgreSQL meanwhile; two cores give 2 x backfill_s
    backfill_cpu_s: Math.round(nodeCpu),
    postgres_cpu_s: Math.round(pgCpu),
    cpu_used_of_2_cores: Math.round(((nodeCpu + pgCpu) / (2 * backfillS)) * 100) / 100,
  };
  printTable('I1: cutover backfill vs plain COPY', [result]);
  log(`written to ${writeResults('cutover-i1', result)}`);
} finally {
  await pg.stop();
  if (!values['data-dir']) fs.rmSync(dir, { recursive: true, force: true });
}
