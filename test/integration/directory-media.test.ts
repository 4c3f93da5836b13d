import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../lib/identity/permissions';
import { call, FX_TAG, GOVERNANCE_CASES, OTHER, OWNER, seedTestDirectory } from '../helpers/directory-seed';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let reader: TestCredential;
let owner: TestCredential;
let other: TestCredential;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  await seedTestDirectory(stack);
  reader = await apiKeyActor(stack, { permissions: ['portfolios:read', 'designs:read'] });
  owner = await bearerActor(stack, { permissions: ['owner_portfolio_assets:read'], artistScope: [OWNER.artistId] });
  other = await bearerActor(stack, { permissions: ['owner_portfolio_assets:read'], studioScope: [OTHER.studioId] });
});
afterAll(async () => stack?.stop());

const get = (path: string, who: TestCredential = reader) => call(stack, path, { headers: who.headers });
const ids = (body: any) => body.data.map((r: any) => r.id).sort();
const PUBLIC = `publish_state = 'published_public' and is_public and visibility = 'public' and record_state <> 'deprecated'
  and rights_posture in ('owner_attested', 'artist_attested') and consent_posture in ('client_consented', 'not_required')
  and license_status not in ('rights_disputed', 'rights_revoked', 'rights_restricted') and consent_level not in ('consent_withdrawn', 'no_consent')`;
async function n(table: 'portfolio_assets' | 'designs', where = ''): Promise<number> {
  const [r] = await stack.sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table} where ${PUBLIC} ${where}`);
  return r!.n;
}

describe('GET /portfolios (portfolios:read)', () => {
  it('wraps the list as success, data and pagination {page, limit, total, totalPages}', async () => {
    const { status, body } = await get('/portfolios');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['data', 'pagination', 'success']);
    const total = await n('portfolio_assets');
    expect(body.pagination).toEqual({ page: 1, limit: 20, total, totalPages: Math.ceil(total / 20) });
    expect((await get('/portfolios?limit=100')).body.data).toHaveLength(100);
  });

  it('lists assets with id, artist_id, title, image_url, renditions, tags, is_public, publish_state published_public, provenance and trust', async () => {
    const { body } = await get('/portfolios?limit=100');
    for (const a of body.data) {
      expect(Object.keys(a).sort()).toEqual(['artist_id', 'id', 'image_url', 'is_public', 'provenance', 'publish_state', 'renditions', 'tags', 'title', 'trust']);
      expect(a.publish_state).toBe('published_public');
      expect(a.is_public).toBe(true);
    }
  });

  it('lists only the published, rights-consistent fixture: drafts, private, owner-only and contradicting records never leak', async () => {
    const { body } = await get(`/portfolios?tags=${FX_TAG}&limit=100`);
    expect(ids(body)).toEqual(['pfa_fx_ok', 'pfa_fx_other_ok']);
    expect(Object.keys(GOVERNANCE_CASES)).toHaveLength(10);
    // the seed's own hidden records stay out too: the listed total equals the direct count of the rule
    expect((await get('/portfolios')).body.pagination.total).toBe(await n('portfolio_assets'));
  });

  it('filters by artist_id, style_id, featured and tags', async () => {
    expect(ids((await get(`/portfolios?artist_id=${OWNER.artistId}`)).body)).toEqual(['pfa_fx_ok']);
    const style = await get('/portfolios?style_id=Japanese&limit=100');
    expect(style.body.pagination.total).toBe(await n('portfolio_assets', `and 'japanese' = any(style_ids)`));
    const featured = await get('/portfolios?featured=true&limit=100');
    expect(featured.body.pagination.total).toBe(await n('portfolio_assets', 'and featured'));
    const tags = await get('/portfolios?tags=koi,rose&limit=100');
    expect(tags.body.pagination.total).toBe(await n('portfolio_assets', `and tags && '{koi,rose}'`));
    expect(tags.body.data.every((a: any) => a.tags.includes('koi') || a.tags.includes('rose'))).toBe(true);
  });
});

describe('GET /designs (designs:read)', () => {
  it('wraps the list like portfolios and adds description, price and runtime_trust_proof', async () => {
    const { body } = await get('/designs?limit=5');
    expect(body.pagination).toMatchObject({ page: 1, limit: 5, total: await n('designs') });
    expect(Object.keys(body.pagination).sort()).toEqual(['limit', 'page', 'total', 'totalPages']);
    for (const d of body.data) {
      expect(typeof d.runtime_trust_proof).toBe('object');
      expect(d.publish_state).toBe('published_public');
      expect(d).toHaveProperty('price');
    }
  });

  it('lists only the published, rights-consistent designs; public=false answers no records', async () => {
    expect(ids((await get(`/designs?tags=${FX_TAG}&limit=100`)).body)).toEqual(['dsg_fx_ok', 'dsg_fx_other_ok']);
    const none = await get('/designs?public=false');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination.total).toBe(0);
    expect((await get('/designs?public=true')).body.pagination.total).toBe(await n('designs'));
  });

  it('filters by search, min_price and max_price (only designs with a price), artist_id, style_id and tags', async () => {
    const s = await get('/designs?search=koi&limit=100');
    expect(s.body.pagination.total).toBeGreaterThan(0);
    expect(s.body.data.every((d: any) => /koi/i.test(`${d.title} ${d.description}`))).toBe(true);
    const price = await get('/designs?min_price=100&max_price=300&limit=100');
    expect(price.body.pagination.total).toBe(await n('designs', 'and price between 100 and 300'));
    expect(price.body.data.every((d: any) => d.price !== null && d.price >= 100 && d.price <= 300)).toBe(true);
    expect(ids((await get(`/designs?artist_id=${OTHER.artistId}`)).body)).toEqual(['dsg_fx_other_ok']);
    expect((await get('/designs?style_id=japanese&tags=koi')).status).toBe(200);
  });

  it.each([
    ['public=nope', 'query.public'],
    ['min_price=-5', 'query.min_price'],
    ['min_price=500&max_price=100', 'query.max_price'],
    ['limit=101', 'query.limit'],
    ['featured=maybe', 'query.featured'],
  ])('answers 400 validation_failed naming the parameter for %s', async (qs, path) => {
    const { status, body } = await get(`/designs?${qs}`);
    expect(status).toBe(400);
    expect(body.errors.map((e: any) => e.path)).toContain(path);
  });
});

describe('public writes are blocked', () => {
  const cases: [string, string, string][] = [];
  for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    cases.push([m, '/portfolios', 'GET, HEAD'], [m, '/portfolios/pfa_fx_ok', ''], [m, '/designs', 'GET, HEAD'], [m, '/designs/dsg_fx_ok', '']);
    cases.push([m, '/me/portfolio-assets', 'GET, HEAD'], [m, '/me/portfolio-assets/pfa_fx_ok', 'GET, HEAD'], [m, '/me/designs/dsg_fx_ok', 'GET, HEAD']);
  }
  it.each(cases)('%s %s answers 405 public_writes_blocked with Allow "%s", with or without a credential', async (method, path, allow) => {
    for (const headers of [{}, reader.headers]) {
      const { status, body, headers: h } = await call(stack, path, { method, headers });
      expect(status).toBe(405);
      expect(h.get('content-type')).toContain('application/problem+json');
      expect(body.code).toBe('public_writes_blocked');
      expect(h.get('allow')).toBe(allow);
    }
  });
});

describe('owner-scoped reads (owner_portfolio_assets:read)', () => {
  it('lists the owner\'s own assets including drafts, private and contradicting ones, and nothing else', async () => {
    const { status, body } = await get('/me/portfolio-assets?limit=100', owner);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(Object.keys(GOVERNANCE_CASES).map((c) => `pfa_fx_${c}`).sort());
    expect(body.pagination).toEqual({ page: 1, limit: 100, total: 10, totalPages: 1 });
    const draft = body.data.find((a: any) => a.id === 'pfa_fx_draft');
    expect(draft).toMatchObject({ publish_state: 'draft', is_public: false, visibility: 'private', source: 'runtime' });
  });

  it('scopes by studio too: the other owner sees only their own studio\'s records', async () => {
    expect(ids((await get('/me/portfolio-assets', other)).body)).toEqual(['pfa_fx_other_draft', 'pfa_fx_other_ok']);
    expect(ids((await get('/me/designs', other)).body)).toEqual(['dsg_fx_other_draft', 'dsg_fx_other_ok']);
  });

  it('reads one own record by id, and answers 404 for another owner\'s record exactly as for a missing one', async () => {
    const mine = await get('/me/portfolio-assets/pfa_fx_draft', owner);
    expect(mine.status).toBe(200);
    expect(mine.body.data.id).toBe('pfa_fx_draft');
    const design = await get('/me/designs/dsg_fx_owner_only', owner);
    expect(design.body.data).toMatchObject({ id: 'dsg_fx_owner_only', publish_state: 'owner_only', price: 200 });
    for (const path of ['/me/portfolio-assets/pfa_fx_other_draft', '/me/portfolio-assets/pfa_nope', '/me/designs/dsg_fx_other_ok']) {
      const r = await get(path, owner);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('not_found');
    }
  });

  it('answers an actor with no scope with an empty list', async () => {
    const scopeless = await apiKeyActor(stack, { permissions: ['owner_portfolio_assets:read'] });
    const { body } = await get('/me/portfolio-assets', scopeless);
    expect(body.data).toEqual([]);
    expect(body.pagination.total).toBe(0);
  });

  it('validates page and limit', async () => {
    const r = await get('/me/designs?limit=101', owner);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: any) => e.path)).toContain('query.limit');
  });
});

// The shared auth cases on every protected directory route.
const PROTECTED: [string, Permission][] = [
  ['/search', 'search:read'],
  ['/artists', 'artists:read'],
  [`/artists/${OWNER.artistId}`, 'artists:read'],
  ['/portfolios', 'portfolios:read'],
  ['/designs', 'designs:read'],
  ['/me/portfolio-assets', 'owner_portfolio_assets:read'],
  ['/me/portfolio-assets/pfa_fx_ok', 'owner_portfolio_assets:read'],
  ['/me/designs', 'owner_portfolio_assets:read'],
  ['/me/designs/dsg_fx_ok', 'owner_portfolio_assets:read'],
];
describe.each(PROTECTED)('auth on GET %s', (path, permission) => {
  it('answers 401 without a credential and with an invalid one', async () => {
    const none = await call(stack, path);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('unauthenticated');
    const bad = await call(stack, path, { headers: { authorization: 'Bearer not.a.jwt' } });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('invalid_credential');
  });

  it('answers 403 for a valid but unmapped credential and for a mapping without the permission', async () => {
    const unmapped = await bearerActor(stack, { mapped: false });
    expect((await call(stack, path, { headers: unmapped.headers })).body.code).toBe('actor_not_mapped');
    const wrong = await apiKeyActor(stack, { permissions: permission === 'search:read' ? ['designs:read'] : ['search:read'] });
    const denied = await call(stack, path, { headers: wrong.headers });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('permission_denied');
  });

  it(`answers 200 with ${permission}`, async () => {
    const ok = await apiKeyActor(stack, { permissions: [permission], artistScope: [OWNER.artistId] });
    expect((await call(stack, path, { headers: ok.headers })).status).toBe(200);
  });
});
