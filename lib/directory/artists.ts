// Artist profiles (contract 2.9, GET /artists and /artists/{id}).
import type { Sql } from '../db';
import { offsetOf, type Page } from './params';
import { direction, matchesWords, publicDirectoryWhere, type Direction } from './records';
import { ARTIST_FIELDS, ARTIST_SERVED } from './fields/artist';
import { runtimeColumns, servedOf, type RowOf } from './fields/table';

export const ARTIST_SORTS = ['name', 'years_experience', 'hourly_rate', 'created_at'] as const;
export type ArtistSort = (typeof ARTIST_SORTS)[number];

export interface ArtistFilters extends Page {
  studioId?: string | undefined;
  specialty?: string | undefined;
  minExperience?: number | undefined;
  maxHourlyRate?: number | undefined;
  isActive?: boolean | undefined;
  search?: string | undefined;
  sortBy: ArtistSort;
  sortOrder: Direction;
}

export type ArtistRow = RowOf<typeof ARTIST_FIELDS> & { id: string; createdAt: Date };

// studio_id comes from the joined studio, which is only joined when it is publicly listed: an
// artist of a private or deprecated studio answers studio_id null, and filtering by such a studio
// finds nothing (as for an unknown id), so a hidden studio cannot be discovered through its artists.
const COLUMNS = `a.id, ${runtimeColumns(ARTIST_FIELDS, 'a')}, a.created_at`;

/** artists a, with s: the artist's studio when it is publicly listed (else nulls). */
function fromArtists(sql: Sql) {
  return sql`artists a left join studios s on s.id = a.studio_id and ${publicDirectoryWhere(sql, 's')}`;
}

function where(sql: Sql, f: ArtistFilters) {
  const none = sql``;
  return sql`
    where ${publicDirectoryWhere(sql, 'a')}
    ${f.studioId ? sql`and s.id = ${f.studioId}` : none}
    ${f.specialty ? sql`and a.specialties @> ${[f.specialty]}::text[]` : none}
    ${f.minExperience !== undefined ? sql`and a.years_experience >= ${f.minExperience}::numeric` : none}
    ${f.maxHourlyRate !== undefined ? sql`and a.hourly_rate is not null and a.hourly_rate <= ${f.maxHourlyRate}` : none}
    ${f.isActive !== undefined ? sql`and a.is_active = ${f.isActive}` : none}
    ${f.search ? sql`and ${matchesWords(sql, 'a', f.search)}` : none}`;
}

export async function listArtists(sql: Sql, f: ArtistFilters) {
  const sorts = {
    name: sql`a.name`,
    years_experience: sql`a.years_experience`,
    hourly_rate: sql`a.hourly_rate`,
    created_at: sql`a.created_at`,
  };
  const [rows, [count]] = await Promise.all([
    sql<ArtistRow[]>`
      select ${sql.unsafe(COLUMNS)} from ${fromArtists(sql)}
      ${where(sql, f)}
      order by ${sorts[f.sortBy]} ${direction(sql, f.sortOrder)} nulls last, a.id asc
      limit ${f.limit} offset ${offsetOf(f)}`,
    sql<{ total: number }[]>`select count(*)::int as total from ${fromArtists(sql)} ${where(sql, f)}`,
  ]);
  return { rows: rows.map(artistListItem), total: count?.total ?? 0 };
}

export async function findArtist(sql: Sql, id: string) {
  const [row] = await sql<ArtistRow[]>`select ${sql.unsafe(COLUMNS)} from ${fromArtists(sql)} where a.id = ${id} and ${publicDirectoryWhere(sql, 'a')}`;
  return row ? artistDetail(row) : null;
}

/** List item (2.9) plus the two values the list sorts by. */
export function artistListItem(r: ArtistRow) {
  return { ...artistDetail(r), created_at: r.createdAt.toISOString() };
}

/** Detail (2.9) plus bio, years of experience and hourly rate. */
export function artistDetail(r: ArtistRow) {
  return { id: r.id, ...servedOf(ARTIST_FIELDS, r, ARTIST_SERVED) };
}
