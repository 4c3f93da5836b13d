// The cutover stages against a real legacy store (a second PostgreSQL database): each switch changes
// /health and where reads come from; shadow reads catch a mismatch injected in the legacy store;
// a delta picks up legacy edits and deletions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLegacy } from '../../lib/cutover/connection';
import { legacyCounts } from '../../lib/cutover/legacy-source';
import { backfill, delta } from '../../lib/cutover/runs';
import type { Sql } from '../../lib/db';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { call } from '../helpers/directory-seed';
import { createLegacyDatabase, runtimeSnapshot, type LegacyDb } from '../helpers/legacy';
import { runScript } from '../helpers/run-script';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

const SECRET_ANON = 'legacy-anon-value-0123456789';
const SECRET_SERVICE = 'legacy-service-value-9876543210';
let legacy: LegacyDb;
let reader: Sql;
let stack: TestStack;
let artistsKey: TestCredential;
const logs: string[] = [];

beforeAll(async () => {
  legacy = await createLegacyDatabase({ studios: 200, seed: 3 });
  reader = openLegacy(legacy.url);
  stack = await startTestStack({
    worker: false,
    env: { LEGACY_DATA_URL: legacy.url, LEGACY_ANON_KEY: SECRET_ANON, LEGACY_SERVICE_KEY: SECRET_SERVICE, CUTOVER_SHADOW_SAMPLE_RATE: '1', LOG_LEVEL: 'warn' },
    logDestination: { write: (line: string) => void logs.push(line) },
  });
  await backfill({ sql: stack.sql, legacy: reader, batchSize: 500 });
  artistsKey = await apiKeyActor(stack, { permissions: ['artists:read', 'portfolios:read', 'designs:read'] });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await reader?.end();
  await legacy?.drop();
});

const health = async () => (await call(stack, '/health')).body;
const stage = async (name: string) => {
  const r = await runScript('scripts/cutover.ts', ['stage', name], { DATABASE_URL: stack.cfg.DATABASE_URL!, LEGACY_DATA_URL: legacy.url });
  expect(r.code, r.stderr).toBe(0);
  // every replica re-reads the stage within a second
  await eventually(async () => (await health()).runtime.apiCutoverStage === name, 10_000, 100);
  return r.stdout;
};
const source = async (path: string) => (await call(stack, path, { headers: artistsKey.headers })).headers.get('x-read-source');
/** Shadow comparisons run on a route (any result). */
async function shadowReads(route: string): Promise<number> {
  const text = await (await fetch(`${stack.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l: string) => l.startsWith('cutover_shadow_reads_total{') && l.includes(`route="${route}"`))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

async function mismatches(route: string): Promise<number> {
  const text = await (await fetch(`${stack.url}/metrics`)).text();
  const line = text.split('\n').find((l: string) => l.startsWith(`cutover_shadow_mismatches_total{route="${route}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('cutover stages', () => {
  it('with a legacy store and no stage chosen, the legacy store is authoritative; /health says which keys are configured, never their values', async () => {
    const h = await health();
    expect(h.services.configuration).toMatchObject({ legacyDataUrl: true, anonKey: true, serviceKey: true });
    expect(h.runtime).toMatchObject({ currentPersistence: 'legacy_store', apiCutoverStage: 'legacy_authoritative', publicReadSurface: 'legacy_store' });
    const text = JSON.stringify(h);
    for (const secret of [SECRET_ANON, SECRET_SERVICE, legacy.url, new URL(legacy.url).password]) expect(text).not.toContain(secret);
    expect(await source('/studios')).toBe('legacy_store');
    expect(await source('/artists')).toBe('legacy_store');
    // every filter is answered from the legacy store
    for (const q of ['/studios?city=Chicago', '/studios?state=IL&price_range=$$', '/studios?latitude=41.88&longitude=-87.63&radius=50&sort=distance', '/artists?specialty=fine_line', '/artists?studio_id=std_lg_x', '/portfolios?tags=koi', '/designs?search=rose'])
      expect(await source(q), q).toBe('legacy_store');
  });

  it('legacy_authoritative answers the city, state, price, geo, studio_id and specialty filters from the legacy store as the runtime store does after the backfill', async () => {
    const [place] = await stack.sql<{ city: string; state: string }[]>`
      select city, state from studios where source_type = 'legacy_store' and is_active and visibility = 'public' group by city, state order by count(*) desc, city limit 1`;
    const [spot] = await stack.sql<{ latitude: number; longitude: number }[]>`
      select latitude, longitude from studios where source_type = 'legacy_store' and latitude is not null and city = ${place!.city} limit 1`;
    const [withArtists] = await stack.sql<{ id: string }[]>`
      select s.id from studios s join artists a on a.studio_id = s.id where s.source_type = 'legacy_store' group by s.id order by count(*) desc, s.id limit 1`;
    const [specialty] = await stack.sql<{ v: string }[]>`select unnest(specialties) as v from artists where source_type = 'legacy_store' group by 1 order by count(*) desc, 1 limit 1`;
    const [style] = await stack.sql<{ v: string }[]>`select unnest(style_ids) as v from portfolio_assets where source_type = 'legacy_store' and is_public group by 1 order by count(*) desc, 1 limit 1`;
    const [tag] = await stack.sql<{ v: string }[]>`select unnest(tags) as v from designs where source_type = 'legacy_store' and is_public group by 1 order by count(*) desc, 1 limit 1`;
    const [mediaArtist] = await stack.sql<{ id: string }[]>`select artist_id as id from portfolio_assets where source_type = 'legacy_store' and is_public group by 1 order by count(*) desc, 1 limit 1`;
    const [word] = await stack.sql<{ w: string }[]>`select (regexp_match(lower(title), '[a-z]{4,}'))[1] as w from designs where source_type = 'legacy_store' and is_public and title ~ '[A-Za-z]{4,}' order by id limit 1`;
    const queries = [
      `/studios?city=${encodeURIComponent(place!.city)}&limit=50&sort=name&order=asc`,
      `/studios?state=${encodeURIComponent(place!.state)}&price_range=$$,$$$&limit=50&sort=name&order=asc`,
      `/studios?latitude=${spot!.latitude}&longitude=${spot!.longitude}&radius=25&sort=distance&limit=50`,
      `/artists?studio_id=${withArtists!.id}&limit=100&sort_by=name&sort_order=asc`,
      `/artists?specialty=${encodeURIComponent(specialty!.v)}&limit=100&sort_by=name&sort_order=asc`,
      '/portfolios?limit=100',
      `/portfolios?style_id=${encodeURIComponent(style!.v)}&limit=100`,
      `/portfolios?artist_id=${mediaArtist!.id}&limit=100`,
      '/designs?limit=20&page=2',
      `/designs?tags=${encodeURIComponent(tag!.v)}&min_price=1&limit=100`,
      `/designs?search=${encodeURIComponent(word!.w)}&limit=100`,
      // a fractional minimum, and 0 (which takes the artists whose years could not be read, as 0)
      `/artists?specialty=${encodeURIComponent(specialty!.v)}&min_experience=0.5&limit=100&sort_by=years_experience&sort_order=asc`,
      `/artists?specialty=${encodeURIComponent(specialty!.v)}&min_experience=0&limit=100&sort_by=name&sort_order=asc`,
      '/artists?min_experience=20.5&limit=100&sort_by=name&sort_order=asc',
    ];
    const read = async () => {
      const out: { ids: string[]; source: string | null; body: any }[] = [];
      for (const q of queries) {
        const r = await call(stack, q, { headers: artistsKey.headers });
        expect(r.status, `${q}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
        out.push({ ids: r.body.data.map((x: { id: string }) => x.id), source: r.headers.get('x-read-source'), body: r.body });
      }
      return out;
    };
    const fromLegacy = await read();
    // No stage stored yet: the API read legacy_authoritative (a legacy store is configured), and undo returns there.
    const said = await stage('runtime_authoritative');
    expect(said).toContain('stage: (none stored; effective legacy_authoritative) -> runtime_authoritative.');
    expect(said).toContain('Undo: npm run cutover -- stage legacy_authoritative');
    const fromRuntime = await read();
    await stage('legacy_authoritative');
    queries.forEach((q, i) => {
      expect(fromLegacy[i]!.source, q).toBe('legacy_store');
      expect(fromRuntime[i]!.source, q).toBe('runtime_store');
      expect(fromRuntime[i]!.ids.length, `${q} finds something`).toBeGreaterThan(0);
      // the same records (a merged duplicate is one runtime record; the legacy store lists each of its rows)
      expect(new Set(fromLegacy[i]!.ids), q).toEqual(new Set(fromRuntime[i]!.ids));
    });
    // portfolio items and designs are never merged: the same page, record for record, with the totals
    for (const i of [5, 6, 7, 8, 9, 10]) {
      expect(fromLegacy[i]!.body.data, queries[i]).toEqual(fromRuntime[i]!.body.data);
      expect(fromLegacy[i]!.body.pagination, queries[i]).toEqual(fromRuntime[i]!.body.pagination);
    }
    // the geo page: the same order and distances (to a metre) as the runtime's earth_distance
    const km = (b: any) => b.data.map((x: any) => [x.id, Math.round(x.distance_km * 1000)]);
    expect(km(fromLegacy[2]!.body)).toEqual(km(fromRuntime[2]!.body));

    // served from the legacy store: a price edited only there shows at once in the filter
    const [row] = await reader<{ id: string }[]>`select id::text from studios where status = 'active' and (price_range is null or price_range not in ('$$$$', 'high end')) order by id limit 1`;
    const before = await call(stack, `/studios?price_range=$$$$&limit=50`);
    await legacy.sql`update studios set price_range = 'high end' where id = ${row!.id}::bigint`;
    await eventually(async () => (await call(stack, `/studios?price_range=$$$$&limit=50`)).body.pagination.total === before.body.pagination.total + 1, 40_000, 500);
  });

  it('legacy reads come in the runtime shapes', async () => {
    const fromLegacy = await call(stack, '/studios?limit=5&sort=name&order=asc');
    expect(fromLegacy.status).toBe(200);
    expect(Object.keys(fromLegacy.body).sort()).toEqual(['data', 'error', 'pagination', 'totalRelation']);
    const s = fromLegacy.body.data[0];
    expect(s.id).toMatch(/^std_lg_/);
    expect(s.provenance.sourceType).toBe('legacy_store');
    const runtime = await stack.sql`select id from studios where id = ${s.id}`;
    expect(runtime).toHaveLength(1);
    const one = await call(stack, '/artists/art_lg_2', { headers: artistsKey.headers });
    expect(one.status).toBe(200);
    expect(one.headers.get('x-read-source')).toBe('legacy_store');
    expect(Object.keys(one.body.data).sort()).toEqual(['bio', 'hourly_rate', 'id', 'is_active', 'name', 'specialties', 'studio_id', 'years_experience']);
  });

  it('shadow_reads: reads from the runtime store; a mismatch injected in the legacy store is counted and logged by record id only', async () => {
    await stage('shadow_reads');
    expect((await health()).runtime).toMatchObject({ currentPersistence: 'postgresql', publicReadSurface: 'runtime_store' });
    const first = await call(stack, '/studios?limit=10&sort=name&order=asc');
    expect(first.headers.get('x-read-source')).toBe('runtime_store');
    await eventually(async () => (await shadowReads('GET /studios')) >= 1, 10_000, 50); // the comparison ran
    expect(await mismatches('GET /studios')).toBe(0); // the backfill and the legacy store agree
    const victim = first.body.data[0].id as string;
    const [row] = await stack.sql<{ legacyIds: string[] }[]>`select legacy_ids from studios where id = ${victim}`;
    const primary = row!.legacyIds.reduce((a, b) => (Number(b) < Number(a) ? b : a));
    await legacy.sql`update studios set description = 'INJECTED-DIFFERENCE' where id = ${primary}`;
    await call(stack, '/studios?limit=10&sort=name&order=asc');
    await eventually(async () => (await mismatches('GET /studios')) >= 1, 10_000, 100);
    const line = logs.find((l) => l.includes('shadow read'));
    expect(line).toContain(victim);
    expect(logs.join('\n')).not.toContain('INJECTED-DIFFERENCE');
  });

  it('runtime_authoritative: the legacy store is not read; and every switch is reversible', async () => {
    await stage('runtime_authoritative');
    expect((await health()).runtime).toMatchObject({ currentPersistence: 'postgresql', apiCutoverStage: 'runtime_authoritative', publicReadSurface: 'runtime_store' });
    expect(await source('/studios')).toBe('runtime_store');
    expect(await source('/artists')).toBe('runtime_store');
    await stage('legacy_authoritative');
    expect(await source('/studios')).toBe('legacy_store');
    await stage('runtime_authoritative');
  });

  it('a delta picks up legacy edits, new rows and deletions', async () => {
    await legacy.sql`update studios set name = 'Renamed Studio', updated_at = now() where id = 3`;
    await legacy.sql`insert into studios (id, slug, name, city, state, country, lat, lng, status) values (100001, 'fresh', 'Fresh Ink', 'nyc', 'new york', 'USA', 40.71, -74.0, 'active')`;
    await legacy.sql`insert into deletions (table_name, row_id, deleted_at) values ('artists', 5, now())`;
    const s = await delta({ sql: stack.sql, legacy: reader });
    expect(s.kind).toBe('delta');
    const [renamed] = await stack.sql<{ name: string }[]>`select name from studios where '3' = any(legacy_ids)`;
    expect(renamed!.name).toBe('Renamed Studio');
    const [fresh] = await stack.sql<{ city: string; state: string; country: string }[]>`select city, state, country from studios where '100001' = any(legacy_ids)`;
    expect(fresh).toEqual({ city: 'New York', state: 'NY', country: 'US' });
    const [gone] = await stack.sql<{ recordState: string; visibility: string }[]>`select record_state, visibility from artists where id = 'art_lg_5'`;
    expect(gone).toEqual({ recordState: 'deprecated', visibility: 'private' });
    const [ledger] = await stack.sql<{ outcome: string; reason: string }[]>`select outcome, reason from cutover_ledger where source_table = 'artists' and source_key = '5'`;
    expect(ledger).toEqual({ outcome: 'rejected', reason: 'deleted_in_legacy' });
    // a second delta right after changes nothing (it may re-read rows of transactions still running when the first began)
    const before = await runtimeSnapshot(stack.sql, true);
    await delta({ sql: stack.sql, legacy: reader });
    expect(await runtimeSnapshot(stack.sql, true)).toBe(before);
  });

  it('a delta racing a long legacy transaction: what it commits after the delta began is picked up by the next delta', async () => {
    const [studio] = await stack.sql<{ key: string }[]>`
      select source_key as key from cutover_ledger where source_table = 'studios' and outcome = 'imported' and source_key::bigint > 3 order by source_key::bigint limit 1`;
    const [artist] = await stack.sql<{ key: string }[]>`
      select source_key as key from cutover_ledger where source_table = 'artists' and outcome = 'imported' order by source_key::bigint desc limit 1`;
    const writer = await legacy.sql.reserve();
    try {
      // updated_at and deleted_at are the writer's transaction start: before the delta begins
      await writer`begin`;
      await writer`update studios set name = 'Slow Writer Studio', updated_at = now() where id = ${studio!.key}::bigint`;
      await writer`insert into deletions (table_name, row_id) values ('artists', ${artist!.key}::bigint)`;
      await delta({ sql: stack.sql, legacy: reader }); // the change is not committed: not seen
      expect(await stack.sql`select 1 from studios where name = 'Slow Writer Studio'`).toHaveLength(0);
      await writer`commit`;
    } finally {
      writer.release();
    }
    await delta({ sql: stack.sql, legacy: reader });
    const [renamed] = await stack.sql<{ name: string }[]>`select name from studios where ${studio!.key} = any(legacy_ids)`;
    expect(renamed!.name).toBe('Slow Writer Studio');
    const [gone] = await stack.sql<{ recordState: string }[]>`select record_state from artists where id = ${`art_lg_${artist!.key}`}`;
    expect(gone!.recordState).toBe('deprecated');
  });

  it('after a run recorded without a transaction id, a delta re-reads every row; the deltas before left the store as a full pass does', async () => {
    await stack.sql`update cutover_runs set watermark_xid = null where finished_at is not null`;
    const before = await runtimeSnapshot(stack.sql, true);
    const s = await delta({ sql: stack.sql, legacy: reader });
    expect(s.rows).toEqual(await legacyCounts(reader));
    // a renamed studio's artists and a deleted artist's items were re-read with them
    expect(await runtimeSnapshot(stack.sql, true)).toBe(before);
  });
});

describe('without a legacy store', () => {
  it('the stage is runtime_authoritative and the notes say so, whatever stage is stored', async () => {
    const plain = await startTestStack({ worker: false, databaseUrl: stack.cfg.DATABASE_URL! });
    try {
      await stack.sql`insert into cutover_stage (stage, changed_by) values ('legacy_authoritative', 'test') on conflict (singleton) do update set stage = excluded.stage`;
      const { body } = await call(plain, '/health');
      expect(body.services.configuration.legacyDataUrl).toBe(false);
      expect(body.runtime).toMatchObject({ currentPersistence: 'postgresql', apiCutoverStage: 'runtime_authoritative', publicReadSurface: 'runtime_store' });
      expect(body.runtime.notes.join(' ')).toMatch(/No legacy store is configured/);
      expect((await call(plain, '/studios')).headers.get('x-read-source')).toBe('runtime_store');
    } finally {
      await plain.api.stop();
      await plain.sql.end();
    }
  });
});
