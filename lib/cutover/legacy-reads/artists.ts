// Artists answered from the legacy store, and the legacy side of their shadow comparison.
import type { Sql } from '../../db';
import { artistDetail, artistListItem, type ArtistFilters, type ArtistRow } from '../../directory/artists';
import { ARTIST_FIELDS } from '../../directory/fields/artist';
import { STUDIO_FIELDS } from '../../directory/fields/studio';
import { camelRow } from '../../directory/fields/table';
import { offsetOf } from '../../directory/params';
import { likeContains } from '../../directory/records';
import { artistSource, legacyColumns, legacyKeyOf, sourceOf as src } from '../legacy-source';
import { normalizeArtist, type ArtistRecord } from '../normalize';
import { legacyIndex, LISTED_STUDIO, normalizedStudio, type Raw } from './studios';


// the artist's columns, then its studio's under s_ (as the studio legacy read selects them)
const ARTIST_COLS = `a.id::text as id, ${legacyColumns(ARTIST_FIELDS, 'a')}, a.created_at, a.updated_at,
  s.id::text as s_id, ${legacyColumns(STUDIO_FIELDS, 's', 's_')}, s.created_at as s_created_at, s.updated_at as s_updated_at, (${LISTED_STUDIO}) as s_listed`;
/** The years of experience as the normalization reads them (implausible or missing: 0), in SQL. */
const YEARS = '(case when a.years_experience between 0 and 80 then a.years_experience else 0 end)';
export const LISTED_ARTIST = `btrim(a.name) <> '' and not exists (select 1 from deletions d where d.table_name = 'artists' and d.row_id = a.id)`;

function normalizedArtist(r: Raw): { record: ArtistRecord; row: ArtistRow } | null {
  let studio = null;
  if (r.sId) {
    const s: Raw = {};
    for (const [k, v] of Object.entries(r)) if (k.startsWith('s') && k !== 'sListed' && /^s[A-Z]/.test(k)) s[k[1]!.toLowerCase() + k.slice(2)] = v;
    const rec = normalizedStudio(s);
    studio = rec ? { id: rec.id, listed: r.sListed === true && rec.visibility === 'public' && rec.is_active } : null;
  }
  const n = normalizeArtist({ ...artistSource(r), createdAt: r.createdAt, updatedAt: r.updatedAt }, src(r.id), studio ?? (r.sId ? 'not_imported' : null));
  if (!n.ok) return null;
  const a = n.record;
  // as the runtime read: the studio id only when the studio is listed
  const row = { ...camelRow(a), studioId: studio?.listed ? studio.id : null, createdAt: new Date(a.created_at) } as ArtistRow;
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
