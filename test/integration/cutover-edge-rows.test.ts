// Backfill and delta over values the legacy schema allows at its edges: infinite timestamps, ids
// near 2^63, counts at the int4 maximum, bytes that are not UTF-8 in a SQL_ASCII store, markup
// hidden in entities and image URLs of other schemes. Every row ends in the ledger; no run stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBatch } from '../../lib/cutover/batch-writes';
import { normalizeStudio, type Source, type SourceStudio } from '../../lib/cutover/normalize';
import { createSql, type Sql } from '../../lib/db';
import { LEGACY_SCHEMA } from '../../scripts/cutover/fixture';
import { createLegacyDatabase, type LegacyDb } from '../helpers/legacy';
import { runScript } from '../helpers/run-script';
import { createTestDatabase } from '../helpers/stack';

const MAX = '9223372036854775807';
const MAX_1 = '9223372036854775806';
let legacy: LegacyDb;
let runtime: { url: string; drop(): Promise<void> };
let sql: Sql;
const cutover = (...args: string[]) => runScript('scripts/cutover.ts', args, { DATABASE_URL: runtime.url, LEGACY_DATA_URL: legacy.url }, 120_000);
const ledger = async (table: string, key: string) =>
  (await sql<{ outcome: string; reason: string | null; notes: string[]; runtimeId: string | null }[]>`
    select outcome, reason, notes, runtime_id from cutover_ledger where source_table = ${table} and source_key = ${key}`)[0];

beforeAll(async () => {
  legacy = await createLegacyDatabase({ sqlAscii: true });
  runtime = await createTestDatabase();
  sql = createSql(runtime.url, { max: 2 });
  const l = legacy.sql;
  await l.unsafe(LEGACY_SCHEMA);
  await l.unsafe(`
    insert into studios (id, name, description, address, city, state, country, reviews_count, created_at, updated_at) values
      (1, 'Plain Ink', null, '1 Main St', 'Chicago', 'IL', 'US', 3, '2024-01-01', '2024-01-01'),
      (2, 'Endless Ink', null, '2 Main St', 'Chicago', 'IL', 'US', 0, '-infinity', 'infinity'),
      (3, 'Busy Ink', null, '3 Main St', 'Chicago', 'IL', 'US', 2147483647, '2024-01-01', '2024-01-01'),
      (4, E'Caf\\xe9 Ink', E'd\\xe9j\\xe0 vu', '4 Main St', 'Chicago', 'IL', 'US', 0, '2024-01-01', '2024-01-01'),
      (5, 'Sly Ink', '&lt;script&gt;alert(1)&lt;/script&gt;Hi &amp;lt;img src=x onerror=alert(1)&amp;gt;', '5 Main St', 'Chicago', 'IL', 'US', 0, '2024-01-01', '2024-01-01'),
      (${MAX_1}, 'Far Ink', 'the smaller id', '9 Far St', 'Chicago', 'IL', 'US', 0, '2024-01-01', '2024-01-01'),
      (${MAX}, 'Far Ink', 'the larger id', '9 Far St', 'Chicago', 'IL', 'US', 0, '2024-01-01', '2024-01-01');
    insert into artists (id, studio_id, name, specialties, created_at, updated_at) values
      (1, 1, 'Ana', array[null, 'fineline']::text[], '2024-01-01', '2024-01-01'),
      (${MAX}, 1, 'Max', null, 'infinity', 'infinity');
    insert into portfolio_items (id, artist_id, title, image_url, tags, is_public, consent, created_at, updated_at) values
      (1, 1, 'ok', 'https://cdn.example/a.jpg', array[null, 'Rose']::text[], true, 'client_consented', '2024-01-01', '2024-01-01'),
      (2, 1, 'js', 'javascript:alert(1)', null, true, 'client_consented', '2024-01-01', '2024-01-01'),
      (3, 1, 'data', 'data:text/html;base64,PHNjcmlwdD4=', null, true, 'client_consented', '2024-01-01', '2024-01-01'),
      (4, 1, 'vb', ' VBScript:msgbox(1)', null, true, 'client_consented', '2024-01-01', '2024-01-01'),
      (5, 1, 'no url', 'not a url', null, true, 'client_consented', '2024-01-01', '2024-01-01'),
      (${MAX}, ${MAX}, 'far', 'http://cdn.example/b.jpg', null, true, 'client_consented', 'infinity', 'infinity');`);
  const run = await cutover('backfill', '--batch-size', '3');
  expect(run.code, run.stderr).toBe(0);
}, 180_000);
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await runtime?.drop();
  await legacy?.drop();
});

describe('backfill over edge values', () => {
  it('accounts for every row', async () => {
    const [n] = await sql<{ studios: number; artists: number; items: number }[]>`
      select count(*) filter (where source_table = 'studios')::int as studios, count(*) filter (where source_table = 'artists')::int as artists,
        count(*) filter (where source_table = 'portfolio_items')::int as items from cutover_ledger`;
    expect(n).toEqual({ studios: 7, artists: 2, items: 6 });
  });

  it('takes infinite timestamps as unreadable, with a note', async () => {
    const l = await ledger('studios', '2');
    expect(l).toMatchObject({ outcome: 'imported' });
    expect(l!.notes).toEqual(expect.arrayContaining(['created_at_unreadable', 'updated_at_unreadable']));
    const [s] = await sql<{ sourceCollectedAt: Date | null }[]>`select source_collected_at from studios where '2' = any(legacy_ids)`;
    expect(s!.sourceCollectedAt).toBeNull();
  });

  it('carries ids near 2^63 exactly: the smaller id of a duplicate gives the fields', async () => {
    const [s] = await sql<{ legacyIds: string[]; description: string; sourceRank: string }[]>`
      select legacy_ids, description, source_rank::text from studios where ${MAX} = any(legacy_ids)`;
    expect(s).toEqual({ legacyIds: [MAX_1, MAX], description: 'the smaller id', sourceRank: MAX_1 });
    expect((await ledger('studios', MAX))!.outcome).toBe('merged');
    expect((await ledger('artists', MAX))).toMatchObject({ outcome: 'imported', runtimeId: `art_lg_${MAX}` });
    expect((await ledger('portfolio_items', MAX))).toMatchObject({ outcome: 'imported', runtimeId: `pfa_lg_${MAX}` });
  });

  it('takes a review count at the int4 maximum', async () => {
    const [s] = await sql<{ reviewCount: number }[]>`select review_count from studios where '3' = any(legacy_ids)`;
    expect(s!.reviewCount).toBe(2147483647);
  });

  it('keeps text whose bytes are not UTF-8 with the replacement character, and notes it', async () => {
    const [s] = await sql<{ name: string; description: string }[]>`select name, description from studios where '4' = any(legacy_ids)`;
    expect(s).toEqual({ name: 'Caf\uFFFD Ink', description: 'd\uFFFDj\uFFFD vu' });
    expect((await ledger('studios', '4'))!.notes).toContain('text_not_utf8');
  });

  it('strips markup hidden in entities, however deep', async () => {
    const [s] = await sql<{ description: string }[]>`select description from studios where '5' = any(legacy_ids)`;
    expect(s!.description).toBe('Hi');
  });

  it('drops NULL array elements', async () => {
    const [a] = await sql<{ specialties: string[] }[]>`select specialties from artists where id = 'art_lg_1'`;
    expect(a!.specialties).toEqual(['fine_line']);
    const [p] = await sql<{ tags: string[] }[]>`select tags from portfolio_assets where id = 'pfa_lg_1'`;
    expect(p!.tags).toEqual(['rose']);
  });

  it('rejects image URLs outside the scheme allow-list, per row, with a reason', async () => {
    for (const key of ['2', '3', '4']) expect(await ledger('portfolio_items', key)).toMatchObject({ outcome: 'rejected', reason: 'image_url_scheme_not_allowed' });
    expect(await ledger('portfolio_items', '5')).toMatchObject({ outcome: 'rejected', reason: 'image_url_invalid' });
    const urls = await sql<{ imageUrl: string }[]>`select image_url from portfolio_assets order by id`;
    expect(urls.map((u) => u.imageUrl)).toEqual(['https://cdn.example/a.jpg', 'http://cdn.example/b.jpg']);
  });

  it('a delta over the same rows runs to the end and changes nothing', async () => {
    await legacy.sql`update studios set name = 'Plain Ink Two', updated_at = now() where id = 1`;
    const run = await cutover('delta');
    expect(run.code, run.stderr).toBe(0);
    const [s] = await sql<{ name: string }[]>`select name from studios where '1' = any(legacy_ids)`;
    expect(s!.name).toBe('Plain Ink Two');
    expect(await ledger('studios', '2')).toMatchObject({ outcome: 'imported' });
  }, 120_000);

  it('a duplicate left with only the id 2^63-1 shows that row', async () => {
    await legacy.sql.unsafe(`insert into deletions (table_name, row_id) values ('studios', ${MAX_1}); update studios set updated_at = now() where id = ${MAX}`);
    const run = await cutover('delta');
    expect(run.code, run.stderr).toBe(0);
    const [s] = await sql<{ legacyIds: string[]; description: string; sourceRank: string }[]>`
      select legacy_ids, description, source_rank::text from studios where ${MAX} = any(legacy_ids)`;
    expect(s).toEqual({ legacyIds: [MAX], description: 'the larger id', sourceRank: MAX });
  }, 120_000);
});

describe('a row the runtime store refuses', () => {
  it('is rejected alone (write_failed, with its SQLSTATE); the rest of its batch is written', async () => {
    const row = (name: string): SourceStudio => ({
      name, description: null, address: `${name} St`, city: 'Denver', state: 'CO', country: 'US', lat: null, lng: null, priceRange: null, rating: null,
      reviewsCount: 1, styles: null, isVerified: false, isFeatured: false, status: 'active', createdAt: null, updatedAt: null,
    });
    const src = (key: string): Source => ({ type: 'file_import', authority: 'file_import:refusals', key, rank: Number(key) });
    const good = normalizeStudio(row('Good'), src('1'));
    const refused = normalizeStudio(row('Refused'), src('2'));
    if (!refused.ok) throw new Error('expected a record');
    refused.record.review_count = -1; // the runtime's check constraint refuses it
    await sql.begin((tx) => writeBatch(tx, 'file_import:refusals', 'studios', 'studios', [{ key: '1', n: good, updatedAt: null }, { key: '2', n: refused, updatedAt: null }]));
    const rows = await sql<{ sourceKey: string; outcome: string; reason: string | null; notes: string[] }[]>`
      select source_key, outcome, reason, notes from cutover_ledger where origin_authority = 'file_import:refusals' order by 1`;
    expect(rows).toEqual([
      { sourceKey: '1', outcome: 'imported', reason: null, notes: expect.any(Array) },
      { sourceKey: '2', outcome: 'rejected', reason: 'write_failed', notes: ['sqlstate:23514'] },
    ]);
    expect((await sql`select 1 from studios where 'Good St' = address`).length).toBe(1);
  });
});
