import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, GEO_CENTRE, GEO_STUDIOS, haversineKm, seedTestDirectory } from '../helpers/directory-seed';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let reader: TestCredential;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  await seedTestDirectory(stack);
  reader = await apiKeyActor(stack, { permissions: ['search:read'] });
});
afterAll(async () => stack?.stop());

const search = (qs = '') => call(stack, `/search${qs ? `?${qs}` : ''}`, { headers: reader.headers });
const ids = (body: any) => body.data.results.map((r: any) => r.id);

const STUDIO_PUBLIC = `s.visibility = 'public' and s.is_active and s.record_state <> 'deprecated'`;
const ARTIST_PUBLIC = `a.visibility = 'public' and a.is_active and a.record_state <> 'deprecated'`;
const DESIGN_PUBLIC = `d.publish_state = 'published_public' and d.is_public and d.visibility = 'public' and d.record_state <> 'deprecated'
  and d.rights_posture in ('owner_attested', 'artist_attested') and d.consent_posture in ('client_consented', 'not_required')
  and d.license_status not in ('rights_disputed', 'rights_revoked', 'rights_restricted') and d.consent_level not in ('consent_withdrawn', 'no_consent')`;
async function n(query: string, params: unknown[] = []): Promise<number> {
  const [r] = await stack.sql.unsafe<{ n: number }[]>(query, params as never[]);
  return r!.n;
}

describe('GET /search (search:read)', () => {
  it('answers 401 without a credential and with a bad one, 403 unmapped and without search:read', async () => {
    expect((await call(stack, '/search')).status).toBe(401);
    expect((await call(stack, '/search', { headers: { 'x-api-key': 'tpk_notakey' } })).status).toBe(401);
    const unmapped = await apiKeyActor(stack, { mapped: false });
    expect((await call(stack, '/search', { headers: unmapped.headers })).body.code).toBe('actor_not_mapped');
    const other = await bearerActor(stack, { permissions: ['artists:read'] });
    const denied = await call(stack, '/search', { headers: other.headers });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('permission_denied');
  });

  it('wraps results as success, data {results, total, total_relation, pagination {page, limit, total_pages, has_next, has_prev}}, limit 20 by default', async () => {
    const { status, body } = await search();
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(['pagination', 'results', 'total', 'total_relation']);
    expect(body.data.total_relation).toBe('eq'); // the test directory is far below the cap
    expect(body.data.pagination).toEqual({
      page: 1,
      limit: 20,
      total_pages: Math.ceil(body.data.total / 20),
      has_next: true,
      has_prev: false,
    });
    expect(body.data.results).toHaveLength(20);
  });

  it('returns results with type, id, name, description, rating, review_count, verified, styles, specialties, location, relevance_score, provenance and trust', async () => {
    const { body } = await search('type=studio&q=tattoo&limit=1');
    const r = body.data.results[0];
    expect(Object.keys(r).sort()).toEqual(
      ['description', 'id', 'location', 'name', 'provenance', 'rating', 'relevance_score', 'review_count', 'specialties', 'styles', 'trust', 'type', 'verified'].sort(),
    );
    expect(r.type).toBe('studio');
    expect(Object.keys(r.location).sort()).toEqual(['city', 'country', 'state']);
    expect(typeof r.relevance_score).toBe('number');
    expect(r.relevance_score).toBeGreaterThan(0);
    expect(r.provenance).toHaveProperty('recordState');
    expect(r.trust).toHaveProperty('verificationStatus');
  });

  it('counts every visible studio, artist and design for type=all, and each type on its own', async () => {
    const studios = await n(`select count(*)::int as n from studios s where ${STUDIO_PUBLIC}`);
    const artists = await n(`select count(*)::int as n from artists a where ${ARTIST_PUBLIC}`);
    const designs = await n(`select count(*)::int as n from designs d where ${DESIGN_PUBLIC}`);
    expect((await search('type=studio')).body.data.total).toBe(studios);
    expect((await search('type=artist')).body.data.total).toBe(artists);
    expect((await search('type=design')).body.data.total).toBe(designs);
    expect((await search('type=all')).body.data.total).toBe(studios + artists + designs);
    for (const t of ['studio', 'artist', 'design']) {
      const { body } = await search(`type=${t}&limit=50`);
      expect(body.data.results.every((r: any) => r.type === t)).toBe(true);
    }
  });

  it('ranks an exact studio name first for q and orders by relevance_score', async () => {
    const { name } = (await stack.sql<{ name: string }[]>`select name from studios s where source_type = 'synthetic_seed' and visibility = 'public' and is_active and record_state <> 'deprecated' order by id limit 1`)[0]!;
    const { body } = await search(`q=${encodeURIComponent(name)}&limit=50`);
    expect(body.data.results[0].name).toBe(name);
    const scores = body.data.results.map((r: any) => r.relevance_score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
  });

  it('matches designs by words in their title and description', async () => {
    const { body } = await search('type=design&q=koi&limit=50');
    expect(body.data.total).toBeGreaterThan(0);
    for (const r of body.data.results) expect(`${r.name} ${r.description}`.toLowerCase()).toMatch(/koi/);
  });

  it('filters by city, state and country', async () => {
    const { city, state } = (await stack.sql<{ city: string; state: string }[]>`select city, state from studios where source_type = 'synthetic_seed' group by 1, 2 order by count(*) desc limit 1`)[0]!;
    const c = await search(`type=studio&city=${encodeURIComponent(city)}&limit=50`);
    expect(c.body.data.total).toBe(await n(`select count(*)::int as n from studios s where ${STUDIO_PUBLIC} and s.city = $1`, [city]));
    expect(c.body.data.results.every((r: any) => r.location.city === city)).toBe(true);
    const s = await search(`state=${encodeURIComponent(state)}&limit=50`);
    expect(s.body.data.results.every((r: any) => r.location.state === state)).toBe(true);
    const co = await search('type=studio&country=ZZ&limit=50');
    expect(co.body.data.results.every((r: any) => r.location.country === 'ZZ')).toBe(true);
    expect(co.body.data.total).toBe(await n(`select count(*)::int as n from studios s where ${STUDIO_PUBLIC} and s.country = 'ZZ'`));
  });

  it('finds exactly the studios within the radius (haversine), nearest first when only a point is given', async () => {
    const { body } = await search(`type=studio&latitude=${GEO_CENTRE.latitude}&longitude=${GEO_CENTRE.longitude}&radius=10`);
    const expected = GEO_STUDIOS.filter((g) => haversineKm(GEO_CENTRE, g) <= 10).map((g) => g.id);
    expect(ids(body)).toEqual(expected);
    for (const r of body.data.results) expect(r.distance_km).toBeLessThanOrEqual(10);
  });

  it('filters by styles and specialties (any of the listed values)', async () => {
    const st = await search('type=studio&styles=japanese,koi_fish&limit=50');
    expect(st.body.data.total).toBe(await n(`select count(*)::int as n from studios s where ${STUDIO_PUBLIC} and s.styles && '{japanese,koi_fish}'`));
    expect(st.body.data.results.every((r: any) => r.styles.includes('japanese'))).toBe(true);
    const sp = await search('type=studio&specialties=cover_ups&limit=50');
    expect(sp.body.data.results.every((r: any) => r.specialties.includes('cover_ups'))).toBe(true);
    expect(sp.body.data.total).toBe(await n(`select count(*)::int as n from studios s where ${STUDIO_PUBLIC} and 'cover_ups' = any(s.specialties)`));
  });

  it('applies min_rating (designs, which carry no rating, drop out) and verified_only', async () => {
    const { body } = await search('min_rating=4.8&limit=50');
    expect(body.data.results.every((r: any) => r.rating !== null && r.rating >= 4.8)).toBe(true);
    expect(body.data.results.some((r: any) => r.type === 'design')).toBe(false);
    const v = await search('verified_only=true&type=studio&limit=50');
    expect(v.body.data.results.every((r: any) => r.verified)).toBe(true);
    expect(v.body.data.total).toBe(await n(`select count(*)::int as n from studios s where ${STUDIO_PUBLIC} and s.verified`));
  });

  it('sorts by name, rating, review_count and created_at in the requested order', async () => {
    const names = ids((await search('type=studio&sort_by=name&limit=50')).body).length;
    expect(names).toBe(50);
    const byName = (await search('type=studio&sort_by=name&limit=50')).body.data.results.map((r: any) => r.name);
    expect(byName).toEqual([...byName].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    const byRating = (await search('type=artist&sort_by=rating&sort_order=asc&limit=50')).body.data.results.map((r: any) => r.rating);
    expect(byRating).toEqual([...byRating].sort((a: number, b: number) => a - b));
    const byReviews = (await search('type=studio&sort_by=review_count&limit=50')).body.data.results.map((r: any) => r.review_count);
    expect(byReviews).toEqual([...byReviews].sort((a: number, b: number) => b - a));
    expect((await search('sort_by=created_at&sort_order=asc')).status).toBe(200);
  });

  it('pages with page and limit up to the maximum of 50', async () => {
    const p1 = await search('type=studio&sort_by=name&limit=50&page=1');
    const p2 = await search('type=studio&sort_by=name&limit=50&page=2');
    expect(p2.body.data.pagination).toMatchObject({ page: 2, limit: 50, has_prev: true });
    expect(ids(p1.body).filter((id: string) => ids(p2.body).includes(id))).toEqual([]);
  });

  it('answers a page past the end with no results but the same total and facets', async () => {
    const first = await search('type=studio&include_facets=true');
    const past = await search('type=studio&include_facets=true&page=1000&limit=50');
    expect(past.status).toBe(200);
    expect(past.body.data.results).toEqual([]);
    expect(past.body.data.total).toBe(first.body.data.total);
    expect(past.body.data.total).toBeGreaterThan(0);
    expect(past.body.data.facets).toEqual(first.body.data.facets);
    expect(past.body.data.pagination).toMatchObject({ page: 1000, has_next: false, has_prev: true });
  });

  it('adds facet counts over the whole filtered set, equal to direct SQL counts, only when include_facets=true', async () => {
    expect((await search('type=studio')).body.data.facets).toBeUndefined();
    const { body } = await search('type=studio&include_facets=true&limit=1');
    const f = body.data.facets;
    expect(Object.keys(f).sort()).toEqual(['cities', 'countries', 'specialties', 'states', 'styles', 'types', 'verified']);
    const total = await n(`select count(*)::int as n from studios s where ${STUDIO_PUBLIC}`);
    expect(f.types).toEqual([{ value: 'studio', count: total }]);
    const cities = await stack.sql.unsafe(`select city as value, count(*)::int as count from studios s where ${STUDIO_PUBLIC} group by 1 order by 2 desc, 1 limit 20`);
    expect(f.cities).toEqual(cities.map((r: any) => ({ value: r.value, count: r.count })));
    const styles = await stack.sql.unsafe(`select v as value, count(*)::int as count from studios s, unnest(s.styles) v where ${STUDIO_PUBLIC} group by 1 order by 2 desc, 1 limit 20`);
    expect(f.styles).toEqual(styles.map((r: any) => ({ value: r.value, count: r.count })));
    const verified = await stack.sql.unsafe(`select verified as value, count(*)::int as count from studios s where ${STUDIO_PUBLIC} group by 1 order by 1 desc`);
    expect(f.verified).toEqual(verified.map((r: any) => ({ value: r.value, count: r.count })));
  });

  it('counts types in the facets of a mixed search as the direct counts do', async () => {
    const { body } = await search('styles=japanese&include_facets=true');
    const byType = Object.fromEntries(body.data.facets.types.map((t: any) => [t.value, t.count]));
    expect(byType.studio).toBe(await n(`select count(*)::int as n from studios s where ${STUDIO_PUBLIC} and 'japanese' = any(s.styles)`));
    expect(byType.artist).toBe(await n(`select count(*)::int as n from artists a where ${ARTIST_PUBLIC} and 'japanese' = any(a.styles)`));
    expect(byType.design).toBe(await n(`select count(*)::int as n from designs d where ${DESIGN_PUBLIC} and 'japanese' = any(d.style_ids)`));
    expect(body.data.total).toBe(byType.studio + byType.artist + byType.design);
  });

  it('never returns hidden studios, private artists or non-public designs', async () => {
    const all = await search('q=fixture&limit=50');
    const found = ids(all.body);
    for (const hidden of ['std_fx_private', 'std_fx_inactive', 'std_fx_deprecated', 'art_fx_private']) expect(found).not.toContain(hidden);
    const designs = ids((await search('type=design&styles=japanese&country=ZZ&limit=50')).body);
    expect(designs.filter((id: string) => id.startsWith('dsg_fx_')).sort()).toEqual(['dsg_fx_ok', 'dsg_fx_other_ok']);
  });

  it.each([
    ['type=band', 'query.type'],
    ['limit=0', 'query.limit'],
    ['limit=51', 'query.limit'],
    ['page=0', 'query.page'],
    ['min_rating=x', 'query.min_rating'],
    ['min_rating=5.5', 'query.min_rating'],
    ['verified_only=maybe', 'query.verified_only'],
    ['include_facets=yes', 'query.include_facets'],
    ['sort_by=popularity', 'query.sort_by'],
    ['sort_order=up', 'query.sort_order'],
    ['sort_by=distance', 'query.sort_by'],
    ['latitude=10', 'query.longitude'],
    ['styles=', 'query.styles'],
    ['q=', 'query.q'],
  ])('answers 400 validation_failed naming the parameter for %s', async (qs, path) => {
    const { status, body } = await search(qs);
    expect(status).toBe(400);
    expect(body.code).toBe('validation_failed');
    expect(body.errors.some((e: any) => e.path === path || e.path.startsWith(`${path}.`))).toBe(true);
  });
});
