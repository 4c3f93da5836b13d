// npm run import: a CSV with quoting, a BOM and CRLF line ends, and an NDJSON file of artists, through
// the cutover's normalization with sourceType file_import; a rerun changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createSql, type Sql } from '../../lib/db';
import { runtimeSnapshot } from '../helpers/legacy';
import { runScript } from '../helpers/run-script';
import { createTestDatabase, uid } from '../helpers/stack';

let db: { url: string; drop(): Promise<void> };
let sql: Sql;
const dir = () => path.join(inject('tmpRoot'), uid('import-'));
let studiosCsv: string;
let artistsNdjson: string;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 2 });
  const d = dir();
  fs.mkdirSync(d, { recursive: true });
  studiosCsv = path.join(d, 'studios.csv');
  fs.writeFileSync(
    studiosCsv,
    '\uFEFF' +
      [
        'id,name,description,address,city,state,country,lat,lng,price_range,rating,styles',
        's1,"Iron Anchor, Tattoo","Says ""hi""\r\nand <b>more</b>",12 Main St,nyc,new york,USA,40.71,-74.0,pricey,9,"Fine Line;neo trad;Sticker Bomb"',
        's2,  Quiet Needle ,,7 Elm St,Chicago,Illinois,United States,-87.63,41.88,$$,4.5,',
        's3,"  ",,,Denver,CO,US,,,,,',
        's4,iron anchor tattoo,,12 Main Street,New York City,NY,US,40.71,-74.0,$$$,4.5,traditional',
      ].join('\r\n') +
      '\r\n',
  );
  artistsNdjson = path.join(d, 'artists.ndjson');
  fs.writeFileSync(artistsNdjson, [JSON.stringify({ id: 'a1', studio_id: 's2', name: ' Maya Reyes ', specialties: ['fineline', 'Dotwork'], years_experience: 150 }), JSON.stringify({ id: 'a2', name: 'Solo Artist' })].join('\n') + '\n');
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
});

const run = (...args: string[]) => runScript('scripts/import.ts', args, { DATABASE_URL: db.url });

describe('npm run import', () => {
  it('takes a CSV with quoting, a BOM and CRLF through the normalization, with file_import provenance and a report', async () => {
    const r = await run(studiosCsv);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^runtime store: 127\.0\.0\.1:\d+\/t_\w+; importing studios from .*studios\.csv \(csv\)$/);
    expect(r.stdout).toMatch(/rejected\s+empty_name\s+1/);
    expect(r.stdout).toMatch(/merged\s+duplicate_name_address\s+1/);
    const rows = await sql<{ name: string; description: string; city: string; state: string; country: string; latitude: number; priceRange: string; rating: number; styles: string[]; sourceType: string; originAuthority: string; legacyIds: string[]; sourceNotes: string[] }[]>`
      select name, description, city, state, country, latitude, price_range, rating, styles, source_type, origin_authority, legacy_ids, source_notes from studios where source_type = 'file_import' order by name`;
    expect(rows).toHaveLength(2);
    const [anchor, quiet] = rows;
    expect(anchor).toMatchObject({ name: 'Iron Anchor, Tattoo', description: 'Says "hi" and more', city: 'New York', state: 'NY', country: 'US', priceRange: '$$$', rating: 4.5, styles: ['fine_line', 'neo_traditional', 'sticker_bomb'], originAuthority: 'file_import:studios.csv', legacyIds: ['s1', 's4'] });
    expect(anchor!.sourceNotes).toContain('unknown_style:sticker_bomb');
    expect(quiet).toMatchObject({ name: 'Quiet Needle', city: 'Chicago', state: 'IL', latitude: 41.88 });
    expect(quiet!.sourceNotes).toContain('coordinates_swapped');
  });

  it('imports artists from NDJSON, linked to a studio of an imported file', async () => {
    const r = await run(artistsNdjson);
    expect(r.code, r.stderr).toBe(0);
    const rows = await sql<{ name: string; studioId: string | null; specialties: string[]; yearsExperience: number }[]>`select name, studio_id, specialties, years_experience from artists where source_type = 'file_import' order by name`;
    const [studio] = await sql<{ id: string }[]>`select id from studios where 's2' = any(legacy_ids)`;
    expect(rows).toEqual([
      { name: 'Maya Reyes', studioId: studio!.id, specialties: ['fine_line', 'dotwork'], yearsExperience: 0 },
      { name: 'Solo Artist', studioId: null, specialties: [], yearsExperience: 0 },
    ]);
  });

  it('rejects bad NDJSON rows into the ledger and the report, with their line and reason, and goes on to the end', async () => {
    const file = path.join(dir(), 'bad-studios.ndjson');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const j = (o: unknown) => JSON.stringify(o);
    const lines = [
      j({ id: 'b1', name: 'Good One', city: 'Chicago', state: 'IL', country: 'US' }),
      j({ id: 'b2', name: 'Too Many', reviews_count: 99999999999 }),
      j({ id: 'b1', name: 'Again' }),
      j({ id: 'b4', name: 'Nul\u0000Ink' }),
      'null',
      '{not json',
      j({ id: 'b7', name: 'Lone \ud800' }),
      j({ id: 'b8', name: { first: 'x' } }),
      j({ id: 'b9', name: 'Tags', city: 'Chicago', styles: [null, 'Fine Line'] }),
      '{"id": 9007199254740993, "name": "Big Id"}',
      '',
      j({ id: 'b12', name: 'Count Max', city: 'Denver', reviews_count: 2147483647 }),
      j({ id: 'b13', name: 'Stray Tag', city: 'Denver', styles: ['ok', 3] }),
      '[1, 2]',
    ];
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const r = await run(file);
    expect(r.code, r.stderr).toBe(0);
    const want: [number, string, string][] = [
      [2, 'b2', 'value_out_of_range'], [3, 'record:3', 'duplicate_id'], [4, 'b4', 'invalid_text'], [5, 'record:5', 'not_an_object'], [6, 'record:6', 'invalid_json'],
      [7, 'b7', 'invalid_text'], [8, 'b8', 'value_not_text'], [10, 'record:10', 'invalid_id'], [13, 'b13', 'value_not_text'], [14, 'record:13', 'not_an_object'],
    ];
    for (const [line, key, reason] of want) expect(r.stdout).toMatch(new RegExp(`line ${line}, record \\d+, ${key}: ${reason}`));
    const ledger = await sql<{ sourceKey: string; outcome: string; reason: string | null; notes: string[] }[]>`
      select source_key, outcome, reason, notes from cutover_ledger where origin_authority = 'file_import:bad-studios.ndjson' order by source_key`;
    expect(ledger).toHaveLength(13);
    expect(ledger.filter((l) => l.outcome === 'rejected').map((l) => [l.sourceKey, l.reason, l.notes[0] ?? null])).toEqual([
      ['b13', 'value_not_text', 'value_not_text:styles'], ['b2', 'value_out_of_range', 'value_out_of_range:reviews_count'], ['b4', 'invalid_text', 'invalid_text:name'],
      ['b7', 'invalid_text', 'invalid_text:name'], ['b8', 'value_not_text', 'value_not_text:name'], ['record:10', 'invalid_id', 'invalid_id:id'],
      ['record:13', 'not_an_object', null], ['record:3', 'duplicate_id', null], ['record:5', 'not_an_object', null], ['record:6', 'invalid_json', null],
    ]);
    const rows = await sql<{ name: string; styles: string[]; reviewCount: number }[]>`
      select name, styles, review_count from studios where origin_authority = 'file_import:bad-studios.ndjson' order by name`;
    expect(rows).toEqual([
      { name: 'Count Max', styles: [], reviewCount: 2147483647 },
      { name: 'Good One', styles: [], reviewCount: 0 },
      { name: 'Tags', styles: ['fine_line'], reviewCount: 0 },
    ]);
    const before = await runtimeSnapshot(sql, true);
    expect((await run(file)).code).toBe(0);
    expect(await runtimeSnapshot(sql, true)).toBe(before);
  });

  it('rejects bad CSV rows (a word for a number, an overflow, a NUL, a duplicate id, a quote never closed) and goes on', async () => {
    const file = path.join(dir(), 'bad-studios.csv');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const rows = ['c1,First,Denver,4,1', 'c2,Wordy,Denver,abc,1', 'c3,Huge,Denver,4,3000000000', 'c4,Nul\u0000Ink,Denver,4,1', 'c1,Again,Denver,4,1', 'c6,"Stray"quote,Denver,4,1', 'c7,Last,Denver,4,1', 'c8,"never closed,Denver,4,1'];
    fs.writeFileSync(file, ['id,name,city,rating,reviews_count', ...rows].join('\n') + '\n');
    const r = await run(file);
    expect(r.code, r.stderr).toBe(0);
    const want: [number, string, string][] = [[3, 'c2', 'invalid_number (invalid_number:rating)'], [4, 'c3', 'value_out_of_range'], [5, 'c4', 'invalid_text'], [6, 'record:5', 'duplicate_id'], [9, 'record:8', 'invalid_csv']];
    for (const [line, key, why] of want) expect(r.stdout).toContain(`line ${line}, record ${line - 1}, ${key}: ${why}`);
    const names = await sql<{ name: string }[]>`select name from studios where origin_authority = 'file_import:bad-studios.csv' order by name`;
    expect(names.map((n) => n.name)).toEqual(['"Stray"quote', 'First', 'Last']);
    const [n] = await sql<{ n: number }[]>`select count(*)::int as n from cutover_ledger where origin_authority = 'file_import:bad-studios.csv'`;
    expect(n!.n).toBe(8);
  });

  it('a rerun of the same file changes nothing', async () => {
    const before = await runtimeSnapshot(sql, true);
    expect((await run(studiosCsv)).code).toBe(0);
    expect((await run(artistsNdjson)).code).toBe(0);
    expect(await runtimeSnapshot(sql, true)).toBe(before);
  });
});
