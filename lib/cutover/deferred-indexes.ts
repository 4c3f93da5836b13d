// The first backfill into an empty runtime store loads in bulk: its tables are loaded without their
// secondary indexes, which are built once at the end, as the PostgreSQL docs advise for a bulk load
// ("Populating a Database": remove indexes, load, recreate). Only indexes no constraint needs are
// deferred (primary keys and unique indexes stay: the upserts conflict on them). Each dropped index
// is recorded in cutover_deferred_indexes in the transaction that drops it and deleted in the one
// that builds it again, so a killed run (kill -9, at any point) leaves a record of every index still
// to build; the resumed run, or any later run, builds them. A store holding any record is never touched: the
// bulk load is for a store nobody reads yet (the stage is still legacy_authoritative), and the read
// routes over it stay correct, only slower, until the run ends.
import type { Sql } from '../db';

/** The tables a backfill writes (search_documents: the documents its records feed). */
const DEFERRABLE = ['studios', 'artists', 'portfolio_assets', 'designs', 'search_documents'] as const;

/** The secondary indexes of a table: not unique, not behind a constraint (pk, unique, exclusion). */
const SECONDARY = `
  select i.relname as name, t.relname as table_name, pg_get_indexdef(x.indexrelid) as definition
  from pg_index x
  join pg_class i on i.oid = x.indexrelid
  join pg_class t on t.oid = x.indrelid
  join pg_namespace n on n.oid = t.relnamespace
  where n.nspname = current_schema() and t.relname = any($1::text[])
    and not x.indisunique and not x.indisprimary and not x.indisexclusion
    and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
  order by i.relname`;

/**
 * A backfill's bulk load, when the runtime store is empty (every DEFERRABLE table without a row, no
 * ledger entry of `authority`): the secondary indexes are dropped and recorded for `runId`, and the
 * run is marked `bulk_load`. Otherwise (or when the store's role may not drop the indexes: not their
 * owner) nothing changes and the run loads row by row into the indexed tables. Returns the indexes deferred.
 */
export async function startBulkLoad(sql: Sql, runId: number, authority: string, log: (line: string) => void = () => {}): Promise<number | null> {
  try {
    return await sql.begin(async (tx) => {
      // locked first: nothing may write a row between the emptiness check and the drop
      await tx.unsafe(`lock table ${DEFERRABLE.join(', ')} in share row exclusive mode`);
      for (const t of DEFERRABLE) {
        const [r] = await tx.unsafe<{ any: boolean }[]>(`select exists (select 1 from ${t}) as any`);
        if (r!.any) return null;
      }
      const [ledger] = await tx<{ any: boolean }[]>`select exists (select 1 from cutover_ledger where origin_authority = ${authority}) as any`;
      if (ledger!.any) return null;
      const indexes = await tx.unsafe<{ name: string; tableName: string; definition: string }[]>(SECONDARY, [[...DEFERRABLE]]);
      for (const i of indexes) {
        await tx`insert into cutover_deferred_indexes (index_name, table_name, definition, run_id) values (${i.name}, ${i.tableName}, ${i.definition}, ${runId})`;
        await tx`drop index ${tx(i.name)}`;
      }
      await tx`update cutover_runs set bulk_load = true where id = ${runId}`;
      return indexes.length;
    });
  } catch (err) {
    if ((err as { code?: string }).code !== '42501') throw err;
    log("the runtime store's role may not drop its indexes (not their owner): loading row by row into the indexed tables");
    return null;
  }
}

/** Indexes still to build (a run in progress, or one killed before it built them). */
export async function deferredIndexes(sql: Sql): Promise<{ indexName: string; tableName: string; definition: string; runId: number }[]> {
  const rows = await sql<{ indexName: string; tableName: string; definition: string; runId: string }[]>`
    select index_name, table_name, definition, run_id::text from cutover_deferred_indexes order by table_name, index_name`;
  return rows.map((r) => ({ ...r, runId: Number(r.runId) }));
}

/**
 * Build the recorded indexes (of `tables`, or all), each in its own transaction with its record's
 * deletion (a kill mid-build leaves the record, and the next call builds it), `concurrency` at a
 * time on connections of their own. Memory for each build's sort: 512 MB.
 */
export async function buildDeferredIndexes(sql: Sql, o: { log?: (line: string) => void; tables?: readonly string[]; concurrency?: number } = {}): Promise<number> {
  const queue = (await deferredIndexes(sql)).filter((d) => !o.tables || o.tables.includes(d.tableName));
  // one line per table, when its last index is built
  const left = new Map<string, { n: number; built: number; from: number }>();
  for (const d of queue) left.set(d.tableName, { n: (left.get(d.tableName)?.n ?? 0) + 1, built: 0, from: 0 });
  let built = 0;
  const builder = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { indexName, tableName } = next;
      const t = left.get(tableName)!;
      t.from ||= performance.now();
      const done = await sql.begin(async (tx) => {
        const [r] = await tx`delete from cutover_deferred_indexes where index_name = ${indexName} returning 1`;
        if (!r) return false; // another process built it meanwhile
        await tx`select set_config('maintenance_work_mem', '512MB', true)`;
        await tx.unsafe(next.definition);
        return true;
      });
      if (done) {
        built++;
        t.built++;
      }
      if (--t.n === 0) o.log?.(`  ${tableName}: ${t.built} indexes built in ${((performance.now() - t.from) / 1000).toFixed(1)} s`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 1) }, builder));
  return built;
}
