// Issue 26's figure S1: the similar-image index at a million fingerprints.
//  S1  p95 of a lookup within the guaranteed distance (multi-index hashing: 4 x 16-bit chunks in
//      B-tree columns, each probed at its value and its 16 one-bit neighbours, candidates verified
//      by bit_count of the XOR) / p95 of a brute-force bit_count scan of the same table, same run.
//      Target <= 0.05. Every indexed answer is checked against the scan's (same rows).
//  S1b what the fingerprints add to verifying a 12 MP JPEG, as a share of M1's verification p50
//      (the same pipeline as bench/media-verification.ts).
// Run: npm run bench:similar [-- --rows 1000000 --queries 200 --scans 15 --runs 9]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCli } from '../lib/cli';
import { createSql } from '../lib/db';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { migrateUp } from '../lib/db/migrate';
import { fingerprintsOf } from '../lib/media/fingerprints/compute';
import { GUARANTEED_DISTANCE, nearHashes, nearHashesByScan } from '../lib/media/fingerprints/index';
import { freePort } from '../lib/net/free-port';
import { printTable, writeResults } from './lib/results';
import { round, summarize } from './lib/stats';
import { verifyLikeM1, writePhoto12mp } from './lib/verification';

const { values } = parseCli('S1: similar-image lookups at 1M fingerprints against a brute-force scan; the fingerprints\' share of verification (M1).', 'npm run bench:similar --', {
  options: { rows: { type: 'string', default: '1000000', description: 'fingerprints stored' }, queries: { type: 'string', default: '200', description: 'lookups measured' }, scans: { type: 'string', default: '15', description: 'brute-force scans measured (the baseline)' }, runs: { type: 'string', default: '9', description: 'verifications measured for the fingerprints\' share' } },
});
const ROWS = Number(values.rows);
const QUERIES = Number(values.queries);
const SCANS = Number(values.scans);
const RUNS = Number(values.runs);

const time = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
};
/** A random 64-bit hash with `k` of its bits flipped. */
const flip = (h: bigint, k: number) => {
  const bits = new Set<number>();
  while (bits.size < k) bits.add(crypto.randomInt(64));
  return [...bits].reduce((a, b) => a ^ (1n << BigInt(b)), h);
};
const randomHash = () => crypto.randomBytes(8).readBigUInt64BE();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-similar-'));
fs.chmodSync(dir, 0o755); // the unprivileged postgres user must reach its data folder
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort() });
try {
  await migrateUp(pg.url);
  const sql = createSql(pg.url, { max: 4 });
  // 1. ROWS random fingerprints, made inside PostgreSQL (generate_series), indexes built after the load.
  // The migration's index definitions, dropped for the load and made again after it.
  const indexes = await sql<{ name: string; def: string }[]>`
    select indexname as name, indexdef as def from pg_indexes where tablename = 'image_fingerprints' and indexname like 'image_fingerprints_%' and indexname <> 'image_fingerprints_pkey'`;
  for (const ix of indexes) await sql.unsafe(`drop index ${ix.name}`);
  const [loadMs] = await time(() => sql.unsafe(`
    insert into image_fingerprints (subject_kind, subject_id, submission_id, variant, hash)
    select 'submission', 'bench_' || g, 'bench_' || g, 'phash',
      (floor(random() * 4294967296)::bigint << 32) | floor(random() * 4294967296)::bigint
    from generate_series(1, ${ROWS}) g`));
  // Queries, each with neighbours planted at distances 1..GUARANTEED_DISTANCE (and one beyond).
  const queries = Array.from({ length: QUERIES }, randomHash);
  const planted = queries.flatMap((q, i) =>
    [1, 2, 3, 4, 5, 6, 7, 8].map((d) => ({ subject_kind: 'submission', subject_id: `plant_${i}_${d}`, submission_id: `plant_${i}_${d}`, variant: 'phash', hash: BigInt.asIntN(64, flip(q, d)).toString() })),
  );
  for (let i = 0; i < planted.length; i += 5000) await sql`insert into image_fingerprints ${sql(planted.slice(i, i + 5000))}`;
  const [indexMs] = await time(async () => {
    for (const ix of indexes) await sql.unsafe(ix.def);
    // What autovacuum does to a table this size: statistics, and the visibility map index-only scans need.
    await sql`vacuum analyze image_fingerprints`;
  });
  const [counted] = await sql<{ n: number }[]>`select count(*)::int as n from image_fingerprints`;
  const total = counted!.n;
  console.log(`indexed ${total.toLocaleString('en-US')} fingerprints: load ${round(loadMs / 1000, 1)} s, chunk indexes ${round(indexMs / 1000, 1)} s`);

  // 2. Lookups through the index, then brute-force scans of the same table; answers compared.
  for (const q of queries.slice(0, 5)) await nearHashes(sql, q, ['phash']); // warm-up
  const indexed: number[] = [];
  const found: string[][] = [];
  for (const q of queries) {
    const [ms, rows] = await time(() => nearHashes(sql, q, ['phash']));
    indexed.push(ms);
    found.push(rows.map((r) => r.subjectId).sort());
  }
  const scans: number[] = [];
  let mismatches = 0;
  for (let i = 0; i < SCANS; i++) {
    const [ms, rows] = await time(() => nearHashesByScan(sql, queries[i]!, ['phash']));
    scans.push(ms);
    if (JSON.stringify(rows.map((r) => r.subjectId).sort()) !== JSON.stringify(found[i])) mismatches++;
  }
  const plantedFound = found.reduce((a, f, i) => a + f.filter((id) => id.startsWith(`plant_${i}_`)).length, 0);
  await sql.end();


  // 3. The fingerprints beside M1's verification of a 12 MP JPEG.
  const file = path.join(dir, 'photo.jpg');
  await writePhoto12mp(file);
  const verifyM1 = () => verifyLikeM1(file);
  const decoded = await verifyM1(); // warm-up
  await fingerprintsOf(decoded);
  const m1: number[] = [];
  const fps: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    m1.push((await time(verifyM1))[0]);
    fps.push((await time(() => fingerprintsOf(decoded)))[0]);
  }

  const ix = summarize(indexed);
  const sc = summarize(scans);
  const m = summarize(m1);
  const f = summarize(fps);
  const rows = [
    { id: 'S1', figure: `p95 lookup within ${GUARANTEED_DISTANCE} bits (index) / p95 brute-force bit_count scan, ${total.toLocaleString('en-US')} rows`, ours_ms: ix.p95, baseline_ms: sc.p95, ratio: round(ix.p95 / sc.p95, 4), target: '<= 0.05' },
    { id: 'S1b', figure: 'p50 fingerprints of a 12 MP JPEG (from the decoded pixels) / p50 M1 verification', ours_ms: f.p50, baseline_ms: m.p50, ratio: round(f.p50 / m.p50, 4), target: 'report' },
  ];
  printTable(`similar images: ${QUERIES} indexed lookups, ${SCANS} scans; ${RUNS} verification runs`, rows);
  console.log(`index p50 ${ix.p50} ms, scan p50 ${sc.p50} ms; planted neighbours found: ${plantedFound} of ${QUERIES * GUARANTEED_DISTANCE} (distance 8 never counted); answers differing from the scan: ${mismatches} of ${SCANS}`);
  if (mismatches > 0 || plantedFound < QUERIES * GUARANTEED_DISTANCE) process.exitCode = 1;
  console.log(`\nwritten: ${writeResults('similar-images', { rows: total, queries: QUERIES, scans: SCANS, runs: RUNS, loadMs, indexMs, index: ix, scan: sc, fingerprints: f, m1: m, plantedFound, mismatches })}`);
} finally {
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
