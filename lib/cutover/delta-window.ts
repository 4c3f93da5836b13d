// The window a delta re-reads, in legacy transaction ids: every row (and deletion) written by a
// transaction not older than the oldest one running when the previous run began. Correct however
// long a legacy transaction runs and whatever it writes into updated_at (docs/cutover.md, Delta).
import type { Sql } from '../db';
import type { LegacyTable } from './legacy-tables';

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
 * `cur` (xidEpoch) in scope.
 */
export function writtenSince(legacy: Sql, alias: string, xid: string) {
  const x = legacy.unsafe(`${alias}.xmin::text::bigint`);
  return legacy`((case when ${x} < 3 then 0 else cur.e + ${x} - (case when ${x} >= cur.l then 4294967296 else 0 end) end) >= ${xid}::bigint)`;
}
/** `cur`: the current snapshot's xmax split into its epoch base (e) and its low 32 bits (l). */
export const xidEpoch = (legacy: Sql) =>
  legacy.unsafe('(select c - (c & 4294967295) as e, c & 4294967295 as l from (select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as c) s) cur');

/** Row `alias` of `table`, or its deletion entry, was written in the window. */
function rowWritten(legacy: Sql, table: LegacyTable, alias: string, xid: string) {
  const d = `${alias}_d`;
  return legacy`(${writtenSince(legacy, alias, xid)} or exists (select 1 from deletions ${legacy.unsafe(d)}
    where ${legacy.unsafe(d)}.table_name = ${table} and ${legacy.unsafe(d)}.row_id = ${legacy.unsafe(alias)}.id and ${writtenSince(legacy, d, xid)}))`;
}

/** The studio `studioId` (a column) or its deletion was written in the window. */
const studioOf = (legacy: Sql, studioId: string, xid: string) =>
  legacy`exists (select 1 from studios ps where ps.id = ${legacy.unsafe(studioId)} and ${rowWritten(legacy, 'studios', 'ps', xid)})`;

/**
 * Row x of `table` is re-read when it, or a row its record links through, was written in the
 * window: an artist's studio (its record may have moved or gone), an item's or a design's artist
 * and that artist's studio. So a delta leaves the store as a full pass would.
 */
export function changedSince(legacy: Sql, table: LegacyTable, since: Since) {
  const self = rowWritten(legacy, table, 'x', since.xid);
  if (table === 'studios') return legacy`and ${self}`;
  if (table === 'artists') return legacy`and (${self} or ${studioOf(legacy, 'x.studio_id', since.xid)})`;
  return legacy`and (${self} or exists (select 1 from artists pa where pa.id = x.artist_id
    and (${rowWritten(legacy, 'artists', 'pa', since.xid)} or ${studioOf(legacy, 'pa.studio_id', since.xid)})))`;
}

/** Rows listed in deletions since a run began (Since; their own row may be gone). */
export async function deletionsSince(legacy: Sql, since: Since): Promise<{ table: string; id: string }[]> {
  return legacy<{ table: string; id: string }[]>`
    select d.table_name as table, d.row_id::text as id from deletions d cross join ${xidEpoch(legacy)} where ${writtenSince(legacy, 'd', since.xid)} order by 1, 2`;
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
