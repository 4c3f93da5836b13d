import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, GEO_CENTRE, GEO_STUDIOS, haversineKm, seedTestDirectory } from '../helpers/directory-seed';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  await seedTestDirectory(stack);
});
afterAll(async () => stack?.stop());

const PUBLIC = `visibility = 'public' and is_active and record_state <> 'deprecated'`;
async function countWhere(extra: string, params: unknown[] = []): Promise<number> {
  const [r] = await stack.sql.unsafe<{ n: number }[]>(`select count(*)::int as n from studios where ${PUBLIC} ${extra}`, params as never[]);
  return r!.n;
}

describe('GET /studios (public, legacy wrapper)', () => {
  it('answers without a credential with data, pagination {page, limit, total, totalPages, hasNext, hasPrev}, totalRelation and error null', async () => {
    const { status, body } = await call(stack, '/studios');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['data', 'error', 'pagination', 'totalRelation']);
    expect(body.totalRelation).toBe('eq'); // the test directory is far below the cap
    expect(body.error).toBeNull();
    expect(Object.keys(body.pagination).sort()).toEqual(['hasNext', 'hasPrev', 'limit', 'page', 'total', 'totalPages']);
    const total = await countWhere('');
    expect(body.pagination).toEqual({ page: 1, limit: 20, total, totalPages: Math.ceil(total / 20), hasNext: true, hasPrev: false });
    expect(body.data).toHaveLength(20);
  });

  it('returns each studio with the fields of 2.6 and the provenance and trust blocks', async () => {
    const { body } = await call(stack, '/studios?limit=1');
    const s = body.data[0];
    for (const k of ['id', 'name', 'description', 'address', 'city', 'state', 'country']) expect(typeof s[k]).toBe('string');
    expect(typeof s.rating).toBe('number');
    expect(Number.isInteger(s.review_count)).toBe(true);
    expect(Array.isArray(s.specialties)).toBe(true);
    expect(typeof s.verified).toBe('boolean');
    expect(typeof s.featured).toBe('boolean');
    expect(Object.keys(s.provenance).sort()).toEqual(
      ['consentLevel', 'licenseStatus', 'originAuthority', 'recordState', 'sourceCollectedAt', 'sourceNotes', 'sourceType', 'sourceUrl'].sort(),
    );
    expect(Object.keys(s.trust).sort()).toEqual(['approvalStatus', 'culturalSensitivityLevel', 'trustNotes', 'verificationStatus', 'visibility'].sort());
    expect(s.trust.visibility).toBe('public');
    expect(['raw', 'normalized', 'curated', 'verified']).toContain(s.provenance.recordState);
  });

  it('sorts by rating descending by default, ties broken by id', async () => {
    const { body } = await call(stack, '/studios?limit=50');
    const keys = body.data.map((s: any) => [s.rating, s.id]);
    const sorted = [...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : 1));
    expect(keys).toEqual(sorted);
  });

  it('pages through every public studio exactly once, with hasNext and hasPrev telling the truth', async () => {
    const total = await countWhere('');
    const seen = new Set<string>();
    const pages = Math.ceil(total / 50);
    for (let page = 1; page <= pages; page++) {
      const { body } = await call(stack, `/studios?limit=50&page=${page}&sort=name`);
      expect(body.pagination.hasPrev).toBe(page > 1);
      expect(body.pagination.hasNext).toBe(page < pages);
      for (const s of body.data) seen.add(s.id);
    }
    expect(seen.size).toBe(total);
    const beyond = await call(stack, `/studios?limit=50&page=${pages + 1}`);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toMatchObject({ total, hasNext: false, hasPrev: true });
  });

  it('never lists private, inactive or deprecated studios', async () => {
    const ids = new Set<string>();
    for (let page = 1; page <= 10; page++) for (const s of (await call(stack, `/studios?limit=50&page=${page}`)).body.data) ids.add(s.id);
    for (const hidden of ['std_fx_private', 'std_fx_inactive', 'std_fx_deprecated']) expect(ids.has(hidden)).toBe(false);
    const { n } = (await stack.sql<{ n: number }[]>`select count(*)::int as n from studios where visibility <> 'public' and source_type = 'synthetic_seed'`)[0]!;
    expect(n).toBeGreaterThan(0); // the seed does produce hidden studios, and none of them is listed
  });

  it('filters by search over name, description or city (case-insensitive substring)', async () => {
    const { body } = await call(stack, '/studios?search=LOTUS&limit=50');
    expect(body.pagination.total).toBe(await countWhere(`and (name ilike '%lotus%' or description ilike '%lotus%' or city ilike '%lotus%')`));
    expect(body.pagination.total).toBeGreaterThan(0);
    for (const s of body.data) expect(`${s.name} ${s.description} ${s.city}`.toLowerCase()).toContain('lotus');
    const byCity = await call(stack, '/studios?search=geoville');
    expect(byCity.body.pagination.total).toBe(GEO_STUDIOS.length);
    expect((await call(stack, '/studios?search=' + encodeURIComponent('100%'))).body.pagination.total).toBe(0);
  });

  it('filters by exact city and state', async () => {
    const { city, state } = (await stack.sql<{ city: string; state: string }[]>`select city, state from studios where source_type = 'synthetic_seed' group by 1, 2 order by count(*) desc limit 1`)[0]!;
    const c = await call(stack, `/studios?city=${encodeURIComponent(city)}&limit=50`);
    expect(c.body.pagination.total).toBe(await countWhere('and city = $1', [city]));
    expect(c.body.data.every((s: any) => s.city === city)).toBe(true);
    const st = await call(stack, `/studios?state=${encodeURIComponent(state)}&limit=50`);
    expect(st.body.pagination.total).toBe(await countWhere('and state = $1', [state]));
    expect(st.body.data.every((s: any) => s.state === state)).toBe(true);
  });

  it('filters by a comma-separated price_range', async () => {
    const { body } = await call(stack, `/studios?price_range=${encodeURIComponent('$,$$$$')}&limit=50`);
    expect(body.pagination.total).toBe(await countWhere(`and price_range in ('$', '$$$$')`));
    expect(body.data.every((s: any) => s.price_range === '$' || s.price_range === '$$$$')).toBe(true);
  });

  it('filters by minimum rating, verified and featured', async () => {
    const r = await call(stack, '/studios?rating=4.5&limit=50');
    expect(r.body.pagination.total).toBe(await countWhere('and rating >= 4.5'));
    expect(r.body.data.every((s: any) => s.rating >= 4.5)).toBe(true);
    const v = await call(stack, '/studios?verified=false&limit=50');
    expect(v.body.pagination.total).toBe(await countWhere('and not verified'));
    expect(v.body.data.every((s: any) => s.verified === false)).toBe(true);
    const f = await call(stack, '/studios?featured=true&verified=true&limit=50');
    expect(f.body.pagination.total).toBe(await countWhere('and featured and verified'));
    expect(f.body.data.every((s: any) => s.featured && s.verified)).toBe(true);
  });

  it('finds exactly the studios within the radius, as a hand-computed haversine distance says', async () => {
    for (const radius of [2, 5, 10, 20, 50]) {
      const { body } = await call(stack, `/studios?latitude=${GEO_CENTRE.latitude}&longitude=${GEO_CENTRE.longitude}&radius=${radius}&limit=50`);
      const expected = GEO_STUDIOS.filter((g) => haversineKm(GEO_CENTRE, g) <= radius).map((g) => g.id).sort();
      expect(body.data.map((s: any) => s.id).sort()).toEqual(expected);
      for (const s of body.data) expect(s.distance_km).toBeCloseTo(haversineKm(GEO_CENTRE, s), 1);
    }
  });

  it('defaults the radius to 25 km and sorts by distance nearest first', async () => {
    const { body } = await call(stack, `/studios?latitude=${GEO_CENTRE.latitude}&longitude=${GEO_CENTRE.longitude}&sort=distance`);
    expect(body.data.map((s: any) => s.id)).toEqual(['std_geo_0', 'std_geo_3', 'std_geo_9', 'std_geo_15']);
    const far = await call(stack, `/studios?latitude=${GEO_CENTRE.latitude}&longitude=${GEO_CENTRE.longitude}&sort=distance&order=desc&radius=50`);
    expect(far.body.data[0].id).toBe('std_geo_40');
  });

  it('keeps nearest-first order across pages (index-ordered), the same as sorting every match', async () => {
    const base = `/studios?latitude=${GEO_CENTRE.latitude}&longitude=${GEO_CENTRE.longitude}&sort=distance&radius=50`;
    const all = (await call(stack, `${base}&limit=50`)).body.data.map((s: any) => s.id);
    const expected = GEO_STUDIOS.filter((g) => haversineKm(GEO_CENTRE, g) <= 50)
      .sort((a, b) => haversineKm(GEO_CENTRE, a) - haversineKm(GEO_CENTRE, b))
      .map((g) => g.id);
    expect(all).toEqual(expected);
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 3); page++) paged.push(...(await call(stack, `${base}&limit=3&page=${page}`)).body.data.map((s: any) => s.id));
    expect(paged).toEqual(all);
  });

  it('sorts by name, review_count and created_at in either order', async () => {
    const asc = await call(stack, '/studios?sort=name&limit=50');
    const names = asc.body.data.map((s: any) => s.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    const rc = await call(stack, '/studios?sort=review_count&order=asc&limit=50');
    const counts = rc.body.data.map((s: any) => s.review_count);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => a - b));
    const ca = await call(stack, '/studios?sort=created_at&limit=5');
    expect(ca.status).toBe(200);
  });

  it('honours limit up to its maximum of 50', async () => {
    expect((await call(stack, '/studios?limit=50')).body.data).toHaveLength(50);
    expect((await call(stack, '/studios?limit=1')).body.data).toHaveLength(1);
  });

  it.each([
    ['limit=0', 'query.limit'],
    ['limit=51', 'query.limit'],
    ['limit=abc', 'query.limit'],
    ['limit=', 'query.limit'],
    ['page=0', 'query.page'],
    ['page=1.5', 'query.page'],
    ['rating=6', 'query.rating'],
    ['rating=high', 'query.rating'],
    ['verified=maybe', 'query.verified'],
    ['featured=1', 'query.featured'],
    ['price_range=%24%24%24%24%24', 'query.price_range'],
    ['sort=popularity', 'query.sort'],
    ['order=sideways', 'query.order'],
    ['latitude=10', 'query.longitude'],
    ['longitude=10', 'query.latitude'],
    ['latitude=91&longitude=0', 'query.latitude'],
    ['latitude=0&longitude=0&radius=0', 'query.radius'],
    ['latitude=0&longitude=0&radius=501', 'query.radius'],
    ['radius=5', 'query.radius'],
    ['sort=distance', 'query.sort'],
    ['city=a&city=b', 'query.city'],
    ['colour=red', 'query'],
  ])('answers 400 validation_failed naming the parameter for %s', async (qs, path) => {
    const { status, body, headers } = await call(stack, `/studios?${qs}`);
    expect(status).toBe(400);
    expect(headers.get('content-type')).toContain('application/problem+json');
    expect(body.code).toBe('validation_failed');
    expect(body.errors.some((e: any) => e.path === path || e.path.startsWith(`${path}.`))).toBe(true);
  });
});
