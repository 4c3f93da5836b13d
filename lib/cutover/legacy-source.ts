// Reading the legacy store in id order (keyset batches), each row with its soft-delete flag; only
// the rows a delta must re-read when it asks (Since). Rows come out in the normalization's source shapes.
import type { Sql } from '../db';
import type { Source, SourceArtist, SourceMedia, SourceStudio } from './normalize';

export const LEGACY_TABLES = ['studios', 'artists', 'portfolio_items', 'designs'] as const;
export type LegacyTable = (typeof LEGACY_TABLES)[number];
export const LEGACY_AUTHORITY = 'legacy_directory';

export interface LegacyRow<T> {
  id: string;
  deleted: boolean;
  source: Source;
  row: T;
  /** studios: none; artists: the legacy studio id; items and designs: the legacy artist id. */
  parentId: string | null;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const sourceOf = (id: string): Source => ({ type: 'legacy_store', authority: LEGACY_AUTHORITY, key: id, rank: Number(id) });

const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

/**
 * The legacy id in a runtime id built from it (`art_lg_<id>`, `pfa_lg_<id>`, `dsg_lg_<id>`): the id as
 * the legacy store prints it (a bigint, zero and negative ones included), or undefined when the text
 * after the prefix is not one (so it is never sent as a bigint the store would refuse).
 */
export function legacyKeyOf(runtimeId: string, prefix: string): string | undefined {
  if (!runtimeId.startsWith(prefix)) return undefined;
  const key = runtimeId.slice(prefix.length);
  if (!/^-?[0-9]{1,19}$/.test(key)) return undefined;
  const id = BigInt(key);
  return id >= BIGINT_MIN && id <= BIGINT_MAX && id.toString() === key ? key : undefined;
}

/**
 * An array column as one dimension without its NULL elements (a text[] may hold any number of
 * dimensions, any lower bound and NULLs; postgres.js would read a NULL element as the text "NULL").
 */
export const flatArray = (col: string) => `(case when ${col} is null then null else array(select e from unnest(${col}) e where e is not null) end)`;

// Numeric columns are read as text and turned into numbers here (Number): a value beyond a double's
// range reads as ±Infinity and the normalization treats it as unreadable, where `::float8` would fail.
const COLUMNS: Record<LegacyTable, string> = {
  studios: `name, description, address, city, state, country, lat, lng, price_range, rating, reviews_count, ${flatArray('styles')} as styles, is_verified, is_featured, status`,
  artists: `studio_id::text as parent_id, name, bio, ${flatArray('specialties')} as specialties, years_experience, hourly_rate, is_active`,
  portfolio_items: `artist_id::text as parent_id, title, description, image_url, ${flatArray('tags')} as tags, style, is_public, consent`,
  designs: `artist_id::text as parent_id, title, description, image_url, ${flatArray('tags')} as tags, style, is_public, 'flash' as consent, price`,
};

type Raw = Record<string, any>;

function convert(table: LegacyTable, r: Raw): LegacyRow<SourceStudio | SourceArtist | SourceMedia> {
  const common = { createdAt: r.createdAt as Date | null, updatedAt: r.updatedAt as Date | null };
  const row =
    table === 'studios'
      ? ({ name: r.name, description: r.description, address: r.address, city: r.city, state: r.state, country: r.country, lat: r.lat, lng: r.lng, priceRange: r.priceRange, rating: num(r.rating), reviewsCount: num(r.reviewsCount), styles: r.styles, isVerified: r.isVerified, isFeatured: r.isFeatured, status: r.status, ...common } satisfies SourceStudio)
      : table === 'artists'
        ? ({ name: r.name, bio: r.bio, specialties: r.specialties, yearsExperience: num(r.yearsExperience), hourlyRate: num(r.hourlyRate), isActive: r.isActive, ...common } satisfies SourceArtist)
        : ({ title: r.title, description: r.description, imageUrl: r.imageUrl, tags: r.tags, style: r.style, isPublic: r.isPublic, consent: r.consent, price: num(r.price), ...common } satisfies SourceMedia);
  return { id: String(r.id), deleted: r.deleted === true, source: sourceOf(String(r.id)), row, parentId: r.parentId ?? null };
}

/**
 * What a delta re-reads: every row written by a transaction that was still running, or not yet
 * begun, when the previous run began. `xid` is that run's snapshot xmin (the oldest transaction
 * then running, 64-bit, as text); a row counts when the transaction that wrote it (its xmin) is not
 * older. This holds whatever `updated_at` says and however long a writer's transaction lasts.
 * `xid` 0: every row.
 */
export interface Since {
  xid: string;
}

/**
 * The 64-bit id of the transaction that wrote row `alias` is at least `xid`: its 32-bit xmin placed in
 * the epoch of the current snapshot (a visible row's xmin is older than the snapshot's xmax and
 * within 2^31 of it); a frozen row (xmin below 3) counts as 0, older than any transaction. Needs
 * `cur` (XID_EPOCH) in scope.
 */
export function writtenSince(legacy: Sql, alias: string, xid: string) {
  const x = legacy.unsafe(`${alias}.xmin::text::bigint`);
  return legacy`((case when ${x} < 3 then 0 else cur.e + ${x} - (case when ${x} >= cur.l then 4294967296 else 0 end) end) >= ${xid}::bigint)`;
}
const XID_EPOCH = `(select c - (c & 4294967295) as e, c & 4294967295 as l from (select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as c) s) cur`;

function changedSince(legacy: Sql, table: LegacyTable, since: Since) {
  return legacy`and (${writtenSince(legacy, 'x', since.xid)} or exists (select 1 from deletions d where d.table_name = ${table} and d.row_id = x.id and ${writtenSince(legacy, 'd', since.xid)}))`;
}

/**
 * The next batch in id order: after `afterId`, or from the smallest id (negative ones included) when
 * it is null; with `since`, only the rows a delta re-reads (Since).
 */
export async function readBatch(legacy: Sql, table: LegacyTable, afterId: bigint | null, limit: number, since?: Since) {
  const t = legacy.unsafe(table);
  const deleted = legacy`exists (select 1 from deletions d where d.table_name = ${table} and d.row_id = x.id)`;
  const rows = await legacy<Raw[]>`
    select x.id::text as id, ${legacy.unsafe(COLUMNS[table])}, x.created_at, x.updated_at, ${deleted} as deleted
    from ${t} x cross join ${legacy.unsafe(XID_EPOCH)}
    where true ${afterId === null ? legacy`` : legacy`and x.id > ${afterId.toString()}::bigint`} ${since ? changedSince(legacy, table, since) : legacy``}
    order by x.id limit ${limit}`;
  return rows.map((r) => convert(table, r));
}

/** Row counts of the legacy tables (what the report must account for). */
export async function legacyCounts(legacy: Sql): Promise<Record<LegacyTable, number>> {
  const [r] = await legacy<{ s: number; a: number; p: number; d: number }[]>`
    select (select count(*) from studios)::int as s, (select count(*) from artists)::int as a,
      (select count(*) from portfolio_items)::int as p, (select count(*) from designs)::int as d`;
  return { studios: r!.s, artists: r!.a, portfolio_items: r!.p, designs: r!.d };
}

/** Rows listed in deletions since a run began (Since; their own row may be gone). */
export async function deletionsSince(legacy: Sql, since: Since): Promise<{ table: string; id: string }[]> {
  return legacy<{ table: string; id: string }[]>`
    select d.table_name as table, d.row_id::text as id from deletions d cross join ${legacy.unsafe(XID_EPOCH)} where ${writtenSince(legacy, 'd', since.xid)} order by 1, 2`;
}

/**
 * Where a run begins, in the legacy store: its clock, and the oldest transaction still running (the
 * snapshot's xmin) and the next one to start (xmax), as 64-bit ids in text.
 */
export async function legacyPosition(legacy: Sql): Promise<{ now: Date; xmin: string; xmax: string }> {
  const [r] = await legacy<{ now: Date; xmin: string; xmax: string }[]>`
    select now() as now, pg_snapshot_xmin(s)::text as xmin, pg_snapshot_xmax(s)::text as xmax from pg_current_snapshot() s`;
  return r!;
}
