import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../lib/db';
import { BULK_THRESHOLD, plannedCounts, SeedConflictError, seedDirectory } from '../../scripts/seed/directory';
import { SEGMENTS } from '../../lib/directory/search';
import { createSql } from '../../lib/db';
import { createTestDatabase } from '../helpers/stack';

const dbs: { drop(): Promise<void> }[] = [];
const pools: Sql[] = [];
async function freshDb(): Promise<Sql> {
  const db = await createTestDatabase();
  dbs.push(db);
  const sql = createSql(db.url, { max: 4 });
  pools.push(sql);
  return sql;
}
afterAll(async () => {
  for (const p of pools) await p.end({ timeout: 5 });
  for (const d of dbs) await d.drop();
});

const fingerprint = async (sql: Sql) => {
  const [r] = await sql`
    select (select md5(string_agg(s::text, '|' order by id)) from (select id, name, city, latitude, longitude, rating, styles, created_at from studios) s) as studios,
           (select md5(string_agg(a::text, '|' order by id)) from (select id, studio_id, name, specialties, hourly_rate from artists) a) as artists,
           (select md5(string_agg(d::text, '|' order by id)) from (select id, title, publish_state, rights_posture, price from designs) d) as designs`;
  return r;
};
const indexNames = async (sql: Sql) =>
  (await sql`select indexname from pg_indexes where tablename in ('studios', 'artists', 'portfolio_assets', 'designs') order by 1`).map((r) => r.indexname);

describe('seedDirectory', () => {
  let a: Sql;
  beforeAll(async () => {
    a = await freshDb();
  });

  it('writes the planned number of rows of every table', async () => {
    const r = await seedDirectory(a, { studios: 400, seed: 11 });
    expect(r.counts).toEqual(plannedCounts(11, 400));
    const [c] = await a`select (select count(*)::int from studios) as s, (select count(*)::int from artists) as a,
      (select count(*)::int from portfolio_assets) as p, (select count(*)::int from designs) as d`;
    expect([c!.s, c!.a, c!.p, c!.d]).toEqual([r.counts.studios, r.counts.artists, r.counts.portfolio_assets, r.counts.designs]);
  });

  it('is deterministic: the same seed in another database gives identical rows', async () => {
    const b = await freshDb();
    await seedDirectory(b, { studios: 400, seed: 11 });
    expect(await fingerprint(b)).toEqual(await fingerprint(a));
  });

  it('refuses to seed twice, does nothing with ifEmpty, and replaces its own rows with reset', async () => {
    await expect(seedDirectory(a, { studios: 10, seed: 11 })).rejects.toBeInstanceOf(SeedConflictError);
    expect((await seedDirectory(a, { studios: 10, ifEmpty: true })).skipped).toBe(true);
    await a`insert into studios (id, name, city, country, latitude, longitude, price_range, source_type) values ('std_real', 'Real', 'X', 'US', 1, 1, '$', 'directory_import')`;
    const r = await seedDirectory(a, { studios: 50, seed: 2, reset: true });
    const { n } = (await a<{ n: number }[]>`select count(*)::int as n from studios`)[0]!;
    expect(n).toBe(r.counts.studios + 1); // the non-synthetic studio survives the reset
  });

  it(`loads ${BULK_THRESHOLD} studios in bulk mode and leaves every index of the migration in place`, async () => {
    const c = await freshDb();
    const before = await indexNames(c);
    const r = await seedDirectory(c, { studios: BULK_THRESHOLD, seed: 5 });
    expect(r.counts).toEqual(plannedCounts(5, BULK_THRESHOLD));
    expect(await indexNames(c)).toEqual(before);
    // one search document per searchable record, rebuilt in the seed's transaction (issue 16)
    const [d] = await c`select (select count(*)::int from search_documents) as docs, (select count(*)::int from search_document_source) as source,
      (select count(*)::int from pg_indexes where tablename = 'search_documents') as indexes`;
    expect(d!.docs).toBe(d!.source);
    expect(d!.docs).toBeGreaterThan(BULK_THRESHOLD);
    // the key, text, quality, city, rating, type and rating, geo; and one partial GIN index per search segment
    expect(d!.indexes).toBe(7 + SEGMENTS);
  }, 120_000);
});
