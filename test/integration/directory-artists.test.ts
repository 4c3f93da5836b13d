import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, OWNER, seedTestDirectory } from '../helpers/directory-seed';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let reader: TestCredential;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  await seedTestDirectory(stack);
  reader = await apiKeyActor(stack, { permissions: ['artists:read'] });
});
afterAll(async () => stack?.stop());

const artists = (qs = '') => call(stack, `/artists${qs ? `?${qs}` : ''}`, { headers: reader.headers });
const VISIBLE = `visibility = 'public' and record_state <> 'deprecated'`;
async function n(where: string, params: unknown[] = []): Promise<number> {
  const [r] = await stack.sql.unsafe<{ n: number }[]>(`select count(*)::int as n from artists where ${VISIBLE} ${where}`, params as never[]);
  return r!.n;
}

describe('GET /artists (artists:read)', () => {
  it('wraps the list as success, data and pagination {page, limit, total, pages}, 20 by default', async () => {
    const { status, body } = await artists();
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['data', 'pagination', 'success']);
    const total = await n('');
    expect(body.pagination).toEqual({ page: 1, limit: 20, total, pages: Math.ceil(total / 20) });
    expect(body.data).toHaveLength(20);
  });

  it('lists items with id, name, studio_id, specialties, is_active and created_at, sorted by name', async () => {
    const { body } = await artists('limit=100');
    const a = body.data[0];
    for (const k of ['id', 'name', 'studio_id', 'specialties', 'is_active', 'created_at']) expect(a).toHaveProperty(k);
    expect(Number.isNaN(Date.parse(a.created_at))).toBe(false);
    const names = body.data.map((x: any) => x.name);
    expect(names).toEqual([...names].sort((x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)));
    expect(body.data).toHaveLength(100);
  });

  it('filters by studio_id, specialty, min_experience, max_hourly_rate and is_active', async () => {
    const s = await artists(`studio_id=${OWNER.studioId}`);
    expect(s.body.data.map((a: any) => a.id)).toEqual([OWNER.artistId]); // the private artist of that studio stays out
    const sp = await artists('specialty=Realism&limit=100');
    expect(sp.body.pagination.total).toBe(await n(`and 'realism' = any(specialties)`));
    expect(sp.body.data.every((a: any) => a.specialties.includes('realism'))).toBe(true);
    const xp = await artists('min_experience=20&limit=100');
    expect(xp.body.pagination.total).toBe(await n('and years_experience >= 20'));
    expect(xp.body.data.every((a: any) => a.years_experience >= 20)).toBe(true);
    const rate = await artists('max_hourly_rate=120&limit=100');
    expect(rate.body.pagination.total).toBe(await n('and hourly_rate is not null and hourly_rate <= 120'));
    expect(rate.body.data.every((a: any) => a.hourly_rate !== null && a.hourly_rate <= 120)).toBe(true);
    const inactive = await artists('is_active=false&limit=100');
    expect(inactive.body.pagination.total).toBe(await n('and not is_active'));
    expect(inactive.body.data.every((a: any) => a.is_active === false)).toBe(true);
  });

  it('searches word prefixes in name, bio and specialties', async () => {
    const byName = await artists('search=owner%20fix');
    expect(byName.body.data.map((a: any) => a.id)).toEqual([OWNER.artistId]);
    const bySpecialty = await artists('search=biomech&limit=100');
    expect(bySpecialty.body.pagination.total).toBeGreaterThan(0);
    expect(bySpecialty.body.data.every((a: any) => a.specialties.includes('biomechanical') || /biomech/i.test(a.bio))).toBe(true);
    expect((await artists('search=%25%25')).body.pagination.total).toBe(0);
  });

  it.each(['name', 'years_experience', 'hourly_rate', 'created_at'])('sorts by %s in both orders', async (key) => {
    for (const order of ['asc', 'desc'] as const) {
      const { body } = await artists(`sort_by=${key}&sort_order=${order}&limit=100`);
      const values = body.data.map((a: any) => a[key]).filter((v: unknown) => v !== null);
      const sorted = [...values].sort((x: any, y: any) => (x < y ? -1 : x > y ? 1 : 0));
      expect(values).toEqual(order === 'asc' ? sorted : sorted.reverse());
    }
  });

  it('answers one artist by id with success and data, and 404 not_found for an unknown or private one', async () => {
    const { status, body } = await call(stack, `/artists/${OWNER.artistId}`, { headers: reader.headers });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ id: OWNER.artistId, name: 'Owner Fixture', studio_id: OWNER.studioId, specialties: ['japanese'], is_active: true });
    for (const id of ['art_nope', 'art_fx_private']) {
      const missing = await call(stack, `/artists/${id}`, { headers: reader.headers });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('not_found');
    }
  });

  it.each([
    ['POST', '/artists', 'GET, HEAD'],
    ['PUT', `/artists/${OWNER.artistId}`, 'GET, HEAD'],
    ['PATCH', `/artists/${OWNER.artistId}`, 'GET, HEAD'],
    ['DELETE', `/artists/${OWNER.artistId}`, 'GET, HEAD'],
  ])('answers %s %s with 405 public_writes_blocked and Allow', async (method, path, allow) => {
    const { status, body, headers } = await call(stack, path, { method, headers: reader.headers });
    expect(status).toBe(405);
    expect(body.code).toBe('public_writes_blocked');
    expect(headers.get('allow')).toBe(allow);
  });

  it.each([
    ['limit=101', 'query.limit'],
    ['limit=0', 'query.limit'],
    ['page=0', 'query.page'],
    ['min_experience=-1', 'query.min_experience'],
    ['max_hourly_rate=cheap', 'query.max_hourly_rate'],
    ['is_active=yes', 'query.is_active'],
    ['sort_by=rating', 'query.sort_by'],
    ['sort_order=random', 'query.sort_order'],
  ])('answers 400 validation_failed naming the parameter for %s', async (qs, path) => {
    const { status, body } = await artists(qs);
    expect(status).toBe(400);
    expect(body.errors.map((e: any) => e.path)).toContain(path);
  });
});

describe('artists of a studio the directory does not list', () => {
  // Public artists whose studio is private or deprecated: listed, but their studio stays hidden.
  const HIDDEN = [
    { id: 'art_hx_private_studio', studioId: 'std_fx_private' },
    { id: 'art_hx_deprecated_studio', studioId: 'std_fx_deprecated' },
  ];
  beforeAll(async () => {
    const rows = HIDDEN.map((h, i) => ({ id: h.id, studioId: h.studioId, name: `Quietude Hx${i}`, bio: 'Works quietly.', specialties: ['blackwork'], yearsExperience: 4, hourlyRate: 110, sourceType: 'test_fixture', visibility: 'public' }));
    await stack.sql`insert into artists ${stack.sql(rows as Record<string, any>[])}`;
  });

  it('answers studio_id null for such an artist in the list and by id, and the real studio_id for a listed one', async () => {
    const list = await artists('search=quietude&limit=100');
    expect(list.body.data.map((a: any) => [a.id, a.studio_id]).sort()).toEqual(HIDDEN.map((h) => [h.id, null]).sort());
    for (const h of HIDDEN) {
      const one = await call(stack, `/artists/${h.id}`, { headers: reader.headers });
      expect(one.status).toBe(200);
      expect(one.body.data.studio_id).toBeNull();
    }
    const owner = await call(stack, `/artists/${OWNER.artistId}`, { headers: reader.headers });
    expect(owner.body.data.studio_id).toBe(OWNER.studioId);
  });

  it.each(['std_fx_private', 'std_fx_deprecated', 'std_nope'])('finds no artist for studio_id=%s, as for an unknown studio', async (studioId) => {
    const r = await artists(`studio_id=${studioId}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.pagination.total).toBe(0);
  });
});
