// Backfill and delta: legacy rows -> normalization -> runtime records + ledger, batch by batch, each
// batch in one transaction with its checkpoint. A killed run resumes from its checkpoints; a
// finished one makes the next backfill a fresh pass whose upserts change nothing.
import type { Sql, Tx } from '../db';
import { deletionsSince, LEGACY_AUTHORITY, LEGACY_TABLES, legacyCounts, legacyNow, readBatch, type LegacyRow, type LegacyTable } from './legacy-source';
import { writeBatch } from './batch-writes';
import { normalizeArtist, normalizeMedia, normalizeStudio, normalizedSafely, type Normalized, type Source, type SourceArtist, type SourceMedia, type SourceStudio } from './normalize';
import { artistLinks, detach, studioLinks, upsertRecords, type RuntimeTable } from './runtime-writes';

export const RUNTIME_TABLE: Record<LegacyTable, RuntimeTable> = { studios: 'studios', artists: 'artists', portfolio_items: 'portfolio_assets', designs: 'designs' };

export interface RunOptions {
  sql: Sql;
  legacy: Sql;
  batchSize?: number;
  /** Image URLs may be plain http (outside production); else https only. */
  allowHttp?: boolean;
  onProgress?: (table: LegacyTable, done: number, total: number) => void;
}

export interface RunSummary {
  runId: number;
  kind: 'backfill' | 'delta';
  resumed: boolean;
  rows: Record<LegacyTable, number>;
  deletions: number;
  ms: number;
}

type AnyNormalized = Normalized<Parameters<typeof upsertRecords>[2][number]>;

/** The row's source with its rank from the id text: exact for every bigint (a Number is not above 2^53). */
const exactSource = (r: LegacyRow<unknown>): Source => ({ ...r.source, rank: BigInt(r.id) });

/** Normalize one batch of a legacy table, with the runtime links its rows need; each row on its own. */
async function normalizeBatch(tx: Tx, table: LegacyTable, rows: LegacyRow<unknown>[], allowHttp: boolean): Promise<AnyNormalized[]> {
  const parents = [...new Set(rows.map((r) => r.parentId).filter((p): p is string => p !== null))];
  if (table === 'studios') return rows.map((r) => normalizedSafely(() => normalizeStudio(r.row as SourceStudio, exactSource(r), r.deleted)));
  if (table === 'artists') {
    const links = await studioLinks(tx, LEGACY_AUTHORITY, parents);
    return rows.map((r) => normalizedSafely(() => normalizeArtist(r.row as SourceArtist, exactSource(r), r.parentId === null ? null : (links.get(r.parentId) ?? 'not_imported'), r.deleted)));
  }
  const links = await artistLinks(tx, LEGACY_AUTHORITY, parents);
  const kind = table === 'designs' ? 'design' : 'portfolio';
  return rows.map((r) => normalizedSafely(() => normalizeMedia(r.row as SourceMedia, exactSource(r), kind, r.parentId === null ? null : (links.get(r.parentId) ?? null), r.deleted, { allowHttp })));
}

async function checkpointOf(sql: Sql, runId: number, table: string) {
  const [cp] = await sql<{ lastId: string; rowsDone: string; done: boolean }[]>`
    select last_id::text, rows_done::text, done from cutover_checkpoints where run_id = ${runId} and table_name = ${table}`;
  return cp ? { lastId: BigInt(cp.lastId), rowsDone: Number(cp.rowsDone), done: cp.done } : { lastId: 0n, rowsDone: 0, done: false };
}

async function runTable(o: RunOptions, runId: number, table: LegacyTable, total: number, since?: Date): Promise<number> {
  const cp = await checkpointOf(o.sql, runId, table);
  if (cp.done) return cp.rowsDone;
  let { lastId, rowsDone } = cp;
  o.onProgress?.(table, rowsDone, total);
  const size = o.batchSize ?? 2000;
  // read the next batch while this one is written
  const prefetch = (after: bigint) => {
    const p = readBatch(o.legacy, table, after, size, since);
    p.catch(() => {}); // awaited below; a failure while a write is under way surfaces there
    return p;
  };
  let next = prefetch(lastId);
  for (;;) {
    const rows = await next;
    if (!rows.length) break;
    const last = BigInt(rows[rows.length - 1]!.id);
    next = prefetch(last);
    rowsDone += rows.length;
    await o.sql.begin(async (tx) => {
      const normalized = await normalizeBatch(tx, table, rows, o.allowHttp === true);
      await writeBatch(tx, LEGACY_AUTHORITY, table, RUNTIME_TABLE[table], rows.map((r, i) => ({ key: r.id, n: normalized[i]!, updatedAt: (r.row as { updatedAt: unknown }).updatedAt })));
      await tx`insert into cutover_checkpoints (run_id, table_name, last_id, rows_done) values (${runId}, ${table}, ${last.toString()}, ${rowsDone})
        on conflict (run_id, table_name) do update set last_id = excluded.last_id, rows_done = excluded.rows_done`;
    });
    lastId = last;
    o.onProgress?.(table, rowsDone, Math.max(total, rowsDone));
  }
  await o.sql`insert into cutover_checkpoints (run_id, table_name, last_id, rows_done, done) values (${runId}, ${table}, ${lastId.toString()}, ${rowsDone}, true)
    on conflict (run_id, table_name) do update set done = true, rows_done = excluded.rows_done`;
  o.onProgress?.(table, rowsDone, rowsDone);
  return rowsDone;
}

async function openRun(o: RunOptions, kind: 'backfill' | 'delta'): Promise<{ id: number; since: Date | undefined; resumed: boolean }> {
  const [open] = await o.sql<{ id: string; since: Date | null }[]>`
    select id::text, since from cutover_runs where kind = ${kind} and source = ${LEGACY_AUTHORITY} and finished_at is null order by id desc limit 1`;
  if (open) return { id: Number(open.id), since: open.since ?? undefined, resumed: true };
  let since: Date | undefined;
  if (kind === 'delta') {
    const [last] = await o.sql<{ watermark: Date | null }[]>`
      select max(watermark) as watermark from cutover_runs where source = ${LEGACY_AUTHORITY} and kind in ('backfill', 'delta') and finished_at is not null`;
    if (!last?.watermark) throw new Error('no finished backfill yet: run `npm run cutover -- backfill` first');
    since = last.watermark;
  }
  const watermark = await legacyNow(o.legacy);
  const [run] = await o.sql<{ id: string }[]>`
    insert into cutover_runs (kind, source, watermark, since) values (${kind}, ${LEGACY_AUTHORITY}, ${watermark}, ${since ?? null}) returning id::text`;
  return { id: Number(run!.id), since, resumed: false };
}

/** Soft deletes since `since` of rows the ledger still counts as imported: their records lose them. */
async function applyDeletions(o: RunOptions, since: Date): Promise<number> {
  const deleted = await deletionsSince(o.legacy, since);
  let n = 0;
  for (const table of LEGACY_TABLES) {
    const keys = deleted.filter((d) => d.table === table).map((d) => d.id);
    if (!keys.length) continue;
    await o.sql.begin(async (tx) => {
      const live = await tx<{ sourceKey: string; runtimeId: string }[]>`
        select source_key, runtime_id from cutover_ledger
        where origin_authority = ${LEGACY_AUTHORITY} and source_table = ${table} and source_key = any(${keys}::text[]) and outcome <> 'rejected'`;
      await detach(tx, RUNTIME_TABLE[table], live.map((l) => ({ runtimeId: l.runtimeId, key: l.sourceKey })));
      await tx`update cutover_ledger set outcome = 'rejected', reason = 'deleted_in_legacy', runtime_id = null, record_state = null
        where origin_authority = ${LEGACY_AUTHORITY} and source_table = ${table} and source_key = any(${live.map((l) => l.sourceKey)}::text[])`;
      n += live.length;
    });
  }
  return n;
}

async function run(o: RunOptions, kind: 'backfill' | 'delta'): Promise<RunSummary> {
  const started = Date.now();
  const r = await openRun(o, kind);
  const totals = kind === 'backfill' ? await legacyCounts(o.legacy) : { studios: 0, artists: 0, portfolio_items: 0, designs: 0 };
  const rows = { studios: 0, artists: 0, portfolio_items: 0, designs: 0 };
  // parents first: an artist links to its studio's record, an item to its artist's
  for (const table of LEGACY_TABLES) rows[table] = await runTable(o, r.id, table, totals[table], r.since);
  const deletions = r.since ? await applyDeletions(o, r.since) : 0;
  await o.sql`update cutover_runs set finished_at = now() where id = ${r.id}`;
  return { runId: r.id, kind, resumed: r.resumed, rows, deletions, ms: Date.now() - started };
}

/** Every legacy row into the runtime store (resumes an unfinished backfill). */
export const backfill = (o: RunOptions) => run(o, 'backfill');
/** Rows updated or soft-deleted since the last finished backfill or delta. */
export const delta = (o: RunOptions) => run(o, 'delta');
