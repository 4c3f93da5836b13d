// The bulk write path of the cutover (lib/cutover/runtime-writes.ts, batch-writes.ts): each batch is
// COPYed into a temporary stage and upserted from it, with the search_sync triggers off and the
// batch's search documents rebuilt in one statement; into an empty store, a bulk load (indexes and
// search documents built at the end, the ledger COPYed). What must hold: the documents are exactly
// what the triggers would have written (the search_document_source view), bulk or not, the two loads
// end alike, and awkward text survives the COPY text format unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../lib/db';
import { copyLine } from '../../lib/db/copy-text';
import { LEGACY_AUTHORITY } from '../../lib/cutover/legacy-tables';
import { createLegacyDatabase, runtimeSnapshot, type LegacyDb } from '../helpers/legacy';
import { runScript } from '../helpers/run-script';
import { createTestDatabase } from '../helpers/stack';

let legacy: LegacyDb;
let runtime: { url: string; sql: Sql; drop(): Promise<void> };
/** The same backfill row by row into the indexed tables (--keep-indexes). */
let rowByRow: { url: string; sql: Sql; drop(): Promise<void> };
const cutover = (url: string, ...args: string[]) => runScript('scripts/cutover.ts', args, { DATABASE_URL: url, LEGACY_DATA_URL: legacy.url }, 120_000);

const DOC = `type, id, name, search_tsv::text, city, state, country, latitude, longitude, styles, specialties, rating, review_count, verified, published_works, created_at, quality`;
const documents = (sql: Sql) => sql.unsafe<{ h: string; n: number }[]>(`select md5(coalesce(string_agg(d::text, '|' order by d.type, d.id), '')) as h, count(*)::int as n from (select ${DOC} from search_documents) d`);
const definition = (sql: Sql) => sql.unsafe<{ h: string; n: number }[]>(`select md5(coalesce(string_agg(d::text, '|' order by d.type, d.id), '')) as h, count(*)::int as n from (select ${DOC} from search_document_source) d`);

beforeAll(async () => {
  legacy = await createLegacyDatabase({ studios: 300 });
  // text the COPY text format must escape, and a refused row in the middle of a batch
  await legacy.sql`insert into studios (id, slug, name, description, city, state, country, styles, status)
    values (900001, 'tab-ink', ${'Tab\tInk \\ Co'}, ${'line one\nline two\r\nback\\slash "quoted" {braces} 🌹'}, 'Austin', 'TX', 'US', ${['fine line', 'a"b', 'c\\d', 'e,f', '{g}']}, 'active')`;
  await legacy.sql`insert into artists (id, studio_id, name, bio, specialties) values (900001, 900001, 'Tab Artist', ${'bio\twith\ttabs\\n'}, ${['x y', 'NULL', '']})`;
  const db = await createTestDatabase();
  runtime = { ...db, sql: createSql(db.url, { max: 2 }) };
  const run = await cutover(runtime.url, 'backfill', '--batch-size', '100');
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('bulk load');
  const other = await createTestDatabase();
  rowByRow = { ...other, sql: createSql(other.url, { max: 2 }) };
  const kept = await cutover(rowByRow.url, 'backfill', '--batch-size', '100', '--keep-indexes');
  expect(kept.code, kept.stderr).toBe(0);
  expect(kept.stdout).not.toContain('bulk load');
}, 240_000);
afterAll(async () => {
  await rowByRow?.sql.end({ timeout: 5 });
  await rowByRow?.drop();
  await runtime?.sql.end({ timeout: 5 });
  await runtime?.drop();
  await legacy?.drop();
});

describe('the bulk backfill', () => {
  it('leaves the search documents exactly as the triggers define them, loaded in bulk or row by row', async () => {
    for (const db of [runtime, rowByRow]) {
      const [have] = await documents(db.sql);
      const [want] = await definition(db.sql);
      expect(have!.n).toBeGreaterThan(300);
      expect(have).toEqual(want);
    }
    expect((await documents(rowByRow.sql))[0]).toEqual((await documents(runtime.sql))[0]);
    const [missing] = await runtime.sql<{ n: number }[]>`
      select count(*)::int as n from (select distinct w from search_documents d, unnest(tsvector_to_array(d.search_tsv)) w) x
      where not exists (select 1 from search_words s where s.word = x.w)`;
    expect(missing!.n).toBe(0);
  });

  it('a bulk load ends with the records and the ledger a row-by-row load writes', async () => {
    expect(await runtimeSnapshot(runtime.sql)).toBe(await runtimeSnapshot(rowByRow.sql));
    expect(await runtime.sql`select bulk_load from cutover_runs`).toEqual([{ bulkLoad: true }]);
    expect(await rowByRow.sql`select bulk_load from cutover_runs`).toEqual([{ bulkLoad: false }]);
  });

  it('a later trigger-driven rewrite of every record changes no document', async () => {
    const [before] = await documents(runtime.sql);
    await runtime.sql`update studios set name = name`;
    await runtime.sql`update artists set name = name`;
    expect((await documents(runtime.sql))[0]).toEqual(before);
  });

  it('carries text the COPY format escapes through the normalization unchanged', async () => {
    const [s] = await runtime.sql<{ description: string }[]>`select description from studios where '900001' = any(legacy_ids)`;
    expect(s!.description).toContain('back\\slash "quoted" {braces} 🌹');
    const ledger = await runtime.sql<{ k: string }[]>`
      select source_table || ':' || outcome as k from cutover_ledger where origin_authority = ${LEGACY_AUTHORITY} and source_key = '900001' order by 1`;
    expect(ledger.map((r) => r.k)).toEqual(['artists:imported', 'studios:imported']);
  });

  it('writes COPY text that PostgreSQL reads back unchanged', async () => {
    const row = ['a\tb\nc\\d\re', ['x"y', 'p\\q', null, '', 'NULL', '{z}'], null, 1.5, true, new Date('2020-01-02T03:04:05.678Z')];
    await runtime.sql.begin(async (tx) => {
      await tx`create temp table copy_probe (t text, a text[], n text, f float8, b boolean, d timestamptz) on commit drop`;
      const into = await tx`copy copy_probe from stdin`.writable();
      await new Promise<void>((resolve, reject) => into.end(copyLine(row), (err?: Error | null) => (err ? reject(err) : resolve())));
      // (postgres.js reads a NULL element as the text NULL: the elements are compared in SQL)
      const [back] = await tx<{ t: string; a: boolean; n: null; f: number; b: boolean; d: Date }[]>`
        select t, a is not distinct from array['x"y', 'p\\q', null, '', 'NULL', '{z}'] and a[3] is null and a[5] is not null as a, n, f, b, d from copy_probe`;
      expect(back).toEqual({ t: row[0], a: true, n: null, f: 1.5, b: true, d: row[5] });
    });
  });
});
