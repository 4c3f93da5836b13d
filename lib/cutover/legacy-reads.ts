// Directory reads answered from the legacy store (stage legacy_authoritative) and the legacy side
// of a shadow comparison: legacy rows through the one normalization path, out in the runtime's
// API shapes (studioRecord, artistListItem), so a client cannot tell which store answered.
import type { Sql } from '../db';
import { artistDetail, artistListItem, type ArtistFilters, type ArtistRow } from '../directory/artists';
import { STUDIO_FIELDS } from '../directory/fields/studio';
import { camel } from '../directory/fields/table';
import { offsetOf } from '../directory/params';
import { likeContains } from '../directory/records';
import { studioRecord, type StudioFilters, type StudioRow } from '../directory/studios';
import { flatArray, legacyColumns, legacyKeyOf, sourceOf as src, studioSource } from './legacy-source';
import { normalizeArtist, normalizeMedia, normalizeStudio, type ArtistRecord, type StudioRecord } from './normalize';
import { designRecord, portfolioRecord, type DesignFilters } from '../directory/media';
import { prefixQuery } from '../directory/records';
import type { PriceRange } from '../directory/vocabulary';
import { mapStyles } from './vocabulary';

type Raw = Record<string, any>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The 5-point rating of a legacy row, in SQL (halved above 5, as the normalization does). */
const RATING = `(case when s.rating > 5 and s.rating <= 10 then s.rating / 2 when s.rating between 0 and 5 then s.rating else 0 end)`;
// the status read as the normalization reads it (placeKey: case, dots, commas and spaces do not matter)
const LISTED_STUDIO = `btrim(regexp_replace(lower(s.status), '[.,[:space:]]+', ' ', 'g')) = 'active' and btrim(s.name) <> '' and not exists (select 1 from deletions d where d.table_name = 'studios' and d.row_id = s.id)`;
// numerics come as text (num: beyond a double's range is ±Infinity, never a failed cast); arrays in one dimension
const STUDIO_COLS = `s.id::text as id, ${legacyColumns(STUDIO_FIELDS, 's')}, s.created_at, s.updated_at`;

function normalizedStudio(r: Raw): StudioRecord | null {
  const n = normalizeStudio(
    { ...studioSource(r), createdAt: r.createdAt, updatedAt: r.updatedAt },
    src(r.id),
  );
  return n.ok ? n.record : null;
}

/** A runtime row (the read modules' shape) of a normalized record. */
function studioRow(s: StudioRecord): StudioRow {
  const row = Object.fromEntries(Object.entries(s).map(([k, v]) => [camel(k), v]));
  return { ...row, distanceKm: null, sourceCollectedAt: s.source_collected_at ? new Date(s.source_collected_at) : null } as StudioRow;
}

// ---- what the raw legacy values normalize to ----
//
// A filter on a normalized value (city, state, price range, a runtime studio id, a specialty) is
// answered by the raw spellings that normalize to it: the distinct raw values are read once and put
// through the one normalization path, so the legacy store is filtered with `= any(raw spellings)`
// and the answer is what the runtime store, filled by the backfill, would give.

interface LegacyIndex {
  /** Runtime studio id (from the normalized name, address and city) -> the legacy ids behind it. */
  studioIds: Map<string, string[]>;
  /** Raw (city, state, country), each '' for null -> the normalized place. */
  places: { raw: [string, string, string]; city: string; state: string; country: string }[];
  /** Raw price_range -> its price range (null: unrecognized). */
  prices: Map<string, PriceRange | null>;
  /** Raw specialty -> the directory styles it maps to. */
  specialties: Map<string, string[]>;
}

/** How long a legacy index is used before it is read again (a legacy edit shows within this). */
export const LEGACY_INDEX_TTL_MS = 30_000;
const indexes = new WeakMap<Sql, { at: number; index: Promise<LegacyIndex> }>();

async function buildIndex(legacy: Sql): Promise<LegacyIndex> {
  const studioIds = new Map<string, string[]>();
  const places = new Map<string, LegacyIndex['places'][number]>();
  const prices = new Map<string, PriceRange | null>();
  const cursor = legacy<Raw[]>`select ${legacy.unsafe(STUDIO_COLS)} from studios s where ${legacy.unsafe(LISTED_STUDIO)}`.cursor(5000);
  for await (const batch of cursor) {
    for (const r of batch) {
      const rec = normalizedStudio(r);
      if (!rec) continue;
      studioIds.set(rec.id, [...(studioIds.get(rec.id) ?? []), r.id as string]);
      const raw: [string, string, string] = [r.city ?? '', r.state ?? '', r.country ?? ''];
      const key = raw.join('\u0001');
      if (!places.has(key)) places.set(key, { raw, city: rec.city, state: rec.state, country: rec.country });
      if (r.priceRange !== null && !prices.has(r.priceRange)) prices.set(r.priceRange, rec.price_range as PriceRange | null);
    }
  }
  const specialties = new Map<string, string[]>();
  for (const { v } of await legacy<{ v: string }[]>`select distinct unnest(a.specialties) as v from artists a`) if (v !== null) specialties.set(v, mapStyles([v]).styles);
  return { studioIds, places: [...places.values()], prices, specialties };
}

/** The index of the legacy store's raw values, read at most every LEGACY_INDEX_TTL_MS. */
export function legacyIndex(legacy: Sql, now = Date.now()): Promise<LegacyIndex> {
  const cached = indexes.get(legacy);
  if (cached && now - cached.at < LEGACY_INDEX_TTL_MS) return cached.index;
  const index = buildIndex(legacy);
  indexes.set(legacy, { at: now, index });
  index.catch(() => indexes.delete(legacy));
  return index;
}

/** The legacy store answers every filter of GET /studios (the normalized values through the index). */
export function legacyCanListStudios(_f: StudioFilters): boolean {
  return true;
}

/** Earth's radius as earthdistance's earth() has it (metres), so a legacy distance equals the runtime's. */
const EARTH_M = 6378168;
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return (2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(a)))) / 1000;
}

/** GET /studios from the legacy store: listed (active, not deleted) studios, normalized, one page. */
export async function legacyListStudios(legacy: Sql, f: StudioFilters) {
  const none = legacy``;
  const index = f.city || f.state || f.priceRange ? await legacyIndex(legacy) : undefined;
  const places = index?.places.filter((p) => (!f.city || p.city === f.city) && (!f.state || p.state === f.state)) ?? [];
  const priceRaws = index && f.priceRange ? [...index.prices].filter(([, p]) => p !== null && f.priceRange!.includes(p)).map(([raw]) => raw) : [];
  // a box around the point, on the stored pair and on the pair swapped (the normalization repairs swaps); the exact radius is applied after normalizing
  let box = none;
  if (f.geo) {
    const dLat = f.geo.radiusKm / 110 + 0.01;
    const cos = Math.cos((f.geo.latitude * Math.PI) / 180);
    const dLon = cos > 0.01 ? f.geo.radiusKm / (110 * cos) + 0.01 : 360;
    const [a, b, c, d] = [f.geo.latitude - dLat, f.geo.latitude + dLat, f.geo.longitude - dLon, f.geo.longitude + dLon];
    const lonOk = c >= -180 && d <= 180;
    box = lonOk
      ? legacy`and ((s.lat between ${a} and ${b} and s.lng between ${c} and ${d}) or (s.lng between ${a} and ${b} and s.lat between ${c} and ${d}))`
      : legacy`and (s.lat between ${a} and ${b} or s.lng between ${a} and ${b})`;
  }
  const where = legacy`where ${legacy.unsafe(LISTED_STUDIO)}
    ${f.search ? legacy`and lower(coalesce(s.name, '') || ' ' || coalesce(s.description, '') || ' ' || coalesce(s.city, '')) like ${likeContains(f.search)}` : none}
    ${f.rating !== undefined ? legacy`and ${legacy.unsafe(RATING)} >= ${f.rating}` : none}
    ${f.verified !== undefined ? legacy`and s.is_verified = ${f.verified}` : none}
    ${f.featured !== undefined ? legacy`and s.is_featured = ${f.featured}` : none}
    ${f.city || f.state ? legacy`and (coalesce(s.city, ''), coalesce(s.state, ''), coalesce(s.country, '')) in (select * from unnest(${places.map((p) => p.raw[0])}::text[], ${places.map((p) => p.raw[1])}::text[], ${places.map((p) => p.raw[2])}::text[]))` : none}
    ${f.priceRange ? legacy`and s.price_range = any(${priceRaws}::text[])` : none}
    ${box}`;
  if (f.geo) return legacyStudiosNear(legacy, { ...f, geo: f.geo }, where);
  const sorts = { rating: RATING, name: 'lower(btrim(s.name))', review_count: 'coalesce(s.reviews_count, 0)', created_at: 's.created_at', distance: RATING };
  const cap = f.totalCap ?? 10_000;
  const [rows, [count]] = await Promise.all([
    legacy<Raw[]>`select ${legacy.unsafe(STUDIO_COLS)} from studios s ${where}
      order by ${legacy.unsafe(sorts[f.sort])} ${legacy.unsafe(f.order === 'asc' ? 'asc' : 'desc')}, s.id asc limit ${f.limit + 1} offset ${offsetOf(f)}`,
    legacy<{ n: number }[]>`select count(*)::int as n from (select 1 from studios s ${where} limit ${cap + 1}) x`,
  ]);
  const records = rows.slice(0, f.limit).map(normalizedStudio).filter((r): r is StudioRecord => r !== null);
  const n = count?.n ?? 0;
  return { rows: records.map((r) => studioRecord(studioRow(r), false)), total: Math.min(n, cap), totalRelation: (n > cap ? 'gte' : 'eq') as 'eq' | 'gte', hasNext: rows.length > f.limit };
}

/**
 * GET /studios with a point: the boxed candidates normalized (swaps repaired, impossible pairs
 * dropped), the exact radius by the same great-circle distance as earth_distance, then sorted and
 * paged here (a radius holds few studios).
 */
async function legacyStudiosNear(legacy: Sql, f: StudioFilters & { geo: NonNullable<StudioFilters['geo']> }, where: ReturnType<Sql["unsafe"]>) {
  const g = f.geo;
  const rows = await legacy<Raw[]>`select ${legacy.unsafe(STUDIO_COLS)} from studios s ${where}`;
  const near = rows.flatMap((r) => {
    const rec = normalizedStudio(r);
    if (!rec || rec.latitude === null || rec.longitude === null) return [];
    const km = distanceKm(g.latitude, g.longitude, rec.latitude, rec.longitude);
    return km <= g.radiusKm ? [{ row: { ...studioRow(rec), distanceKm: km }, legacyId: BigInt(r.id as string), createdAt: (r.createdAt as Date | null)?.getTime() ?? 0 }] : [];
  });
  const key: Record<StudioFilters['sort'], (x: (typeof near)[number]) => number | string> = {
    rating: (x) => x.row.rating,
    name: (x) => x.row.name,
    review_count: (x) => x.row.reviewCount,
    created_at: (x) => x.createdAt,
    distance: (x) => x.row.distanceKm ?? 0,
  };
  const dir = f.order === 'asc' ? 1 : -1;
  near.sort((x, y) => {
    const [a, b] = [key[f.sort](x), key[f.sort](y)];
    return (a < b ? -dir : a > b ? dir : 0) || (x.legacyId < y.legacyId ? -1 : x.legacyId > y.legacyId ? 1 : 0);
  });
  const cap = f.totalCap ?? 10_000;
  const start = offsetOf(f);
  return {
    rows: near.slice(start, start + f.limit).map((x) => studioRecord(x.row, true)),
    total: Math.min(near.length, cap),
    totalRelation: (near.length > cap ? 'gte' : 'eq') as 'eq' | 'gte',
    hasNext: near.length > start + f.limit,
  };
}

/** Normalized legacy studios by legacy id (deleted or unlisted ones absent). */
export async function legacyStudiosById(legacy: Sql, ids: string[]): Promise<Map<string, StudioRecord>> {
  if (!ids.length) return new Map();
  const rows = await legacy<Raw[]>`select ${legacy.unsafe(STUDIO_COLS)} from studios s where s.id = any(${ids}::bigint[]) and ${legacy.unsafe(LISTED_STUDIO)}`;
  return new Map(rows.flatMap((r) => { const s = normalizedStudio(r); return s ? [[r.id as string, s] as const] : []; }));
}

// ---- artists ----

const ARTIST_COLS = `a.id::text as id, a.name, a.bio, ${flatArray('a.specialties')} as specialties, a.years_experience, a.hourly_rate, a.is_active, a.created_at, a.updated_at,
  s.id::text as s_id, s.name as s_name, s.description as s_description, s.address as s_address, s.city as s_city, s.state as s_state,
  s.country as s_country, s.lat as s_lat, s.lng as s_lng, s.price_range as s_price_range, s.rating as s_rating, s.reviews_count as s_reviews_count,
  ${flatArray('s.styles')} as s_styles, s.is_verified as s_is_verified, s.is_featured as s_is_featured, s.status as s_status, s.created_at as s_created_at,
  s.updated_at as s_updated_at, (${LISTED_STUDIO}) as s_listed`;
/** The years of experience as the normalization reads them (implausible or missing: 0), in SQL. */
const YEARS = '(case when a.years_experience between 0 and 80 then a.years_experience else 0 end)';
const LISTED_ARTIST = `btrim(a.name) <> '' and not exists (select 1 from deletions d where d.table_name = 'artists' and d.row_id = a.id)`;

function normalizedArtist(r: Raw): { record: ArtistRecord; row: ArtistRow } | null {
  let studio = null;
  if (r.sId) {
    const s: Raw = {};
    for (const [k, v] of Object.entries(r)) if (k.startsWith('s') && k !== 'sListed' && /^s[A-Z]/.test(k)) s[k[1]!.toLowerCase() + k.slice(2)] = v;
    const rec = normalizedStudio(s);
    studio = rec ? { id: rec.id, listed: r.sListed === true && rec.visibility === 'public' && rec.is_active } : null;
  }
  const n = normalizeArtist({ name: r.name, bio: r.bio, specialties: r.specialties, yearsExperience: num(r.yearsExperience), hourlyRate: num(r.hourlyRate), isActive: r.isActive, createdAt: r.createdAt, updatedAt: r.updatedAt }, src(r.id), studio ?? (r.sId ? 'not_imported' : null));
  if (!n.ok) return null;
  const a = n.record;
  // as the runtime read: the studio id only when the studio is listed
  const row: ArtistRow = { id: a.id, name: a.name, studioId: studio?.listed ? studio.id : null, bio: a.bio, specialties: a.specialties, yearsExperience: a.years_experience, hourlyRate: a.hourly_rate, isActive: a.is_active, createdAt: new Date(a.created_at) };
  return { record: a, row };
}

/** The legacy store answers every filter of GET /artists (studio_id and specialty through the index). */
export function legacyCanListArtists(_f: ArtistFilters): boolean {
  return true;
}

export async function legacyListArtists(legacy: Sql, f: ArtistFilters) {
  const none = legacy``;
  const index = f.studioId || f.specialty ? await legacyIndex(legacy) : undefined;
  const studioLegacyIds = f.studioId ? (index!.studioIds.get(f.studioId) ?? []) : [];
  const specialtyRaws = f.specialty ? [...index!.specialties].filter(([, styles]) => styles.includes(f.specialty!)).map(([raw]) => raw) : [];
  const where = legacy`where ${legacy.unsafe(LISTED_ARTIST)}
    ${f.studioId ? legacy`and a.studio_id = any(${studioLegacyIds}::bigint[])` : none}
    ${f.specialty ? legacy`and a.specialties && ${specialtyRaws}::text[]` : none}
    ${f.minExperience !== undefined ? legacy`and ${legacy.unsafe(YEARS)} >= ${f.minExperience}::numeric` : none}
    ${f.maxHourlyRate !== undefined ? legacy`and a.hourly_rate between 0 and ${f.maxHourlyRate}` : none}
    ${f.isActive !== undefined ? legacy`and a.is_active = ${f.isActive}` : none}
    ${f.search ? legacy`and lower(a.name || ' ' || coalesce(a.bio, '')) like ${likeContains(f.search)}` : none}`;
  const sorts = { name: 'lower(btrim(a.name))', years_experience: YEARS, hourly_rate: 'a.hourly_rate', created_at: 'a.created_at' };
  const [rows, [count]] = await Promise.all([
    legacy<Raw[]>`select ${legacy.unsafe(ARTIST_COLS)} from artists a left join studios s on s.id = a.studio_id ${where}
      order by ${legacy.unsafe(sorts[f.sortBy])} ${legacy.unsafe(f.sortOrder === 'asc' ? 'asc' : 'desc')} nulls last, a.id asc
      limit ${f.limit} offset ${offsetOf(f)}`,
    legacy<{ total: number }[]>`select count(*)::int as total from artists a ${where}`,
  ]);
  return { rows: rows.map(normalizedArtist).flatMap((a) => (a ? [artistListItem(a.row)] : [])), total: count?.total ?? 0 };
}

/** One legacy artist by runtime id (`art_lg_<legacy id>`), or null. */
export async function legacyFindArtist(legacy: Sql, id: string) {
  const key = legacyKeyOf(id, 'art_lg_');
  if (key === undefined) return null;
  const [r] = await legacy<Raw[]>`select ${legacy.unsafe(ARTIST_COLS)} from artists a left join studios s on s.id = a.studio_id where a.id = ${key}::bigint and ${legacy.unsafe(LISTED_ARTIST)}`;
  const a = r ? normalizedArtist(r) : null;
  return a ? artistDetail(a.row) : null;
}

/** Legacy artists by legacy id, in the detail shape. */
export async function legacyArtistsById(legacy: Sql, ids: string[]) {
  if (!ids.length) return new Map<string, ReturnType<typeof artistDetail>>();
  const rows = await legacy<Raw[]>`select ${legacy.unsafe(ARTIST_COLS)} from artists a left join studios s on s.id = a.studio_id where a.id = any(${ids}::bigint[]) and ${legacy.unsafe(LISTED_ARTIST)}`;
  return new Map(rows.flatMap((r) => { const a = normalizedArtist(r); return a ? [[r.id as string, artistDetail(a.row)] as const] : []; }));
}

// ---- portfolio items and designs ----
//
// Public where the runtime's public projection would list the imported record: the legacy row is
// public with a known consent (designs are flash: consent not required), has an image URL, is not
// deleted, and its artist is imported. The image stays the legacy URL (no renditions).

type MediaKind = 'portfolio' | 'design';
const MEDIA_TABLE = { portfolio: 'portfolio_items', design: 'designs' } as const;
const MEDIA_PREFIX = { portfolio: 'pfa_lg_', design: 'dsg_lg_' } as const;

interface MediaIndex {
  /** Raw style -> directory styles; raw tag -> the tag as normalized. */
  styles: Map<string, string[]>;
  tags: Map<string, string>;
}
const mediaIndexes = new WeakMap<Sql, { at: number; index: Promise<Record<MediaKind, MediaIndex>> }>();

async function buildMediaIndex(legacy: Sql): Promise<Record<MediaKind, MediaIndex>> {
  const one = async (kind: MediaKind): Promise<MediaIndex> => {
    const t = legacy(MEDIA_TABLE[kind]);
    const styles = new Map<string, string[]>();
    for (const { v } of await legacy<{ v: string }[]>`select distinct style as v from ${t} where style is not null`) styles.set(v, mapStyles([v]).styles);
    const tags = new Map<string, string>();
    for (const { v } of await legacy<{ v: string }[]>`select distinct unnest(tags) as v from ${t}`) {
      if (v === null) continue;
      const n = normalizeMedia({ title: null, description: null, imageUrl: 'https://x.invalid/', tags: [v], style: null, isPublic: false, consent: null, price: null, createdAt: null, updatedAt: null }, src('0'), kind, { id: 'x', studioId: null });
      if (n.ok && n.record.tags[0]) tags.set(v, n.record.tags[0]);
    }
    return { styles, tags };
  };
  return { portfolio: await one('portfolio'), design: await one('design') };
}

function mediaIndex(legacy: Sql, now = Date.now()) {
  const cached = mediaIndexes.get(legacy);
  if (cached && now - cached.at < LEGACY_INDEX_TTL_MS) return cached.index;
  const index = buildMediaIndex(legacy);
  mediaIndexes.set(legacy, { at: now, index });
  index.catch(() => mediaIndexes.delete(legacy));
  return index;
}

const MEDIA_COLS = (kind: MediaKind) =>
  `m.id::text as id, m.artist_id::text as artist_id, m.title, m.description, m.image_url, ${flatArray('m.tags')} as tags, m.style, m.is_public, ${kind === 'design' ? `'flash'` : 'm.consent'} as consent,
   ${kind === 'design' ? 'm.price' : 'null::numeric'} as price, m.created_at, m.updated_at, a.name as artist_name`;

/** GET /portfolios or GET /designs from the legacy store, in the runtime's public shapes. */
export async function legacyListMedia(legacy: Sql, kind: MediaKind, f: DesignFilters, base: string) {
  if (kind === 'design' && f.public === false) return { rows: [], total: 0 };
  const none = legacy``;
  const t = legacy(MEDIA_TABLE[kind]);
  const idx = f.styleId || f.tags ? (await mediaIndex(legacy))[kind] : undefined;
  const artist = f.artistId ? legacyKeyOf(f.artistId, 'art_lg_') : undefined;
  const styleRaws = idx && f.styleId ? [...idx.styles].filter(([, s]) => s.includes(f.styleId!)).map(([raw]) => raw) : [];
  const tagRaws = idx && f.tags ? [...idx.tags].filter(([, tag]) => f.tags!.includes(tag)).map(([raw]) => raw) : [];
  const words = f.search ? prefixQuery(f.search) : null;
  const where = legacy`
    where m.is_public and ${kind === 'portfolio' ? legacy`m.consent in ('client_consented', 'not_required')` : legacy`true`}
      and btrim(coalesce(m.image_url, '')) <> ''
      and not exists (select 1 from deletions d where d.table_name = ${MEDIA_TABLE[kind]} and d.row_id = m.id)
      and ${legacy.unsafe(LISTED_ARTIST)}
      ${f.artistId ? (artist ? legacy`and m.artist_id = ${artist}::bigint` : legacy`and false`) : none}
      ${f.styleId ? legacy`and m.style = any(${styleRaws}::text[])` : none}
      ${f.featured === true ? legacy`and false` : none}
      ${f.tags ? legacy`and m.tags && ${tagRaws}::text[]` : none}
      ${f.search !== undefined ? (words ? legacy`and to_tsvector('simple', coalesce(m.title, '') || ' ' || coalesce(m.description, '') || ' ' || coalesce(array_to_string(m.tags, ' '), '') || ' ' || coalesce(m.style, '')) @@ to_tsquery('simple', ${words})` : legacy`and false`) : none}
      ${f.minPrice !== undefined ? legacy`and m.price is not null and m.price >= ${f.minPrice}` : none}
      ${f.maxPrice !== undefined ? legacy`and m.price is not null and m.price <= ${f.maxPrice}` : none}`;
  const [rows, [count]] = await Promise.all([
    legacy<Raw[]>`select ${legacy.unsafe(MEDIA_COLS(kind))} from ${t} m join artists a on a.id = m.artist_id ${where}
      order by m.created_at desc, (${MEDIA_PREFIX[kind]} || m.id::text) asc limit ${f.limit} offset ${offsetOf(f)}`,
    legacy<{ total: number }[]>`select count(*)::int as total from ${t} m join artists a on a.id = m.artist_id ${where}`,
  ]);
  return { rows: rows.flatMap((r) => mediaRecordOf(r, kind, base)), total: count?.total ?? 0 };
}

/** Public legacy media by legacy id, in the public shape (ids not listed publicly are absent). */
export async function legacyMediaById(legacy: Sql, kind: MediaKind, ids: string[], base: string) {
  if (!ids.length) return new Map<string, Record<string, unknown>>();
  const t = legacy(MEDIA_TABLE[kind]);
  const rows = await legacy<Raw[]>`select ${legacy.unsafe(MEDIA_COLS(kind))} from ${t} m join artists a on a.id = m.artist_id
    where m.id = any(${ids}::bigint[]) and m.is_public and btrim(coalesce(m.image_url, '')) <> '' and ${legacy.unsafe(LISTED_ARTIST)}
      and not exists (select 1 from deletions d where d.table_name = ${MEDIA_TABLE[kind]} and d.row_id = m.id)`;
  return new Map(rows.flatMap((r) => mediaRecordOf(r, kind, base).map((rec) => [r.id as string, rec as Record<string, unknown>] as const)));
}

function mediaRecordOf(r: Raw, kind: MediaKind, base: string) {
  const n = normalizeMedia(
    { title: r.title, description: r.description, imageUrl: r.imageUrl, tags: r.tags, style: r.style, isPublic: r.isPublic, consent: r.consent, price: num(r.price), createdAt: r.createdAt, updatedAt: r.updatedAt },
    src(r.id),
    kind,
    { id: `art_lg_${r.artistId}`, studioId: null },
  );
  if (!n.ok) return [];
  const m = n.record;
  const row = {
    id: m.id, artistId: m.artist_id, studioId: m.studio_id, title: m.title, description: m.description, imageUrl: m.image_url, tags: m.tags, styleIds: m.style_ids,
    featured: false, isPublic: m.is_public, publishState: m.publish_state, rightsPosture: m.rights_posture, consentPosture: m.consent_posture, createdAt: new Date(m.created_at),
    renditions: [], price: m.price ?? null, runtimeTrustProof: {},
    recordState: m.record_state, sourceType: m.source_type, originAuthority: m.origin_authority, sourceUrl: m.source_url,
    sourceCollectedAt: m.source_collected_at ? new Date(m.source_collected_at) : null, licenseStatus: m.license_status, consentLevel: m.consent_level,
    sourceNotes: m.source_notes, verificationStatus: m.verification_status, approvalStatus: m.approval_status, visibility: m.visibility,
    culturalSensitivityLevel: m.cultural_sensitivity_level, trustNotes: m.trust_notes,
  };
  if (!m.is_public) return [];
  return [kind === 'design' ? designRecord(row, base) : portfolioRecord(row, base)];
}
