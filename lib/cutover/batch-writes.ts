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

/** Detach keys whose record changed, upsert, write the ledger. */
async function writeAll(tx: Tx, authority: string, table: string, runtime: RuntimeTable, items: BatchItem[]) {
  const prev = await ledgerRuntimeIds(tx, authority, table, items.map((i) => i.key));
  const moved = items.flatMap(({ key, n }) => {
    const was = prev.get(key);
    return was && was !== (n.ok ? n.record.id : null) ? [{ runtimeId: was, key }] : [];
  });
  await detach(tx, runtime, moved);
  const ranks = await upsertRecords(tx, runtime, items.flatMap(({ n }) => (n.ok ? [n.record] : [])));
  await writeLedger(tx, authority, table, ledgerOf(items, ranks));
}

/** A refusal of one row's values (SQLSTATE classes 22 data exception, 23 integrity, 54 limits), not of the store. */
export function isRowRefusal(err: unknown): err is { code: string } {
  const e = err as { name?: string; code?: unknown };
  return e?.name === 'PostgresError' && typeof e.code === 'string' && /^(22|23|54)/.test(e.code);
}

/** Write a batch inside `tx`; rows the store refuses are rejected (`write_failed`), the others written. */
export async function writeBatch(tx: postgres.TransactionSql, authority: string, table: string, runtime: RuntimeTable, items: BatchItem[]) {
  try {
    await tx.savepoint((sp) => writeAll(sp, authority, table, runtime, items));
    return;
  } catch (err) {
    if (!isRowRefusal(err) || items.length === 0) throw err;
  }
  for (const item of items) {
    try {
      await tx.savepoint((sp) => writeAll(sp, authority, table, runtime, [item]));
    } catch (err) {
      if (!isRowRefusal(err)) throw err;
      const refused: AnyNormalized = { ok: false, reason: 'write_failed', notes: [`sqlstate:${err.code}`] };
      await tx.savepoint((sp) => writeAll(sp, authority, table, runtime, [{ ...item, n: refused }]));
    }
  }
}
