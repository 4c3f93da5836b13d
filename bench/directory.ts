// Directory read benchmarks R2, R3, R4 (issue 7) and R9 (issue 16), one run:
// - seeds each size into a bench PostgreSQL (kept and reused with --data-dir), starts the API and
//   measures p50 / p95 / p99 of /studios (filters, geo) and /search (text, text +
//   facets) under bounded concurrent load on loopback, the API as its own process (CPU 0) and the
//   load on CPU 1; then the same query functions straight on postgres.js from this process, in the
//   same run (R2 = API p50 / raw p50 of the filtered list at 100k);
// - R3 = p95 at the largest size / p95 at the smallest, per endpoint;
// - R10 beside R4: the same, against tantivy's BM25 top 20 with an exact count (bench/lib/tantivy.ts);
// - R4 at the largest size: GET /search?q= (one in flight) against SQLite FTS5 bm25 top 20 over
//   the same corpus and terms (better-sqlite3), one in flight;
// - R9 at the largest size: the same /search?q= mix with 8 requests in flight, requests/s, against
//   FTS5 queries/s over the same terms (better-sqlite3 is synchronous: one in flight, one core);
// - with --opensearch: at the largest size, the same against OpenSearch (bench/lib/opensearch.ts):
//   R10 with OpenSearch (API p95 over the engine / tantivy p95, target <= 3), text + facets p95
//   (target <= 100 ms at 1M), R4 and R9 against the same FTS5 figures, the index build's
//   documents/s, and the time from a studio update to its search hit (p50/p95);
// - with --explain (default on), EXPLAIN (ANALYZE, BUFFERS) of every statement each query sends,
//   at every size: the plan nodes that take the time, printed, full plans under bench/results/.
// Run: npm run bench:directory [-- --sizes 100000,1000000 --data-dir .data/bench-directory]
import { execFileSync, spawnSync } from 'node:child_process';
import { parseCli } from '../lib/cli';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/config';
import type { Sql } from '../lib/db';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { search, type SearchFilters } from '../lib/directory/search';
import { CITIES } from '../lib/directory/vocabulary';
import { listStudios, type StudioFilters } from '../lib/directory/studios';
import { upsertMapping } from '../lib/identity/actors';
import { createApiKey } from '../lib/identity/api-keys';
import { freePort } from '../lib/net/free-port';
import { ensureDirectoryDb } from './lib/directory-db';
import { explainQueries, type StatementProfile } from './lib/explain';
import { buildFts5 } from './lib/fts5';
import { runTantivy, tantivyInstalled } from './lib/tantivy';
import { startBenchOpenSearch } from './lib/opensearch';
import { printTable, writeResults } from './lib/results';
import { hasTaskset, spawnNode, stopChild, waitLive } from './lib/stack';
import { boundedLoad, round, summarize } from './lib/stats';

const { values } = parseCli('R2-R4, R9: directory reads at 100k and 1M records against their baselines.', 'npm run bench:directory --', {
  options: {
    sizes: { type: 'string', default: '100000,1000000', description: 'directory sizes (studios) to seed and measure' },
    requests: { type: 'string', default: '300', description: 'requests per measured route' },
    concurrency: { type: 'string', default: '4', description: 'requests in flight' },
    seconds: { type: 'string', default: '30', description: 'time bound of each measurement' },
    warmup: { type: 'string', default: '20', description: 'unmeasured requests first' },
    'data-dir': { type: 'string', description: 'keep the seeded databases here between runs (1M took 1,401 s to seed from a fresh clone)' },
    explain: { type: 'boolean', default: true, description: 'print the query plans' },
    'no-explain': { type: 'boolean', default: false, description: 'do not print them' },
    r4: { type: 'boolean', default: true, description: 'measure R4/R9 against SQLite FTS5, and R10 against tantivy (installed into .tools/ by the bench when missing)' },
    'no-r4': { type: 'boolean', default: false, description: 'skip R4/R9' },
    opensearch: { type: 'boolean', default: false, description: 'also R10/R4/R9 and text + facets with SEARCH_BACKEND=opensearch, the indexing rate and the update-to-hit time (installs OpenSearch into .tools/ when missing)' },
  },
});
const SIZES = values.sizes.split(',').map(Number).sort((a, b) => a - b);
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const MAX_MS = Number(values.seconds) * 1000;
const WARMUP = Number(values.warmup);
const EXPLAIN = values.explain && !values['no-explain'];
const R4 = values.r4 && !values['no-r4'];
const OPENSEARCH = values.opensearch;
const log = (s: string) => process.stderr.write(s);

/**
 * A GET on a kept-alive connection, sent again once when the server closed that connection as the
 * request went out: after a long phase without API calls (the FTS5 build and its own timing, about
 * the API's 65 s keep-alive), the client's next request can meet the server's close. Any other
 * failure, and a second one, is the run's.
 */
async function getKeptAlive(url: string, headers: Record<string, string>): Promise<Response> {
  try {
    return await fetch(url, { headers });
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, { headers });
  }
}

/** A query as the API sees it (URL) and as the database sees it (the same query function). */
interface BenchQuery {
  key: 'list' | 'geo' | 'search_facets' | 'search_city_facets' | 'search';
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
    key: 'list',
    name: 'studios: city + verified + rating + price',
    url: (i) => `/studios?city=${encodeURIComponent(at(BIG, i).city)}&verified=true&rating=4&price_range=${encodeURIComponent('$$,$$$')}`,
    raw: (sql, i) => listStudios(sql, { ...studioBase, city: at(BIG, i).city, verified: true, rating: 4, priceRange: ['$$', '$$$'] }),
    auth: false,
  },
  {
    key: 'geo',
    name: 'studios: geo 10 km, by distance',
    url: (i) => `/studios?latitude=${at(BIG, i).lat}&longitude=${at(BIG, i).lon}&radius=10&sort=distance`,
    raw: (sql, i) => listStudios(sql, { ...studioBase, sort: 'distance', order: 'asc', geo: { latitude: at(BIG, i).lat, longitude: at(BIG, i).lon, radiusKm: 10 } }),
    auth: false,
  },
  {
    key: 'search_facets',
    name: 'search: text + facets',
    url: (i) => `/search?q=${encodeURIComponent(at(TERMS, i))}&include_facets=true`,
    raw: (sql, i) => search(sql, { ...searchBase, q: at(TERMS, i) }),
    auth: true,
  },
  {
    key: 'search_city_facets',
    name: 'search: text + city + facets',
    url: (i) => `/search?q=${encodeURIComponent(at(TERMS, i))}&city=${encodeURIComponent(at(BIG, i).city)}&include_facets=true`,
    raw: (sql, i) => search(sql, { ...searchBase, q: at(TERMS, i), city: at(BIG, i).city }),
    auth: true,
  },
];
const R4_QUERY: BenchQuery = {
  key: 'search',
  name: 'search: text (R4, 1 in flight)',
  url: (i) => `/search?q=${encodeURIComponent(at(TERMS, i))}`,
  raw: (sql, i) => search(sql, { ...searchBase, includeFacets: false, q: at(TERMS, i) }),
  auth: true,
};

if (hasTaskset()) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
const keep = values['data-dir'] ? path.resolve(values['data-dir']) : undefined;
const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-directory-'));
fs.mkdirSync(dir, { recursive: true });
fs.chmodSync(dir, 0o755); // the unprivileged postgres user must reach its data folder
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort() });
const rows: Record<string, string | number>[] = [];
const profiles: Record<string, { size: number; query: string; statements: Omit<StatementProfile, 'text'>[] }[]> = {};
const r4: Record<string, number | string> = {};
const r9: Record<string, number | string> = {};
const r10: Record<string, number | string> = {};
const r10os: Record<string, number | string> = {};
const R9_IN_FLIGHT = 8;
const seeded: Record<string, unknown>[] = [];
let stopApi: (() => Promise<void>) | undefined;
for (const size of SIZES) fs.rmSync(`bench/results/directory-plans-${size}.txt`, { force: true });
try {
  for (const size of SIZES) {
    const db = await ensureDirectoryDb(pg, size, log);
    const sql = db.sql;
    seeded.push({ studios: size, rows: db.rows, seedSeconds: db.seededMs === null ? 'reused' : round(db.seededMs / 1000, 1) });
    // The API as it is deployed: its own process (pinned to CPU 0 when taskset exists; this
    // process, the load and the raw baseline, on CPU 1), logging at info to a discarded stdout.
    const port = await freePort();
    const apiProcess = spawnNode('api/main.ts', {
      NODE_ENV: 'development',
      PORT: String(port),
      LOG_LEVEL: 'info',
      DATABASE_URL: db.url,
      DATABASE_POOL_MAX: '10',
      // nothing listens there: the directory routes do not use Temporal
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      DATA_DIR: path.join(dir, `data-${size}`),
      // the load comes from one address; the per-client limits would answer it 429
      RATE_LIMITS_ENABLED: 'false',
    }, '0');
    const api = { url: `http://127.0.0.1:${port}`, stop: () => stopChild(apiProcess) };
    stopApi = api.stop;
    await waitLive(api.url, 60_000);
    const { keyId, key } = await createApiKey(sql, { organizationId: 'bench' });
    await upsertMapping(sql, { actorId: `bench-${size}`, credentialKind: 'api_key', credentialSubject: keyId, role: 'partner', permissions: ['search:read'], organizationId: 'bench' });

    const measure = async (q: BenchQuery, concurrency: number) => {
      const headers: Record<string, string> = q.auth ? { 'x-api-key': key } : {};
      const http = async (i: number) => {
        const res = await getKeptAlive(`${api.url}/api/v1${q.url(i)}`, headers);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${q.url(i)}: ${res.status}`);
      };
      const raw = async (i: number) => void (await q.raw(sql, i));
      const opts = { concurrency, maxMs: MAX_MS };
      await boundedLoad(http, { ...opts, count: WARMUP });
      await boundedLoad(raw, { ...opts, count: WARMUP });
      const a = summarize(await boundedLoad(http, { ...opts, count: REQUESTS }));
      const r = summarize(await boundedLoad(raw, { ...opts, count: REQUESTS }));
      const row = {
        studios: size, key: q.key, query: q.name, in_flight: concurrency, n_api: a.n, n_raw: r.n,
        api_p50_ms: a.p50, api_p95_ms: a.p95, api_p99_ms: a.p99, raw_p50_ms: r.p50, raw_p95_ms: r.p95,
        api_over_raw_p50: round(a.p50 / r.p50),
      };
      rows.push(row);
      log(`  ${q.name}: api p50 ${a.p50} / p95 ${a.p95} ms (n ${a.n}), raw p50 ${r.p50} ms\n`);
      return row;
    };

    for (const q of QUERIES) await measure(q, CONCURRENCY);
    if (R4 && size === SIZES.at(-1)) {
      const ours = await measure(R4_QUERY, 1);
      log(`building the SQLite FTS5 copy of the search corpus ... `);
      const fts = await buildFts5(sql, dir);
      log(`${(fts.buildMs / 1000).toFixed(1)} s (${fts.rows.toLocaleString('en-US')} documents)\n`);
      try {
        let hits = 0;
        const one = async (i: number) => void (hits += fts.top20(at(TERMS, i)).length);
        await boundedLoad(one, { count: WARMUP, concurrency: 1, maxMs: MAX_MS });
        const s = summarize(await boundedLoad(one, { count: REQUESTS, concurrency: 1, maxMs: MAX_MS }));
        Object.assign(r4, {
          studios: size, documents: fts.rows, fts5_build_s: round(fts.buildMs / 1000, 1), fts5_n: s.n, fts5_p50_ms: s.p50, fts5_p95_ms: s.p95,
          api_p95_ms: ours.api_p95_ms, raw_p95_ms: ours.raw_p95_ms, ratio: round(Number(ours.api_p95_ms) / s.p95), target: '<= 1.0',
        });
        // R9: throughput of the same mix, 8 in flight against the API, FTS5 as fast as one core runs it.
        const throughput = async (fn: (i: number) => Promise<void>, concurrency: number) => {
          const t = performance.now();
          const n = (await boundedLoad(fn, { count: REQUESTS * 2, concurrency, maxMs: MAX_MS })).length;
          return { n, perSecond: round(n / ((performance.now() - t) / 1000), 1) };
        };
        const headers = { 'x-api-key': key };
        const http = async (i: number) => {
          const res = await getKeptAlive(`${api.url}/api/v1${R4_QUERY.url(i)}`, headers);
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${R4_QUERY.url(i)}: ${res.status}`);
        };
        await boundedLoad(http, { count: WARMUP, concurrency: R9_IN_FLIGHT, maxMs: MAX_MS });
        const apiRate = await throughput(http, R9_IN_FLIGHT);
        const ftsRate = await throughput(one, 1);
        Object.assign(r9, {
          studios: size, in_flight: R9_IN_FLIGHT, api_n: apiRate.n, api_rps: apiRate.perSecond, fts5_n: ftsRate.n, fts5_qps: ftsRate.perSecond,
          ratio: round(apiRate.perSecond / ftsRate.perSecond), target: '>= 1.0',
        });
        log(`  R9: api ${apiRate.perSecond} req/s (${R9_IN_FLIGHT} in flight) / FTS5 ${ftsRate.perSecond} q/s\n`);
      } finally {
        fts.close();
        fs.rmSync(fts.file, { force: true });
      }
      // R10: the same terms, one in flight, against tantivy's BM25 top 20 with an exact count.
      if (!tantivyInstalled()) {
        // A fresh clone has no tantivy: the bench installs it (pinned, into .tools/) and says so.
        log('R10: tantivy is not installed; installing it (npm run setup -- --only tantivy) ... ');
        const setup = spawnSync(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts', 'setup-tools.ts'), '--only', 'tantivy'], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 600_000 });
        log(setup.status === 0 ? 'done\n' : `failed (exit ${setup.status}): ${`${setup.stdout}${setup.stderr}`.trim().split('\n').slice(-2).join(' | ')}\n`);
      }
      if (tantivyInstalled()) {
        log(`building the tantivy index of the search corpus ... `);
        const t = await runTantivy(sql, dir, { terms: TERMS, warmup: WARMUP, count: REQUESTS });
        log(`${t.build_s} s (${t.docs.toLocaleString('en-US')} documents); p95 ${t.p95_ms} ms\n`);
        Object.assign(r10, {
          studios: size, documents: t.docs, tantivy_build_s: t.build_s, tantivy_n: t.n, tantivy_p50_ms: t.p50_ms, tantivy_p95_ms: t.p95_ms,
          api_p95_ms: ours.api_p95_ms, ratio: round(Number(ours.api_p95_ms) / t.p95_ms), target: 'none yet',
        });
      } else log('R10 skipped: tantivy could not be installed (npm run setup -- --only tantivy says why)\n');
      if (OPENSEARCH) {
        const osb = await startBenchOpenSearch(sql, db.url, dir, log);
        try {
          const headers = { 'x-api-key': key };
          // A measured answer must come from the engine. A warm-up one may come from the fallback: the
          // first searches of a freshly merged index at 1M can pass SEARCH_OPENSEARCH_TIMEOUT_MS while
          // its files are read into the page cache (counted and said, not a failure).
          let warmFallbacks = 0;
          const http = (q: BenchQuery, o: { warm?: boolean } = {}) => async (i: number) => {
            const res = await getKeptAlive(`${osb.url}/api/v1${q.url(i)}`, headers);
            await res.arrayBuffer();
            const backend = res.headers.get('x-search-backend');
            if (o.warm && res.status === 200 && backend === 'postgres-fallback') warmFallbacks++;
            else if (res.status !== 200 || backend !== 'opensearch') throw new Error(`${q.url(i)}: ${res.status} ${backend}`);
          };
          const latency = async (q: BenchQuery, concurrency: number) => {
            await boundedLoad(http(q, { warm: true }), { count: WARMUP, concurrency, maxMs: MAX_MS });
            if (warmFallbacks) log(`  OpenSearch warm-up: ${warmFallbacks} of ${WARMUP} answers from the PostgreSQL fallback (not measured)\n`);
            warmFallbacks = 0;
            return summarize(await boundedLoad(http(q), { count: REQUESTS, concurrency, maxMs: MAX_MS }));
          };
          const text = await latency(R4_QUERY, 1);
          const facets = await latency(QUERIES.find((q) => q.key === 'search_facets')!, CONCURRENCY);
          const cityFacets = await latency(QUERIES.find((q) => q.key === 'search_city_facets')!, CONCURRENCY);
          const t = performance.now();
          const n = (await boundedLoad(http(R4_QUERY), { count: REQUESTS * 2, concurrency: R9_IN_FLIGHT, maxMs: MAX_MS })).length;
          const rps = round(n / ((performance.now() - t) / 1000), 1);
          const feed = await osb.updateToHit(key);
          Object.assign(r10os, {
            studios: size, ...osb.indexing, api_p50_ms: text.p50, api_p95_ms: text.p95, tantivy_p95_ms: r10.tantivy_p95_ms ?? 'n/a',
            r10: r10.tantivy_p95_ms ? round(text.p95 / Number(r10.tantivy_p95_ms)) : 'n/a', r10_target: '<= 3.0',
            facets_p95_ms: facets.p95, city_facets_p95_ms: cityFacets.p95, facets_target: '<= 100 ms at 1M',
            r4: r4.fts5_p95_ms ? round(text.p95 / Number(r4.fts5_p95_ms)) : 'n/a', r9_rps: rps, r9: r9.fts5_qps ? round(rps / Number(r9.fts5_qps)) : 'n/a', ...feed,
          });
          log(`  OpenSearch: /search p95 ${text.p95} ms, text + facets p95 ${facets.p95} ms, ${rps} req/s (${R9_IN_FLIGHT} in flight); update to hit p95 ${feed.update_to_hit_p95_ms} ms\n`);
        } finally {
          await osb.stop();
        }
      }
    }
    if (EXPLAIN) {
      for (const q of [...QUERIES, R4_QUERY]) {
        // Profile the slowest of the rotated parameters (city, point or term), not the first.
        let slowest = { i: 0, ms: -1 };
        for (let i = 0; i < Math.max(BIG.length, TERMS.length); i++) {
          const t = performance.now();
          await q.raw(sql, i);
          const ms = performance.now() - t;
          if (ms > slowest.ms) slowest = { i, ms };
        }
        const statements = await explainQueries(db.url, (s) => q.raw(s, slowest.i));
        const query = `${q.name} [${q.url(slowest.i)}]`;
        (profiles[q.key] ??= []).push({ size, query, statements: statements.map(({ text: _t, ...rest }) => rest) });
        fs.mkdirSync('bench/results', { recursive: true });
        fs.appendFileSync(`bench/results/directory-plans-${size}.txt`, `\n### ${query} (${size} studios)\n` + statements.map((s) => `${s.sql}\n\n${s.text}\n`).join('\n'));
      }
    }
    await api.stop();
    await sql.end({ timeout: 5 });
  }

  printTable(`Directory reads, ${CONCURRENCY} in flight, ${REQUESTS} requests per query (bounded at ${MAX_MS / 1000} s)`, rows);
  const figures: Record<string, unknown>[] = [];
  const find = (size: number, key: string) => rows.find((r) => r.studios === size && r.key === key);
  const r2row = find(100_000, 'list');
  if (r2row) figures.push({ id: 'R2', figure: 'GET /studios filtered p50 at 100k, API / raw query', value: r2row.api_over_raw_p50, target: '<= 3.0' });
  const [small, big] = [SIZES[0]!, SIZES.at(-1)!];
  if (big > small) {
    for (const [key, target] of [['list', 2], ['geo', 2], ['search_facets', 3]] as const) {
      const a = find(big, key);
      const b = find(small, key);
      if (a && b) figures.push({ id: 'R3', figure: `${key} p95 at ${big} / at ${small}`, value: round(Number(a.api_p95_ms) / Number(b.api_p95_ms)), target: `<= ${target}` });
    }
  }
  if (r4.ratio !== undefined) figures.push({ id: 'R4', figure: `GET /search p95 at ${big} / FTS5 bm25 top-20 p95`, value: r4.ratio, target: '<= 1.0' });
  if (r10.ratio !== undefined) figures.push({ id: 'R10', figure: `GET /search p95 at ${big} / tantivy bm25 top-20 + exact count p95`, value: r10.ratio, target: 'none yet' });
  if (r10os.api_p95_ms !== undefined) {
    figures.push({ id: 'R10 (OpenSearch)', figure: `GET /search p95 at ${big} from OpenSearch / tantivy p95`, value: r10os.r10!, target: '<= 3.0' });
    figures.push({ id: 'search_facets (OpenSearch)', figure: `text + facets p95 at ${big} from OpenSearch, ms`, value: r10os.facets_p95_ms!, target: '<= 100 at 1M' });
    figures.push({ id: 'R4 (OpenSearch)', figure: `GET /search p95 at ${big} from OpenSearch / FTS5 p95`, value: r10os.r4!, target: '<= 1.0' });
    figures.push({ id: 'R9 (OpenSearch)', figure: `GET /search req/s at ${big} from OpenSearch, ${R9_IN_FLIGHT} in flight / FTS5 q/s`, value: r10os.r9!, target: '>= 1.0' });
  }
  if (r9.ratio !== undefined)
    figures.push({ id: 'R9', figure: `GET /search req/s at ${big}, ${R9_IN_FLIGHT} in flight / FTS5 bm25 top-20 queries/s`, value: r9.ratio, target: '>= 1.0' });
  printTable('Figures', figures);
  if (Object.keys(r4).length) printTable('R4 detail', [r4]);
  if (Object.keys(r9).length) printTable('R9 detail', [r9]);
  if (Object.keys(r10).length) printTable('R10 detail', [r10]);
  if (Object.keys(r10os).length) printTable('OpenSearch detail (R10, facets, R4, R9, indexing, update to hit)', [r10os]);
  if (EXPLAIN) {
    const prof = Object.values(profiles).flat().flatMap((p) =>
      p.statements.map((s, n) => ({
        studios: p.size, query: p.query, stmt: n + 1, exec_ms: round(s.executionMs, 1),
        top_node: `${s.top[0]?.node} ${s.top[0]?.selfMs} ms (${s.top[0]?.rows} rows)`,
        next_node: s.top[1] ? `${s.top[1].node} ${s.top[1].selfMs} ms (${s.top[1].rows} rows)` : '',
      })),
    );
    printTable('Profile: EXPLAIN ANALYZE, the two plan nodes with the most time of their own (full plans: bench/results/directory-plans-<size>.txt)', prof);
  }
  console.log(`\nwritten: ${writeResults('directory', { concurrency: CONCURRENCY, requests: REQUESTS, maxSecondsPerQuery: MAX_MS / 1000, seeded, rows, figures, r4, r9, r10, r10os, profiles })}`);
} finally {
  await stopApi?.();
  await pg.stop();
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
}
