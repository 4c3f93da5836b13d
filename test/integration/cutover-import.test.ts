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

  it('a rerun of the same file changes nothing', async () => {
    const before = await runtimeSnapshot(sql, true);
    expect((await run(studiosCsv)).code).toBe(0);
    expect((await run(artistsNdjson)).code).toBe(0);
    expect(await runtimeSnapshot(sql, true)).toBe(before);
  });
});
