// Backfill and delta: legacy rows -> normalization -> runtime records + ledger, batch by batch, each
// batch in one transaction with its checkpoint. A killed run resumes from its checkpoints; a
// finished one makes the next backfill a fresh pass whose upserts change nothing.
import type { Sql, Tx } from '../db';
import { writeBatch } from './batch-writes';
import { buildDeferredIndexes, deferredIndexes, startBulkLoad } from './deferred-indexes';
import { deletionsSince, legacyPosition, type Since } from './delta-window';
import { legacyCounts, readBatch, type LegacyRow } from './legacy-source';
import { LEGACY_AUTHORITY, LEGACY_TABLES, type LegacyTable } from './legacy-tables';
import { normalizeMedia } from './normalize-media';
import { normalizeArtist, normalizeStudio, normalizedSafely, type Normalized, type Source, type SourceArtist, type SourceMedia, type SourceStudio } from './normalize';
import { artistLinks, detach, studioLinks, upsertRecords, type RuntimeTable } from './runtime-writes';

export const RUNTIME_TABLE: Record<LegacyTable, RuntimeTable> = { studios: 'studios', artists: 'artists', portfolio_items: 'portfolio_assets', designs: 'designs' };

export interface RunOptions {
  sql: Sql;
  legacy: Sql;
  batchSize?: number;
  /** Image URLs may be plain http (outside production); else https only. */
  allowHttp?: boolean;
  onProgress?: (table: LegacyTable, done: number, total: number) => void;
  /** A backfill into an empty store loads in bulk (deferred-indexes.ts); false: row by row into the indexed tables. Default true. */
  bulk?: boolean;
  /** Lines about the run's phases (the deferred indexes, the search documents). */
  log?: (line: string) => void;
}

export interface RunSummary {
  runId: number;
  kind: 'backfill' | 'delta';
  resumed: boolean;
  rows: Record<LegacyTable, number>;
  deletions: number;
  ms: number;
  /** Indexes this run built at its end (a first backfill into an empty store defers them). */
  indexesBuilt: number;
}

type AnyNormalized = Normalized<Parameters<typeof upsertRecords>[2][number]>;

/** The row's source with its rank from the id text: exact for every bigint (a Number is not above 2^53). */
const exactSource = (r: LegacyRow<unknown>): Source => ({ ...r.source, rank: BigInt(r.id) });

/**
 * `rows.map(fn)` in slices, giving the event loop a turn between them: the batch being written
 * meanwhile sends its next statement when PostgreSQL answers, not after the whole map.
 */
async function mapInSlices<R, T>(rows: R[], fn: (r: R) => T, slice = 250): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < rows.length; i += slice) {
    if (i) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const r of rows.slice(i, i + slice)) out.push(fn(r));
  }
  return out;
}

/** Normalize one batch of a legacy table, with the runtime links its rows need; each row on its own. */
async function normalizeBatch(tx: Tx, table: LegacyTable, rows: LegacyRow<unknown>[], allowHttp: boolean): Promise<AnyNormalized[]> {
  const parents = [...new Set(rows.map((r) => r.parentId).filter((p): p is string => p !== null))];
  if (table === 'studios') return mapInSlices(rows, (r) => normalizedSafely(() => normalizeStudio(r.row as SourceStudio, exactSource(r), r.deleted)));
  if (table === 'artists') {
    const links = await studioLinks(tx, LEGACY_AUTHORITY, parents);
    return mapInSlices(rows, (r) => normalizedSafely(() => normalizeArtist(r.row as SourceArtist, exactSource(r), r.parentId === null ? null : (links.get(r.parentId) ?? 'not_imported'), r.deleted)));
  }
  const links = await artistLinks(tx, LEGACY_AUTHORITY, parents);
  const kind = table === 'designs' ? 'design' : 'portfolio';
  return mapInSlices(rows, (r) => normalizedSafely(() => normalizeMedia(r.row as SourceMedia, exactSource(r), kind, r.parentId === null ? null : (links.get(r.parentId) ?? null), r.deleted, { allowHttp })));
}

async function checkpointOf(sql: Sql, runId: number, table: string) {
  const [cp] = await sql<{ lastId: string | null; rowsDone: string; done: boolean }[]>`
    select last_id::text, rows_done::text, done from cutover_checkpoints where run_id = ${runId} and table_name = ${table}`;
  // no last id: nothing read yet (the first batch starts at the smallest id, zero and negative ones included)
  return cp ? { lastId: cp.lastId === null ? null : BigInt(cp.lastId), rowsDone: Number(cp.rowsDone), done: cp.done } : { lastId: null, rowsDone: 0, done: false };
}

async function runTable(o: RunOptions, runId: number, table: LegacyTable, total: number, since: Since | undefined, bulk: boolean): Promise<number> {
  const cp = await checkpointOf(o.sql, runId, table);
  if (cp.done) return cp.rowsDone;
  let { lastId, rowsDone }: { lastId: bigint | null; rowsDone: number } = cp;
  o.onProgress?.(table, rowsDone, total);
  const size = o.batchSize ?? 2000;
  // read and normalize the next batch while this one is written: the normalization (this process)
  // and the write (PostgreSQL) run side by side. A batch's links are to the parent table's records,
  // all written before this table began, so reading them outside the write's transaction sees the same.
  const prepare = (after: bigint | null) => {
    const p = readBatch(o.legacy, table, after, size, since).then(async (rows) => ({ rows, normalized: rows.length ? await normalizeBatch(o.sql, table, rows, o.allowHttp === true) : [] }));
    p.catch(() => {}); // awaited below; a failure while a write is under way surfaces there
    return p;
  };
  let next = prepare(lastId);
  for (;;) {
    const { rows, normalized } = await next;
    if (!rows.length) break;
    const last = BigInt(rows[rows.length - 1]!.id);
    next = prepare(last);
    rowsDone += rows.length;
    await o.sql.begin(async (tx) => {
      await writeBatch(tx, LEGACY_AUTHORITY, table, RUNTIME_TABLE[table], rows.map((r, i) => ({ key: r.id, n: normalized[i]!, updatedAt: (r.row as { updatedAt: unknown }).updatedAt })), { bulk });
      await tx`insert into cutover_checkpoints (run_id, table_name, last_id, rows_done) values (${runId}, ${table}, ${last.toString()}, ${rowsDone})
        on conflict (run_id, table_name) do update set last_id = excluded.last_id, rows_done = excluded.rows_done`;
    });
    lastId = last;
    o.onProgress?.(table, rowsDone, Math.max(total, rowsDone));
  }
  await o.sql`insert into cutover_checkpoints (run_id, table_name, last_id, rows_done, done) values (${runId}, ${table}, ${lastId === null ? null : lastId.toString()}, ${rowsDone}, true)
    on conflict (run_id, table_name) do update set done = true, rows_done = excluded.rows_done`;
  o.onProgress?.(table, rowsDone, rowsDone);
  return rowsDone;
}

interface OpenRun {
  id: number;
  since: Since | undefined;
  resumed: boolean;
  /** A bulk load (deferred-indexes.ts): the store was empty when the run began. */
  bulk: boolean;
}

async function openRun(o: RunOptions, kind: 'backfill' | 'delta'): Promise<OpenRun> {
  const [open] = await o.sql<{ id: string; sinceXid: string | null; bulkLoad: boolean }[]>`
    select id::text, since_xid::text, bulk_load from cutover_runs where kind = ${kind} and source = ${LEGACY_AUTHORITY} and finished_at is null order by id desc limit 1`;
  // a delta begun before runs recorded transaction ids re-reads every row
  if (open) return { id: Number(open.id), since: kind === 'delta' ? { xid: open.sinceXid ?? '0' } : undefined, resumed: true, bulk: open.bulkLoad };
  const at = await legacyPosition(o.legacy);
  let since: Since | undefined;
  let sinceTime: Date | null = null;
  if (kind === 'delta') {
    const [last] = await o.sql<{ watermark: Date; watermarkXid: string | null }[]>`
      select watermark, watermark_xid::text from cutover_runs
      where source = ${LEGACY_AUTHORITY} and kind in ('backfill', 'delta') and finished_at is not null and watermark is not null
      order by watermark desc, id desc limit 1`;
    if (!last) throw new Error('no finished backfill yet: run `npm run cutover -- backfill` first');
    // every row is re-read (xid 0) after a run recorded without a transaction id, or when the ids went
    // back (the store was restored into another cluster)
    const xid = last.watermarkXid;
    since = { xid: xid === null || BigInt(xid) > BigInt(at.xmax) ? '0' : xid };
    sinceTime = last.watermark;
  }
  const [run] = await o.sql<{ id: string }[]>`
    insert into cutover_runs (kind, source, watermark, watermark_xid, since, since_xid)
    values (${kind}, ${LEGACY_AUTHORITY}, ${at.now}, ${at.xmin}::bigint, ${sinceTime}, ${since?.xid ?? null}::bigint) returning id::text`;
  const id = Number(run!.id);
  const deferred = kind === 'backfill' && o.bulk !== false ? await startBulkLoad(o.sql, id, LEGACY_AUTHORITY, o.log) : null;
  if (deferred !== null) o.log?.(`the runtime store is empty: bulk load (${deferred} secondary indexes and the search documents are built at the end)`);
  return { id, since, resumed: false, bulk: deferred !== null };
}

/** Soft deletes since `since` of rows the ledger still counts as imported: their records lose them. */
async function applyDeletions(o: RunOptions, since: Since): Promise<number> {
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

/**
 * Every search document, in one statement per type (the function the triggers call, given every
 * record): what the batches' refreshes would have written, built once. The types are built side by
 * side, each on a connection of its own (their documents never overlap; the words they share are
 * inserted in word order by each, so one waits for the other, never both). Run again after a kill,
 * it rewrites nothing that is already right.
 */
async function buildSearchDocuments(o: RunOptions) {
  const t0 = performance.now();
  const types = [['studio', 'studios'], ['artist', 'artists'], ['design', 'designs']] as const;
  await Promise.all(types.map(([type, table]) => o.sql.unsafe(`select search_documents_refresh($1, array(select id from ${table} order by id))`, [type])));
  o.log?.(`search documents built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function run(o: RunOptions, kind: 'backfill' | 'delta'): Promise<RunSummary> {
  const started = Date.now();
  const r = await openRun(o, kind);
  // indexes another run deferred and never built (it was killed and this is not its resumption)
  let indexesBuilt = (await deferredIndexes(o.sql)).some((d) => d.runId !== r.id) ? await buildDeferredIndexes(o.sql, { log: o.log, concurrency: 2 }) : 0;
  const totals = kind === 'backfill' ? await legacyCounts(o.legacy) : { studios: 0, artists: 0, portfolio_items: 0, designs: 0 };
  const rows = { studios: 0, artists: 0, portfolio_items: 0, designs: 0 };
  // parents first: an artist links to its studio's record, an item to its artist's
  // A loaded table's deferred indexes are built while the next one loads (another connection; the
  // loads only read the tables before them, by primary key), and beside the search documents.
  const building: Promise<number>[] = [];
  const background = (p: Promise<number>) => {
    p.catch(() => {}); // awaited below: a failure there fails the run, whose next run builds what is left
    building.push(p);
  };
  for (const table of LEGACY_TABLES) {
    rows[table] = await runTable(o, r.id, table, totals[table], r.since, r.bulk);
    background(buildDeferredIndexes(o.sql, { log: o.log, tables: [RUNTIME_TABLE[table]] }));
  }
  const deletions = r.since ? await applyDeletions(o, r.since) : 0;
  if (r.bulk) await buildSearchDocuments(o);
  for (const n of await Promise.all(building)) indexesBuilt += n;
  indexesBuilt += await buildDeferredIndexes(o.sql, { log: o.log, concurrency: 2 });
  await o.sql`update cutover_runs set finished_at = now() where id = ${r.id}`;
  return { runId: r.id, kind, resumed: r.resumed, rows, deletions, ms: Date.now() - started, indexesBuilt };
}

/** Every legacy row into the runtime store (resumes an unfinished backfill). */
export const backfill = (o: RunOptions) => run(o, 'backfill');
/** Rows written or soft-deleted since the last finished backfill or delta began (Since: long legacy transactions included). */
export const delta = (o: RunOptions) => run(o, 'delta');
