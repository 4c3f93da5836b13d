// Directory read benchmark: seeds 10k and 100k studios into a throwaway embedded PostgreSQL, starts
// the API in-process, and measures p50 / p99 of /studios (filters, geo) and /search (text + facets)
// under bounded concurrent load on loopback; then the same queries through the same query functions
// straight on postgres.js (what the database costs), in the same run. Prints the API / raw ratio.
// Run: npm run bench:directory [-- --sizes 10000,100000 --requests 300 --concurrency 8 --seconds 20]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { startApi } from '../api/server';
import { apiConfigSchema, parseConfig } from '../lib/config';
import { createSql, type Sql } from '../lib/db';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { migrateUp } from '../lib/db/migrate';
import { search, type SearchFilters } from '../lib/directory/search';
import { seedDirectory } from '../lib/directory/seed';
import { CITIES } from '../lib/directory/seed-data';
import { listStudios, type StudioFilters } from '../lib/directory/studios';
import { upsertMapping } from '../lib/identity/actors';
import { createApiKey } from '../lib/identity/api-keys';
import { createLogger } from '../lib/logger';
import { freePort } from '../lib/net/free-port';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    requests: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '30' },
  },
});
const SIZES = values.sizes.split(',').map(Number);
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const MAX_MS = Number(values.seconds) * 1000;
const WARMUP = Number(values.warmup);


/** A query as the API sees it (URL) and as the database sees it (the same query function). */
interface BenchQuery {
  name: string;
  url: (i: number) => string;
  raw: (sql: Sql, i: number) => Promise<unknown>;
  auth: boolean;
}

// Rotate over a few cities, points and terms so the load is not one cached row set.
const BIG = ['Austin', 'Seattle', 'Denver', 'Chicago', 'Miami', 'Portland', 'Atlanta', 'Toronto'].map((c) => CITIES.find((x) => x.city === c)!);
const TERMS = ['iron lotus', 'koi', 'black rose', 'fine line', 'dragon', 'sacred heart', 'wolf', 'golden crane'];
const at = <T>(xs: readonly T[], i: number) => xs[i % xs.length]!;

const studioBase: StudioFilters = { page: 1, limit: 20, sort: 'rating', order: 'desc' };
const searchBase: SearchFilters = { page: 1, limit: 20, type: 'all', verifiedOnly: false, sortBy: 'relevance', sortOrder: 'desc', includeFacets: true };

const QUERIES: BenchQuery[] = [
  {
    name: 'studios: city + verified + rating + price',
    url: (i) => `/studios?city=${encodeURIComponent(at(BIG, i).city)}&verified=true&rating=4&price_range=${encodeURIComponent('$$,$$$')}`,
    raw: (sql, i) => listStudios(sql, { ...studioBase, city: at(BIG, i).city, verified: true, rating: 4, priceRange: ['$$', '$$$'] }),
    auth: false,
  },
  {
    name: 'studios: geo 10 km, by distance',
    url: (i) => `/studios?latitude=${at(BIG, i).lat}&longitude=${at(BIG, i).lon}&radius=10&sort=distance`,
    raw: (sql, i) => listStudios(sql, { ...studioBase, sort: 'distance', order: 'asc', geo: { latitude: at(BIG, i).lat, longitude: at(BIG, i).lon, radiusKm: 10 } }),
    auth: false,
  },
  {
    name: 'search: text + facets',
    url: (i) => `/search?q=${encodeURIComponent(at(TERMS, i))}&include_facets=true`,
    raw: (sql, i) => search(sql, { ...searchBase, q: at(TERMS, i) }),
    auth: true,
  },
  {
    name: 'search: text + city + facets',
    url: (i) => `/search?q=${encodeURIComponent(at(TERMS, i))}&city=${encodeURIComponent(at(BIG, i).city)}&include_facets=true`,
    raw: (sql, i) => search(sql, { ...searchBase, q: at(TERMS, i), city: at(BIG, i).city }),
    auth: true,
  },
];

/** Run fn `count` times (bounded also by MAX_MS) with `concurrency` in flight; latencies in ms. */
async function load(fn: (i: number) => Promise<void>, count: number): Promise<number[]> {
  const times: number[] = [];
  const deadline = performance.now() + MAX_MS;
  let next = 0;
  async function worker() {
    while (next < count && performance.now() < deadline) {
      const i = next++;
      const t = performance.now();
      await fn(i);
      times.push(performance.now() - t);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return times;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-directory-'));
fs.chmodSync(dir, 0o755); // the unprivileged postgres user must reach its data folder
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort() });
const results: Record<string, unknown>[] = [];
try {
  for (const size of SIZES) {
    const dbName = `bench_${size}`;
    const admin = postgres(pg.url.replace(/\/intake$/, '/postgres'), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    await admin.end();
    const url = pg.url.replace(/\/intake$/, `/${dbName}`);
    await migrateUp(url);
    const sql = createSql(url, { max: 10 });
    process.stderr.write(`seeding ${size.toLocaleString('en-US')} studios ... `);
    const seeded = await seedDirectory(sql, { studios: size, seed: 1 });
    process.stderr.write(`${(seeded.ms / 1000).toFixed(1)} s (${Object.values(seeded.counts).reduce((a, b) => a + b, 0).toLocaleString('en-US')} rows)\n`);

    const cfg = parseConfig(apiConfigSchema, {
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: url,
      DATABASE_POOL_MAX: '10',
      // nothing listens there: the directory routes do not use Temporal
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      DATA_DIR: path.join(dir, `data-${size}`),
    });
    const api = await startApi(cfg, createLogger({ name: 'bench', level: 'silent' }), { migrate: false });
    const { keyId, key } = await createApiKey(sql, { organizationId: 'bench' });
    await upsertMapping(sql, { actorId: `bench-${size}`, credentialKind: 'api_key', credentialSubject: keyId, role: 'partner', permissions: ['search:read'], organizationId: 'bench' });

    for (const q of QUERIES) {
      const headers: Record<string, string> = q.auth ? { 'x-api-key': key } : {};
      const http = async (i: number) => {
        const res = await fetch(`${api.url}/api/v1${q.url(i)}`, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${q.url(i)}: ${res.status}`);
      };
      const raw = async (i: number) => {
        await q.raw(sql, i);
      };
      await load(http, WARMUP);
      await load(raw, WARMUP);
      const apiTimes = await load(http, REQUESTS);
      const rawTimes = await load(raw, REQUESTS);
      const row = {
        studios: size,
        query: q.name,
        n_api: apiTimes.length,
        n_raw: rawTimes.length,
        api_p50_ms: r2(pct(apiTimes, 50)),
        api_p95_ms: r2(pct(apiTimes, 95)),
        api_p99_ms: r2(pct(apiTimes, 99)),
        raw_p50_ms: r2(pct(rawTimes, 50)),
        raw_p99_ms: r2(pct(rawTimes, 99)),
        ratio_p50: r2(pct(apiTimes, 50) / pct(rawTimes, 50)),
        ratio_p99: r2(pct(apiTimes, 99) / pct(rawTimes, 99)),
      };
      results.push(row);
      process.stderr.write(`  ${q.name}: api p50 ${row.api_p50_ms} ms, raw p50 ${row.raw_p50_ms} ms\n`);
    }
    await api.stop();
    await sql.end({ timeout: 5 });
  }
  console.table(results);
  fs.mkdirSync('bench/results', { recursive: true });
  fs.writeFileSync(
    'bench/results/directory.json',
    JSON.stringify({ node: process.version, cpus: os.cpus().length, concurrency: CONCURRENCY, requests: REQUESTS, maxSecondsPerQuery: MAX_MS / 1000, results }, null, 2) + '\n',
  );
} finally {
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
