// One batch of normalized source rows into the runtime store and the ledger. A row the runtime store
// refuses (a value beyond a column's range, a check constraint) does not stop the batch: the batch
// is written again row by row, and each refused row is rejected in the ledger as `write_failed`
// with the refusal's SQLSTATE as a note. Other failures (the connection) still stop the run.
import type postgres from 'postgres';
import type { Tx } from '../db';
import type { Normalized } from './normalize';
import { detach, ledgerOf, ledgerRuntimeIds, upsertRecords, writeLedger, type RuntimeTable } from './runtime-writes';

type AnyNormalized = Normalized<Parameters<typeof upsertRecords>[2][number]>;
export interface BatchItem {
  key: string;
  n: AnyNormalized;
  /** The source's updated_at as read (unreadable: none in the ledger). */
  updatedAt: unknown;
}

/**
 * Detach keys whose record changed, upsert, write the ledger. Returns the runtime ids it touched.
 * In a bulk load no key has a ledger entry yet (the run began with none, and keys are read once):
 * nothing to detach, and the ledger entries are COPYed in.
 */
async function writeAll(tx: Tx, authority: string, table: string, runtime: RuntimeTable, items: BatchItem[], bulk: boolean): Promise<string[]> {
  const prev = bulk ? new Map<string, string | null>() : await ledgerRuntimeIds(tx, authority, table, items.map((i) => i.key));
  const moved = items.flatMap(({ key, n }) => {
    const was = prev.get(key);
    return was && was !== (n.ok ? n.record.id : null) ? [{ runtimeId: was, key }] : [];
  });
  await detach(tx, runtime, moved);
  const ranks = await upsertRecords(tx, runtime, items.flatMap(({ n }) => (n.ok ? [n.record] : [])));
  await writeLedger(tx, authority, table, ledgerOf(items, ranks), { bulk });
  return [...moved.map((m) => m.runtimeId), ...items.flatMap(({ n }) => (n.ok ? [n.record.id] : []))];
}

/**
 * The search documents of a batch (migrations/1700000011000_search-documents.sql), rebuilt in one
 * statement after its writes, with the search_sync triggers off for them: what the triggers would do
 * after each statement, once. A studio's artists and designs take its location. Portfolio assets
 * keep their trigger (a moved asset changes the documents of its old artist and studio too).
 */
const REFRESH: Partial<Record<RuntimeTable, string>> = {
  studios: `select search_documents_refresh('studio', $1::text[]),
      search_documents_refresh('artist', array(select a.id from artists a where a.studio_id = any($1::text[]))),
      search_documents_refresh('design', array(select d.id from designs d where d.studio_id = any($1::text[])))`,
  artists: `select search_documents_refresh('artist', $1::text[])`,
  designs: `select search_documents_refresh('design', $1::text[])`,
};

/** A refusal of one row's values (SQLSTATE classes 22 data exception, 23 integrity, 54 limits), not of the store. */
export function isRowRefusal(err: unknown): err is { code: string } {
  const e = err as { name?: string; code?: unknown };
  return e?.name === 'PostgresError' && typeof e.code === 'string' && /^(22|23|54)/.test(e.code);
}

/**
 * Write a batch inside `tx`; rows the store refuses are rejected (`write_failed`), the others written.
 * `bulk` (a bulk load, deferred-indexes.ts): no search document is written (the run builds them all at its end).
 */
export async function writeBatch(tx: postgres.TransactionSql, authority: string, table: string, runtime: RuntimeTable, items: BatchItem[], o: { bulk: boolean } = { bulk: false }) {
  const refresh = o.bulk ? '' : REFRESH[runtime];
  if (refresh === undefined) return writeRows(tx, authority, table, runtime, items, o.bulk);
  const [was] = await tx<{ v: string | null }[]>`select current_setting('directory.search_sync', true) as v, set_config('directory.search_sync', 'off', true)`;
  const touched = await writeRows(tx, authority, table, runtime, items, o.bulk);
  if (refresh) await tx.unsafe(refresh, [[...new Set(touched)].sort()]);
  await tx`select set_config('directory.search_sync', ${was?.v ?? ''}, true)`;
}

async function writeRows(tx: postgres.TransactionSql, authority: string, table: string, runtime: RuntimeTable, items: BatchItem[], bulk: boolean): Promise<string[]> {
  try {
    return await tx.savepoint((sp) => writeAll(sp, authority, table, runtime, items, bulk));
  } catch (err) {
    if (!isRowRefusal(err) || items.length === 0) throw err;
  }
  const touched: string[] = [];
  for (const item of items) {
    try {
      touched.push(...(await tx.savepoint((sp) => writeAll(sp, authority, table, runtime, [item], bulk))));
    } catch (err) {
      if (!isRowRefusal(err)) throw err;
      const refused: AnyNormalized = { ok: false, reason: 'write_failed', notes: [`sqlstate:${err.code}`] };
      touched.push(...(await tx.savepoint((sp) => writeAll(sp, authority, table, runtime, [{ ...item, n: refused }], bulk))));
    }
  }
  return touched;
}
