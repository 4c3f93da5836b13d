// Portfolio items and designs answered from the legacy store, and the legacy side of their shadow comparison.
import type { Sql } from '../../db';
import { offsetOf } from '../../directory/params';
import { legacyColumns, legacyKeyOf, mediaSource, sourceOf as src } from '../legacy-source';
import { normalizeMedia } from '../normalize-media';
import { designRecord, portfolioRecord, type DesignFilters } from '../../directory/media';
import { DESIGN_FIELDS, PORTFOLIO_FIELDS } from '../../directory/fields/media';
import { camelRow } from '../../directory/fields/table';
import { prefixQuery } from '../../directory/records';
import { mapStyles } from '../vocabulary';
import { LEGACY_INDEX_TTL_MS, type Raw } from './studios';
import { LISTED_ARTIST } from './artists';

// Public where the runtime's public projection would list the imported record: the legacy row is
// public with a known consent (designs are flash: consent not required), has an image URL, is not
// deleted, and its artist is imported. The image stays the legacy URL (no renditions).

type MediaKind = 'portfolio' | 'design';
const MEDIA_TABLE = { portfolio: 'portfolio_items', design: 'designs' } as const;
const MEDIA_PREFIX = { portfolio: 'pfa_lg_', design: 'dsg_lg_' } as const;
const MEDIA_FIELDS = { portfolio: PORTFOLIO_FIELDS, design: DESIGN_FIELDS } as const;
/** The public answer of each kind. */
interface MediaAnswer {
  portfolio: ReturnType<typeof portfolioRecord>;
  design: ReturnType<typeof designRecord>;
}

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

const MEDIA_COLS = (kind: MediaKind) => `m.id::text as id, m.artist_id::text as artist_id, ${legacyColumns(MEDIA_FIELDS[kind], 'm')}, m.created_at, m.updated_at`;

/** GET /portfolios or GET /designs from the legacy store, in the runtime's public shapes. */
export async function legacyListMedia<K extends MediaKind>(legacy: Sql, kind: K, f: DesignFilters, base: string): Promise<{ rows: MediaAnswer[K][]; total: number }> {
  const [rows, total] = await listMedia(legacy, kind, f);
  return { rows: rows.flatMap((r) => mediaRecordOf(r, kind, base)), total };
}

async function listMedia(legacy: Sql, kind: MediaKind, f: DesignFilters): Promise<[Raw[], number]> {
  if (kind === 'design' && f.public === false) return [[], 0];
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
  return [rows, count?.total ?? 0];
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

function mediaRecordOf<K extends MediaKind>(r: Raw, kind: K, base: string): MediaAnswer[K][] {
  const n = normalizeMedia({ ...mediaSource(r), createdAt: r.createdAt, updatedAt: r.updatedAt }, src(r.id), kind, { id: `art_lg_${r.artistId}`, studioId: null });
  if (!n.ok || !n.record.is_public) return [];
  const m = n.record;
  // as the runtime read: not featured, no renditions, no trust proof
  const row = {
    ...camelRow(m), featured: false, renditions: [], runtimeTrustProof: {}, createdAt: new Date(m.created_at),
    sourceCollectedAt: m.source_collected_at ? new Date(m.source_collected_at) : null,
  } as unknown as Parameters<typeof designRecord>[0];
  return [(kind === 'design' ? designRecord(row, base) : portfolioRecord(row, base)) as MediaAnswer[K]];
}
