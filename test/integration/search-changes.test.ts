// The change log of search_documents (migration 1700000033000), without a search engine: every
// write takes a new version, the log is written only while the feed is on, every change of a
// statement is logged (inserts, updates, deletes with a version of their own), and the bulk seed
// leaves the log's triggers as it found them (off for its rebuild only while the feed is off).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../lib/db';
import { BULK_THRESHOLD, seedDirectory } from '../../scripts/seed/directory';
import { createTestDatabase } from '../helpers/stack';

let sql: Sql;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 4 });
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await db?.drop();
});

const changes = async () => (await sql<{ n: number }[]>`select count(*)::int as n from search_changes`)[0]!.n;
const triggersEnabled = async () =>
  (await sql<{ tgname: string; tgenabled: string }[]>`select tgname, tgenabled from pg_trigger where tgrelid = 'search_documents'::regclass and tgname like 'search_documents_changes_%' order by 1`).map((t) => `${t.tgname}:${t.tgenabled}`);
const ENABLED = ['search_documents_changes_delete:O', 'search_documents_changes_insert:O', 'search_documents_changes_update:O'];

describe('search_changes', () => {
  it('the bulk seed with the feed off writes no change and leaves the triggers enabled', async () => {
    const r = await seedDirectory(sql, { studios: BULK_THRESHOLD + 50, seed: 3 });
    expect(r.counts.studios).toBe(BULK_THRESHOLD + 50);
    expect(await changes()).toBe(0);
    expect(await triggersEnabled()).toEqual(ENABLED);
  });

  it('with the feed on: an update logs the document with its new, higher version; a delete logs one above it', async () => {
    await sql`insert into search_feed default values`;
    const [s] = await sql<{ id: string; version: string }[]>`select id, version::text from search_documents where type = 'studio' order by id limit 1`;
    await sql`update studios set review_count = review_count + 7 where id = ${s!.id}`;
    const [after] = await sql<{ version: string }[]>`select version::text from search_documents where type = 'studio' and id = ${s!.id}`;
    expect(BigInt(after!.version)).toBeGreaterThan(BigInt(s!.version));
    const logged = await sql<{ version: string; deleted: boolean }[]>`select version::text, deleted from search_changes where type = 'studio' and id = ${s!.id} order by seq`;
    expect(logged).toEqual([{ version: after!.version, deleted: false }]);
    await sql`update studios set visibility = 'private' where id = ${s!.id}`;
    const gone = await sql<{ version: string; deleted: boolean }[]>`select version::text, deleted from search_changes where type = 'studio' and id = ${s!.id} order by seq`;
    expect(gone).toHaveLength(2);
    expect(gone[1]!.deleted).toBe(true);
    expect(BigInt(gone[1]!.version)).toBeGreaterThan(BigInt(after!.version));
  });

  it('an unchanged write logs nothing (the refresh writes only documents that differ)', async () => {
    const before = await changes();
    await sql`update studios set name = name where id in (select id from studios order by id limit 20)`;
    expect(await changes()).toBe(before);
  });

  it('the bulk seed with the feed on logs every document it deletes and writes', async () => {
    await sql`delete from search_changes`;
    const [docs] = await sql<{ n: number }[]>`select count(*)::int as n from search_documents`;
    await seedDirectory(sql, { studios: BULK_THRESHOLD + 50, seed: 4, reset: true });
    const [now] = await sql<{ n: number }[]>`select count(*)::int as n from search_documents`;
    const [log] = await sql<{ deleted: number; written: number }[]>`
      select count(*) filter (where deleted)::int as deleted, count(*) filter (where not deleted)::int as written from search_changes`;
    expect(log!.deleted).toBeGreaterThanOrEqual(docs!.n);
    expect(log!.written).toBeGreaterThanOrEqual(now!.n);
    expect(await triggersEnabled()).toEqual(ENABLED);
  });
});
