// A seeded directory for the read tests: the synthetic generator (small, fixed seed) plus
// hand-made fixtures whose answers are known: a geo cluster far from every seeded city, and
// portfolio assets / designs in every governance state the public reads must keep out.
import type { Sql } from '../../lib/db';
import { seedDirectory } from '../../scripts/seed/directory';
import type { TestStack } from './stack';

export const SEEDED_STUDIOS = 300;
export const SEED = 7;

/** Centre of the geo cluster: open country in central Africa, ~1000 km from any seeded city. */
export const GEO_CENTRE = { latitude: 10.0, longitude: 20.0 };

/** Studios placed at known offsets north of (and east of) the centre. */
export const GEO_STUDIOS = [
  { id: 'std_geo_0', latitude: 10.0, longitude: 20.0 },
  { id: 'std_geo_3', latitude: 10.027, longitude: 20.0 }, // ~3.0 km north
  { id: 'std_geo_9', latitude: 10.0, longitude: 20.0822 }, // ~9.0 km east
  { id: 'std_geo_15', latitude: 10.1349, longitude: 20.0 }, // ~15.0 km north
  { id: 'std_geo_40', latitude: 10.36, longitude: 20.0 }, // ~40 km north
] as const;

export const OWNER = { studioId: 'std_fx_owner', artistId: 'art_fx_owner' };
export const OTHER = { studioId: 'std_fx_other', artistId: 'art_fx_other' };
/** Tag carried by every governance fixture, so a list filtered by it shows exactly what leaks. */
export const FX_TAG = 'fxgovernance';

/** Governance fixtures: only `ok` may ever appear in a public read. */
export const GOVERNANCE_CASES = {
  ok: {},
  draft: { publishState: 'draft', isPublic: false, visibility: 'private' },
  private: { publishState: 'private', isPublic: false, visibility: 'private' },
  owner_only: { publishState: 'owner_only', isPublic: false, visibility: 'owner_only' },
  flagged_not_public: { isPublic: false },
  rights_review: { rightsPosture: 'review_required' },
  consent_review: { consentPosture: 'review_required' },
  license_disputed: { licenseStatus: 'rights_disputed' },
  consent_withdrawn: { consentLevel: 'consent_withdrawn' },
  deprecated: { recordState: 'deprecated' },
} as const;
export type GovernanceCase = keyof typeof GOVERNANCE_CASES;

function studio(id: string, o: Partial<Record<string, unknown>> = {}) {
  return {
    id,
    name: `Fixture ${id}`,
    description: 'A fixture studio.',
    address: '1 Test Road',
    city: 'Fixtureville',
    state: 'FX',
    country: 'ZZ',
    latitude: -45.0, // mid South Atlantic: away from the geo cluster and every seeded city
    longitude: -30.0,
    priceRange: '$$',
    rating: 4.5,
    reviewCount: 10,
    styles: ['japanese'],
    specialties: ['custom_design'],
    verified: true,
    featured: false,
    isActive: true,
    visibility: 'public',
    recordState: 'curated',
    sourceType: 'test_fixture',
    ...o,
  };
}

function media(id: string, artistId: string, studioId: string, o: Partial<Record<string, unknown>>) {
  return {
    id,
    artistId,
    studioId,
    title: `fixture ${id}`,
    description: 'fixture media',
    imageUrl: `https://images.test.invalid/${id}.jpg`,
    tags: [FX_TAG],
    styleIds: ['japanese'],
    featured: false,
    isPublic: true,
    publishState: 'published_public',
    visibility: 'public',
    rightsPosture: 'artist_attested',
    consentPosture: 'client_consented',
    licenseStatus: 'artist_attested',
    consentLevel: 'client_consented',
    recordState: 'curated',
    sourceType: 'test_fixture',
    ...o,
  };
}

/** Rows for sql(rows): postgres.js types the helper per literal shape; these are plain records. */
const rows = (xs: object[]) => xs as Record<string, any>[];

export async function seedTestDirectory(sqlOrStack: Sql | TestStack) {
  const sql = 'sql' in sqlOrStack ? sqlOrStack.sql : sqlOrStack;
  const seeded = await seedDirectory(sql, { studios: SEEDED_STUDIOS, seed: SEED });
  await sql`insert into studios ${sql(rows([
    ...GEO_STUDIOS.map((g) => studio(g.id, { latitude: g.latitude, longitude: g.longitude, city: 'Geoville', state: 'GV' })),
    studio(OWNER.studioId),
    studio(OTHER.studioId),
    studio('std_fx_private', { visibility: 'private' }),
    studio('std_fx_inactive', { isActive: false }),
    studio('std_fx_deprecated', { recordState: 'deprecated' }),
  ]))}`;
  // sql(rows) takes its columns from the first row: every row names the same keys
  await sql`insert into artists ${sql(rows([
    { id: OWNER.artistId, studioId: OWNER.studioId, name: 'Owner Fixture', bio: 'Owns fixtures.', specialties: ['japanese'], yearsExperience: 7, hourlyRate: 150, sourceType: 'test_fixture', visibility: 'public' },
    { id: OTHER.artistId, studioId: OTHER.studioId, name: 'Other Fixture', bio: 'Owns other fixtures.', specialties: ['realism'], yearsExperience: 3, hourlyRate: null, sourceType: 'test_fixture', visibility: 'public' },
    { id: 'art_fx_private', studioId: OWNER.studioId, name: 'Private Fixture', bio: 'Hidden.', specialties: ['japanese'], yearsExperience: 1, hourlyRate: 90, sourceType: 'test_fixture', visibility: 'private' },
  ]))}`;
  const cases = Object.entries(GOVERNANCE_CASES) as [GovernanceCase, Record<string, unknown>][];
  await sql`insert into portfolio_assets ${sql(rows([
    ...cases.map(([name, o]) => media(`pfa_fx_${name}`, OWNER.artistId, OWNER.studioId, o)),
    media('pfa_fx_other_ok', OTHER.artistId, OTHER.studioId, {}),
    media('pfa_fx_other_draft', OTHER.artistId, OTHER.studioId, GOVERNANCE_CASES.draft),
  ]))}`;
  await sql`insert into designs ${sql(rows([
    ...cases.map(([name, o]) => ({ ...media(`dsg_fx_${name}`, OWNER.artistId, OWNER.studioId, o), price: 200 })),
    { ...media('dsg_fx_other_ok', OTHER.artistId, OTHER.studioId, {}), price: 300 },
    { ...media('dsg_fx_other_draft', OTHER.artistId, OTHER.studioId, GOVERNANCE_CASES.draft), price: 300 },
  ]))}`;
  return seeded;
}

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** One request against /api/v1 of the stack. */
export async function call(stack: TestStack, path: string, o: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const res = await fetch(`${stack.url}/api/v1${path}`, { method: o.method ?? 'GET', headers: o.headers ?? {} });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Great-circle distance in km (haversine, mean Earth radius 6371 km), computed by hand. */
export function haversineKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}
