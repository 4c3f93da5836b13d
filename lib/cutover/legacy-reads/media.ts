// Portfolio items and designs answered from the legacy store, and the legacy side of their shadow comparison.
import type { Sql } from '../../db';
import { offsetOf } from '../../directory/params';
import { flatArray, legacyKeyOf, sourceOf as src } from '../legacy-source';
import { normalizeMedia } from '../normalize-media';
import { designRecord, portfolioRecord, type DesignFilters } from '../../directory/media';
import { prefixQuery } from '../../directory/records';
import { mapStyles } from '../vocabulary';
import { LEGACY_INDEX_TTL_MS, num, type Raw } from './studios';
import { LISTED_ARTIST } from './artists';

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
