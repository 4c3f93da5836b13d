// legacy_authoritative reads over the extreme values the legacy schema allows: ±infinity and
// out-of-range timestamps, bigint ids at both ends (and zero), int4 extremes, numerics beyond a
// double, NaN, NULL and multi-dimensional array elements, text that normalizes to nothing. Every
// public read answers 200 with sane records; ids stay exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLegacy } from '../../lib/cutover/connection';
import { backfill } from '../../lib/cutover/runs';
import { setStage, type Stage } from '../../lib/cutover/stage';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { call } from '../helpers/directory-seed';
import { createLegacyDatabase, type LegacyDb } from '../helpers/legacy';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';
let legacy: LegacyDb;
let stack: TestStack;
let key: TestCredential;

beforeAll(async () => {
  legacy = await createLegacyDatabase({ studios: 12, seed: 9 });
  await legacy.sql.unsafe(`
    insert into studios (id, slug, name, description, city, state, country, lat, lng, price_range, rating, reviews_count, styles, status, created_at, updated_at) values
      (${MAX}, 'edge-max', 'Edge Max Ink', '<b>&amp;</b>', 'Chicago', 'IL', 'US', 41.88, -87.63, '$$', 1e400, 2147483647, '{{"fine line",NULL},{NULL,"trad"}}', 'active', '-infinity', 'infinity'),
      (${MIN}, 'edge-min', 'Edge Min Ink', null, ' chicago ', 'illinois', 'USA', 41.89, -87.62, 'high end', 'NaN', -2147483648, '[0:1]={NULL,geometric}', 'ACTIVE', '4713-01-01 00:00:00+00 BC', '294276-12-31 23:59:59+00'),
      (0, 'edge-zero', 'Edge Zero Ink', '&#0;&#xFFFFFFFF;', 'Chicago', 'IL', 'US', 'NaN', 'Infinity', '$', 1e-400, 0, '{}', 'active', '0005-03-01 00:00:00+00', 'infinity'),
      (-1, 'edge-blank', '&nbsp;', null, 'Chicago', 'IL', 'US', 41.88, -87.63, null, null, null, null, 'active', now(), 'infinity'),
      (42, 'hostile', 'Hostile &lt;script&gt;alert(1)&lt;/script&gt; Ink', '&amp;lt;img src=x onerror=alert(1)&amp;gt;', 'Chicago', 'IL', 'US', 41.88, -87.63, '$', 4.5, 3, '{"&lt;b&gt;x&lt;/b&gt;"}', 'active', now(), now());
    insert into artists (id, studio_id, name, bio, specialties, years_experience, hourly_rate, created_at, updated_at) values
      (${MAX}, ${MAX}, 'Edge Max Artist', null, '{NULL,"fine line"}', 2147483647, 1e400, 'infinity', '-infinity'),
      (${MIN}, null, 'Edge Min Artist', '&bogus;', '{{a,NULL},{NULL,b}}', -2147483648, 'NaN', '-infinity', 'infinity'),
      (0, 0, 'Edge Zero Artist', '', '{}', 3, 'Infinity', '0005-03-01 00:00:00+00', now());
    insert into portfolio_items (id, artist_id, title, image_url, tags, style, is_public, consent, created_at, updated_at) values
      (${MAX}, ${MAX}, 'Edge piece', 'https://legacy.example/edge.jpg', '{NULL,"Koi"}', 'fine line', true, 'client_consented', 'infinity', 'infinity'),
      (43, 0, 'Script piece', 'javascript:alert(1)', '{}', null, true, 'client_consented', now(), now()),
      (44, 0, 'Data piece', 'data:text/html,<script>alert(1)</script>', '{}', null, true, 'client_consented', now(), now()),
      (45, 0, 'VB piece', 'vbscript:msgbox(1)', '{}', null, true, 'client_consented', now(), now());
    insert into designs (id, artist_id, title, image_url, tags, price, is_public, created_at, updated_at) values
      (${MIN}, ${MIN}, 'Edge flash', 'https://legacy.example/flash.jpg', '{{koi,NULL},{rose,NULL}}', 1e400, true, '-infinity', 'infinity'),
      (0, 0, 'Zero flash', 'https://legacy.example/zero.jpg', null, 'NaN', true, '294276-12-31 23:59:59+00', now())`);
  stack = await startTestStack({ worker: false, env: { LEGACY_DATA_URL: legacy.url, CUTOVER_SHADOW_SAMPLE_RATE: '0', LOG_LEVEL: 'warn' } });
  key = await apiKeyActor(stack, { permissions: ['artists:read', 'portfolios:read', 'designs:read'] });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await legacy?.drop();
});

async function ok(path: string) {
  const r = await call(stack, path, { headers: key.headers });
  expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 400)}`).toBe(200);
  expect(r.headers.get('x-read-source'), path).toBe('legacy_store');
  return r.body;
}

const isoOrNull = (v: unknown) => v === null || (typeof v === 'string' && !Number.isNaN(Date.parse(v)));

describe('legacy_authoritative over every value the legacy schema allows', () => {
  it('GET /studios: every page, the city, price and radius filters and every sort answer 200 with sane records', async () => {
    const seen: any[] = [];
    for (let page = 1; ; page++) {
      const body = await ok(`/studios?limit=5&page=${page}&sort=name&order=asc`);
      seen.push(...body.data);
      if (!body.pagination.hasNext) break;
    }
    const edge = seen.filter((s) => s.name.startsWith('Edge'));
    expect(edge.map((s) => s.name).sort()).toEqual(['Edge Max Ink', 'Edge Min Ink', 'Edge Zero Ink']);
    for (const s of seen) {
      expect(s.rating).toBeGreaterThanOrEqual(0);
      expect(s.rating).toBeLessThanOrEqual(5);
      expect(Number.isInteger(s.review_count) && s.review_count >= 0).toBe(true);
      expect(isoOrNull(s.provenance.sourceCollectedAt)).toBe(true);
      expect(s.styles.every((x: unknown) => typeof x === 'string' && x !== '')).toBe(true);
    }
    const max = edge.find((s) => s.name === 'Edge Max Ink');
    expect(max).toMatchObject({ rating: 0, review_count: 2147483647, styles: ['fine_line', 'traditional'], description: '&' });
    expect(max.provenance.sourceCollectedAt).toBeNull(); // updated_at = infinity: unknown
    const min = edge.find((s) => s.name === 'Edge Min Ink');
    expect(min).toMatchObject({ city: 'Chicago', state: 'IL', country: 'US', price_range: '$$$$', rating: 0, review_count: 0, styles: ['geometric'] });
    const zero = edge.find((s) => s.name === 'Edge Zero Ink');
    expect(zero).toMatchObject({ latitude: null, longitude: null, rating: 0 });

    for (const sort of ['rating', 'name', 'review_count', 'created_at'])
      for (const order of ['asc', 'desc']) expect((await ok(`/studios?sort=${sort}&order=${order}&limit=50`)).data.length).toBe(seen.length);
    const city = await ok('/studios?city=Chicago&limit=50');
    expect(city.data.map((s: any) => s.name)).toEqual(expect.arrayContaining(['Edge Max Ink', 'Edge Min Ink', 'Edge Zero Ink']));
    expect((await ok('/studios?price_range=$$$$&state=IL&limit=50')).data.map((s: any) => s.name)).toContain('Edge Min Ink');
    const near = await ok('/studios?latitude=41.88&longitude=-87.63&radius=10&sort=distance&limit=50');
    expect(near.data.map((s: any) => s.name)).toEqual(expect.arrayContaining(['Edge Max Ink', 'Edge Min Ink']));
    expect(near.data.every((s: any) => Number.isFinite(s.distance_km))).toBe(true);
    for (const sort of ['rating', 'name', 'review_count', 'created_at']) await ok(`/studios?latitude=41.88&longitude=-87.63&radius=10&sort=${sort}`);
  });

  it('GET /artists, /artists/{id}: bigint ids exact at both ends and zero, timestamps a Date cannot hold read as unknown', async () => {
    const all = await ok('/artists?limit=100');
    const ids = all.data.map((a: any) => a.id);
    expect(ids).toEqual(expect.arrayContaining([`art_lg_${MAX}`, `art_lg_${MIN}`, 'art_lg_0']));
    for (const a of all.data) expect(isoOrNull(a.created_at), a.id).toBe(true);
    const max = all.data.find((a: any) => a.id === `art_lg_${MAX}`);
    expect(max).toMatchObject({ specialties: ['fine_line'], years_experience: 0, hourly_rate: null });
    expect(max.studio_id).toMatch(/^std_lg_/);
    expect(all.data.find((a: any) => a.id === `art_lg_${MIN}`)).toMatchObject({ specialties: ['a', 'b'], years_experience: 0, hourly_rate: null, bio: '&bogus;' });
    for (const sortBy of ['name', 'years_experience', 'hourly_rate', 'created_at'])
      for (const order of ['asc', 'desc']) expect((await ok(`/artists?limit=100&sort_by=${sortBy}&sort_order=${order}`)).data.length).toBe(all.data.length);
    await ok(`/artists?studio_id=${max.studio_id}&specialty=fine_line&max_hourly_rate=100000`);
    for (const id of [MAX, MIN, '0']) expect((await ok(`/artists/art_lg_${id}`)).data.id).toBe(`art_lg_${id}`);
    // not a legacy id: an unknown artist, never a bigint the legacy store refuses
    for (const id of ['9223372036854775808', '-9223372036854775809', '9999999999999999999', '007', '-0'])
      expect((await call(stack, `/artists/art_lg_${id}`, { headers: key.headers })).status, id).toBe(404);
  });

  it('GET /portfolios and /designs list the edge items with sane fields', async () => {
    const items = await ok('/portfolios?limit=100');
    const piece = items.data.find((p: any) => p.id === `pfa_lg_${MAX}`);
    expect(piece).toMatchObject({ artist_id: `art_lg_${MAX}`, tags: ['koi'] });
    expect((await ok(`/portfolios?artist_id=art_lg_${MAX}&tags=koi`)).data.map((p: any) => p.id)).toEqual([`pfa_lg_${MAX}`]);
    expect((await ok('/portfolios?artist_id=art_lg_99999999999999999999')).data).toEqual([]);
    const designs = await ok('/designs?limit=100');
    const ids = designs.data.map((d: any) => d.id);
    expect(ids).toEqual(expect.arrayContaining([`dsg_lg_${MIN}`, 'dsg_lg_0']));
    for (const d of designs.data) expect(d.price === null || Number.isFinite(d.price), d.id).toBe(true);
    expect(designs.data.find((d: any) => d.id === `dsg_lg_${MIN}`).tags.sort()).toEqual(['koi', 'rose']);
    await ok('/designs?tags=koi&min_price=0&search=edge');
  });
});

/** What must never reach a public read: live markup, or an image URL that runs script. */
const HOSTILE = /<\s*(script|img|b)\b|javascript:|vbscript:|data:text\/html/i;
const PATHS = ['/studios?limit=50', '/studios?limit=50&page=2', '/studios?city=chicago&limit=50', '/studios?latitude=41.88&longitude=-87.63&radius=10&sort=distance&limit=50', '/artists?limit=100', '/portfolios?limit=100', '/designs?limit=100'];

describe('the same store backfilled, in every stage', () => {
  it('every public read answers 200, and none carries markup or a script URL', async () => {
    const reader = openLegacy(legacy.url);
    try {
      await backfill({ sql: stack.sql, legacy: reader, batchSize: 50 });
    } finally {
      await reader.end();
    }
    for (const stage of ['shadow_reads', 'runtime_authoritative', 'legacy_authoritative'] as Stage[]) {
      await setStage(stack.sql, stage, 'test');
      await eventually(async () => (await call(stack, '/health')).body.runtime.apiCutoverStage === stage, 10_000, 100);
      for (const path of PATHS) {
        const r = await call(stack, path, { headers: key.headers });
        expect(r.status, `${stage} ${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
        expect(JSON.stringify(r.body), `${stage} ${path}`).not.toMatch(HOSTILE);
      }
      const names: string[] = [];
      for (const page of [1, 2]) names.push(...((await call(stack, `/studios?limit=50&page=${page}`, { headers: key.headers })).body.data as { name: string }[]).map((s) => s.name));
      // Its name, entity-encoded markup in the legacy store, is served as text without the markup.
      expect(names.filter((n) => n.startsWith('Hostile')), stage).toEqual([expect.stringMatching(/^Hostile [^<>]*Ink$/)]);
    }
  });
});
