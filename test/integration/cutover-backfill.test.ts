// The backfill from a messy legacy store (a real PostgreSQL database) into the runtime store:
// every row accounted for, a rerun changes nothing, a kill -9 then a rerun ends as one clean run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, PROJECT_ROOT } from '../../lib/config';
import { openLegacy } from '../../lib/cutover/connection';
import { createSql, type Sql } from '../../lib/db';
import { fixtureCounts } from '../../scripts/cutover/fixture';
import { createLegacyDatabase, runtimeSnapshot, type LegacyDb } from '../helpers/legacy';
import { runScript } from '../helpers/run-script';
import { createTestDatabase, eventually } from '../helpers/stack';

const STUDIOS = 400;
let legacy: LegacyDb;
const runtimes: { url: string; sql: Sql; drop(): Promise<void> }[] = [];
async function runtimeDb() {
  const db = await createTestDatabase();
  const r = { ...db, sql: createSql(db.url, { max: 2 }) };
  runtimes.push(r);
  return r;
}
/** The index definitions of the tables a backfill writes (what a bulk load drops and builds again). */
const indexSet = async (sql: Sql) =>
  (await sql<{ d: string }[]>`select indexdef as d from pg_indexes where schemaname = current_schema()
    and tablename in ('studios', 'artists', 'portfolio_assets', 'designs', 'search_documents') order by indexname`).map((r) => r.d);
const cutover = (runtimeUrl: string, ...args: string[]) => runScript('scripts/cutover.ts', args, { DATABASE_URL: runtimeUrl, LEGACY_DATA_URL: legacy.url }, 120_000);

beforeAll(async () => {
  legacy = await createLegacyDatabase();
  const made = await runScript('scripts/legacy-fixture.ts', ['--rows', String(STUDIOS), '--database-url', legacy.url]);
  expect(made.code, made.stderr).toBe(0);
  expect(made.stdout).toMatch(/^legacy fixture: writing to 127\.0\.0\.1:\d+\/legacy_/);
});
afterAll(async () => {
  for (const r of runtimes) {
    await r.sql.end({ timeout: 5 });
    await r.drop();
  }
  await legacy?.drop();
});

describe('npm run cutover -- backfill', () => {
  let clean: { url: string; sql: Sql };
  let indexesBefore: string[];
  let firstRun: string;
  beforeAll(async () => {
    clean = await runtimeDb();
    indexesBefore = await indexSet(clean.sql);
    const run = await cutover(clean.url, 'backfill', '--batch-size', '150');
    expect(run.code, run.stderr).toBe(0);
    firstRun = run.stdout;
    expect(run.stdout.split('\n')[0]).toMatch(/^runtime store: 127\.0\.0\.1:\d+\/t_\w+; legacy store: 127\.0\.0\.1:\d+\/legacy_\w+ \(read-only\)$/);
  }, 180_000);

  it('accounts for every legacy row: imported, merged or rejected with a reason code', async () => {
    const want = fixtureCounts(STUDIOS);
    const rows = await clean.sql<{ sourceTable: string; outcome: string; reason: string | null; n: number }[]>`
      select source_table, outcome, reason, count(*)::int as n from cutover_ledger group by 1, 2, 3`;
    const per = (t: string) => rows.filter((r) => r.sourceTable === t).reduce((a, r) => a + r.n, 0);
    expect({ studios: per('studios'), artists: per('artists'), portfolio_items: per('portfolio_items'), designs: per('designs') }).toEqual({
      studios: want.studios, artists: want.artists, portfolio_items: want.portfolio_items, designs: want.designs,
    });
    for (const r of rows) if (r.outcome !== 'imported') expect(r.reason).toMatch(/^[a-z_]+$/);
    const reasons = new Set(rows.map((r) => `${r.sourceTable}:${r.outcome}:${r.reason}`));
    for (const r of ['studios:rejected:deleted_in_legacy', 'studios:merged:duplicate_name_address', 'artists:rejected:deleted_in_legacy', 'artists:rejected:empty_name', 'portfolio_items:rejected:artist_not_imported'])
      expect(reasons).toContain(r);
  });

  it('merges a duplicate into one record that keeps both legacy ids', async () => {
    // studio 50 duplicates studio 43 (fixture)
    const [s] = await clean.sql<{ legacyIds: string[]; name: string }[]>`select legacy_ids, name from studios where '50' = any(legacy_ids)`;
    expect(s!.legacyIds).toEqual(['43', '50']);
    const ledger = await clean.sql<{ sourceKey: string; outcome: string }[]>`select source_key, outcome from cutover_ledger where source_table = 'studios' and source_key in ('43', '50') order by 1`;
    expect(ledger.map((l) => l.outcome)).toEqual(['imported', 'merged']);
  });

  it('writes normalized records with provenance from the legacy store', async () => {
    const studios = await clean.sql<{ city: string; state: string; country: string; priceRange: string | null; rating: number; sourceType: string; sourceCollectedAt: Date; recordState: string }[]>`
      select city, state, country, price_range, rating, source_type, source_collected_at, record_state from studios where cardinality(legacy_ids) > 0`;
    expect(studios.length).toBeGreaterThan(STUDIOS * 0.9);
    expect(new Set(studios.map((s) => s.sourceType))).toEqual(new Set(['legacy_store']));
    expect(studios.every((s) => s.sourceCollectedAt instanceof Date)).toBe(true);
    expect(studios.filter((s) => s.city === 'NYC' || s.city === 'new york')).toEqual([]);
    expect(new Set(studios.map((s) => s.country))).toEqual(new Set(['US', 'CA', 'GB', 'DE', 'NL', 'AU', 'MX']));
    expect(studios.every((s) => s.rating >= 0 && s.rating <= 5)).toBe(true);
    expect(studios.every((s) => s.priceRange === null || ['$', '$$', '$$$', '$$$$'].includes(s.priceRange))).toBe(true);
    const [media] = await clean.sql<{ publicUnknown: number; public: number }[]>`
      select count(*) filter (where is_public and consent_posture = 'review_required')::int as public_unknown, count(*) filter (where is_public)::int as public from portfolio_assets`;
    expect(media!.publicUnknown).toBe(0);
    expect(media!.public).toBeGreaterThan(0);
  });

  it('report prints the counts and the reasons', async () => {
    const r = await cutover(clean.url, 'report');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('deleted_in_legacy');
    expect(r.stdout).toContain('duplicate_name_address');
    expect(r.stdout).toMatch(/studios\s+400 \/ 400/);
    expect(r.stdout).toContain('unknown_style:sticker_bomb');
  });

  it('loads an empty store in bulk: its secondary indexes dropped, then every one built again as it was', async () => {
    expect(indexesBefore.length).toBeGreaterThan(40);
    expect(firstRun).toMatch(/the runtime store is empty: bulk load \((\d+) secondary indexes/);
    const deferred = Number(/bulk load \((\d+)/.exec(firstRun)![1]);
    expect(deferred).toBeGreaterThan(30);
    expect(deferred).toBeLessThan(indexesBefore.length); // primary keys and unique indexes stay
    expect(firstRun).toContain(`, ${deferred} deferred indexes built in`);
    expect(await indexSet(clean.sql)).toEqual(indexesBefore);
    expect(await clean.sql`select * from cutover_deferred_indexes`).toEqual([]);
    expect(await clean.sql`select bulk_load from cutover_runs order by id`).toEqual([{ bulkLoad: true }]);
  });

  it('a rerun changes nothing (not one row rewritten), and is no bulk load', async () => {
    const before = await runtimeSnapshot(clean.sql, true);
    const run = await cutover(clean.url, 'backfill');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('bulk load');
    expect(await runtimeSnapshot(clean.sql, true)).toBe(before);
    expect(await clean.sql`select bulk_load from cutover_runs order by id`).toEqual([{ bulkLoad: true }, { bulkLoad: false }]);
    expect(await indexSet(clean.sql)).toEqual(indexesBefore);
  }, 120_000);

  it('kill -9 in the middle, then a rerun, ends exactly as one clean run', async () => {
    const killed = await runtimeDb();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/cutover.ts'), 'backfill', '--batch-size', '25'], {
      cwd: PROJECT_ROOT,
      env: childEnv({ NODE_ENV: 'test', DATABASE_URL: killed.url, LEGACY_DATA_URL: legacy.url }),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await eventually(async () => {
      const [cp] = await killed.sql<{ n: number }[]>`select coalesce(sum(rows_done), 0)::int as n from cutover_checkpoints where table_name = 'artists'`.catch(() => [{ n: 0 }]);
      return cp!.n >= 100;
    }, 90_000, 50);
    child.kill('SIGKILL');
    await exited;
    const [mid] = await killed.sql<{ n: number }[]>`select count(*)::int as n from cutover_ledger`;
    const all = Object.values(fixtureCounts(STUDIOS)).reduce((a, b) => a + b, 0);
    expect(mid!.n).toBeGreaterThan(0);
    expect(mid!.n).toBeLessThan(all); // killed in the middle
    // a bulk load: the indexes it dropped are on record, and the status says so
    const [pending] = await killed.sql<{ n: number }[]>`select count(*)::int as n from cutover_deferred_indexes`;
    expect(pending!.n).toBeGreaterThan(0);
    expect((await indexSet(killed.sql)).length).toBe(indexesBefore.length - pending!.n);
    const status = await cutover(killed.url, 'status');
    expect(status.stdout).toContain(`indexes deferred by backfill #1 and not built yet: ${pending!.n}`);
    const resumed = await cutover(killed.url, 'backfill', '--batch-size', '150');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('(resumed)');
    expect(await runtimeSnapshot(killed.sql)).toBe(await runtimeSnapshot(clean.sql));
    expect(await indexSet(killed.sql)).toEqual(indexesBefore);
    expect(await killed.sql`select * from cutover_deferred_indexes`).toEqual([]);
  }, 180_000);

  it('never writes to the legacy store: its session is read-only', async () => {
    const ro = openLegacy(legacy.url, { max: 1 });
    try {
      await expect(ro`update studios set name = name where id = 1`).rejects.toMatchObject({ code: '25006' });
    } finally {
      await ro.end();
    }
  });

  it('reads rows with zero and negative ids: the report accounts for every row', async () => {
    await legacy.sql`insert into studios (id, slug, name, city, state, country, status) values (0, 'zero-ink', 'Zero Ink', 'Austin', 'TX', 'US', 'active'), (-5, 'minus-ink', 'Minus Ink', 'Denver', 'CO', 'US', 'active')`;
    await legacy.sql`insert into artists (id, studio_id, name) values (-1, -5, 'Minus Artist'), (0, null, 'Zero Artist')`;
    await legacy.sql`insert into portfolio_items (id, artist_id, title, image_url, is_public, consent) values (-2, -1, 'Minus piece', 'https://legacy.example/m.jpg', true, 'not_required')`;
    const run = await cutover(clean.url, 'backfill', '--batch-size', '150');
    expect(run.code, run.stderr).toBe(0);
    const keys = await clean.sql<{ k: string }[]>`select source_table || ':' || source_key || ':' || outcome as k from cutover_ledger where source_key::bigint <= 0 order by 1`;
    expect(keys.map((r) => r.k)).toEqual(['artists:-1:imported', 'artists:0:imported', 'portfolio_items:-2:imported', 'studios:-5:imported', 'studios:0:imported']);
    const [artist] = await clean.sql<{ studioId: string | null }[]>`select studio_id from artists where id = 'art_lg_-1'`;
    expect(artist!.studioId).toMatch(/^std_lg_/);
    const report = await cutover(clean.url, 'report');
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).not.toContain('incomplete');
    expect(report.stdout).toMatch(/studios\s+402 \/ 402/);
  }, 120_000);
});
