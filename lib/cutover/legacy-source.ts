// Reading the legacy store in id order (keyset batches), each row with its soft-delete flag; only
// the rows a delta must re-read when it asks (delta-window.ts). Rows come out in the normalization's source shapes.
import type { Sql } from '../db';
import { STUDIO_FIELDS } from '../directory/fields/studio';
import { ARTIST_FIELDS } from '../directory/fields/artist';
import { DESIGN_FIELDS, PORTFOLIO_FIELDS } from '../directory/fields/media';
import { camel, type Field } from '../directory/fields/table';
import { changedSince, xidEpoch, type Since } from './delta-window';
import { LEGACY_AUTHORITY, type LegacyTable } from './legacy-tables';
import type { Source, SourceArtist, SourceMedia, SourceStudio } from './normalize';

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

/**
 * The legacy select of a field table: each field read from a legacy column (or its legacy
 * expression), under that column's name; with `prefix`, under the prefixed name (a joined table's).
 */
export const legacyColumns = (fields: readonly Field[], alias: string, prefix = '') =>
  fields
    .flatMap((f) => {
      if (f.legacy === null) return [];
      const expr = f.legacySelect ? f.legacySelect(alias) : f.sqlType === 'text[]' ? flatArray(`${alias}.${f.legacy}`) : `${alias}.${f.legacy}`;
      return [expr === `${alias}.${f.legacy}` && !prefix ? expr : `${expr} as ${prefix}${f.legacy}`];
    })
    .join(', ');

// Numeric columns are read as text and turned into numbers here (Number): a value beyond a double's
// range reads as ±Infinity and the normalization treats it as unreadable, where `::float8` would fail.
const COLUMNS: Record<LegacyTable, string> = {
  studios: legacyColumns(STUDIO_FIELDS, 'x'),
  artists: `x.studio_id::text as parent_id, ${legacyColumns(ARTIST_FIELDS, 'x')}`,
  portfolio_items: `x.artist_id::text as parent_id, ${legacyColumns(PORTFOLIO_FIELDS, 'x')}`,
  designs: `x.artist_id::text as parent_id, ${legacyColumns(DESIGN_FIELDS, 'x')}`,
};

type Raw = Record<string, any>;

const NUMERIC = new Set<Field['sqlType']>(['integer', 'numeric', 'float8']);
/**
 * A legacy row read by legacyColumns (camelCased) as the normalization reads it, its timestamps
 * aside: each field under its legacy column's name, numbers (read as text) as numbers.
 */
function sourceFields(fields: readonly Field[]): (r: Raw) => Raw {
  // (the names once per table: this runs for every legacy row)
  const read = fields.flatMap((f) => (f.legacy === null ? [] : [{ key: camel(f.legacy), numeric: NUMERIC.has(f.sqlType) }]));
  return (r) => {
    const out: Raw = {};
    for (const { key, numeric } of read) out[key] = numeric ? num(r[key]) : r[key];
    return out;
  };
}
type Untimed<S> = Omit<S, 'createdAt' | 'updatedAt'>;
const studioFields = sourceFields(STUDIO_FIELDS);
const artistFields = sourceFields(ARTIST_FIELDS);
const mediaFields = sourceFields(DESIGN_FIELDS);
export const studioSource = (r: Raw) => studioFields(r) as Untimed<SourceStudio>;
export const artistSource = (r: Raw) => artistFields(r) as Untimed<SourceArtist>;
/** Portfolio items and designs: the design's fields (an item has no price: it reads as absent). */
export const mediaSource = (r: Raw) => mediaFields(r) as Untimed<SourceMedia>;

/** What the normalization reads as an unreadable timestamp (lib/cutover/values.ts timestampOf). */
const UNREADABLE = 'unreadable';

function convert(table: LegacyTable, r: Raw): LegacyRow<SourceStudio | SourceArtist | SourceMedia> {
  // A timestamp the connection could not hold as a Date (±infinity, BC, beyond 9999) reads as null
  // there; the normalization is told it was unreadable, so the row's ledger entry notes it.
  const time = (v: Date | null, present: boolean) => v ?? (present ? UNREADABLE : null);
  const common = { createdAt: time(r.createdAt, r.createdAtPresent === true), updatedAt: time(r.updatedAt, r.updatedAtPresent === true) };
  const row =
    table === 'studios'
      ? ({ ...studioSource(r), ...common } satisfies SourceStudio)
      : table === 'artists'
        ? ({ ...artistSource(r), ...common } satisfies SourceArtist)
        : ({ ...mediaSource(r), ...common } satisfies SourceMedia);
  return { id: String(r.id), deleted: r.deleted === true, source: sourceOf(String(r.id)), row, parentId: r.parentId ?? null };
}

/**
 * The next batch in id order: after `afterId`, or from the smallest id (negative ones included) when
 * it is null; with `since`, only the rows a delta re-reads (Since).
 */
export async function readBatch(legacy: Sql, table: LegacyTable, afterId: bigint | null, limit: number, since?: Since) {
  const t = legacy.unsafe(table);
  const deleted = legacy`exists (select 1 from deletions d where d.table_name = ${table} and d.row_id = x.id)`;
  const rows = await legacy<Raw[]>`
    select x.id::text as id, ${legacy.unsafe(COLUMNS[table])}, x.created_at, x.updated_at,
      x.created_at is not null as created_at_present, x.updated_at is not null as updated_at_present, ${deleted} as deleted
    from ${t} x cross join ${xidEpoch(legacy)}
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
