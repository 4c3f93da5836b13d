// Directory reads answered from the legacy store (stage legacy_authoritative) and the legacy side
// of a shadow comparison: legacy rows through the one normalization path, out in the runtime's
// API shapes (studioRecord, artistListItem), so a client cannot tell which store answered.
import type { Sql } from '../../db';
import { STUDIO_FIELDS } from '../../directory/fields/studio';
import { camelRow } from '../../directory/fields/table';
import { offsetOf } from '../../directory/params';
import { likeContains } from '../../directory/records';
import { studioRecord, type StudioFilters, type StudioRow } from '../../directory/studios';
import { legacyColumns, sourceOf as src, studioSource } from '../legacy-source';
import { normalizeStudio, type StudioRecord } from '../normalize';
import type { PriceRange } from '../../directory/vocabulary';
import { mapStyles } from '../vocabulary';


export type Raw = Record<string, any>;

/** The 5-point rating of a legacy row, in SQL (halved above 5, as the normalization does). */
const RATING = `(case when s.rating > 5 and s.rating <= 10 then s.rating / 2 when s.rating between 0 and 5 then s.rating else 0 end)`;
// the status read as the normalization reads it (placeKey: case, dots, commas and spaces do not matter)
export const LISTED_STUDIO = `btrim(regexp_replace(lower(s.status), '[.,[:space:]]+', ' ', 'g')) = 'active' and btrim(s.name) <> '' and not exists (select 1 from deletions d where d.table_name = 'studios' and d.row_id = s.id)`;
// numerics come as text (studioSource's num: beyond a double's range is ±Infinity, never a failed cast); arrays in one dimension
const STUDIO_COLS = `s.id::text as id, ${legacyColumns(STUDIO_FIELDS, 's')}, s.created_at, s.updated_at`;

export function normalizedStudio(r: Raw): StudioRecord | null {
  const n = normalizeStudio(
    { ...studioSource(r), createdAt: r.createdAt, updatedAt: r.updatedAt },
    src(r.id),
  );
  return n.ok ? n.record : null;
}

/** A runtime row (the read modules' shape) of a normalized record. */
function studioRow(s: StudioRecord): StudioRow {
  return { ...camelRow(s), distanceKm: null, sourceCollectedAt: s.source_collected_at ? new Date(s.source_collected_at) : null } as StudioRow;
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
