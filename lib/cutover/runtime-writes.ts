// Writing normalized records into the runtime store: upserts keyed by the deterministic ids, so a
// rerun or a resumed run writes nothing new; a duplicate group shows the fields of its smallest
// source rank and keeps every source key; the ledger accounts for every source row.
import type { Tx } from '../db';
import { copyRows } from '../db/copy-text';
import { STUDIO_FIELDS } from '../directory/fields/studio';
import { ARTIST_FIELDS } from '../directory/fields/artist';
import { DESIGN_FIELDS, PORTFOLIO_FIELDS } from '../directory/fields/media';
import { upsertColumns } from '../directory/fields/table';
import type { ArtistRecord, MediaRecord, Normalized, StudioLink, StudioRecord } from './normalize';
import { compareRanks, isoOrNull } from './values';

export type RuntimeTable = 'studios' | 'artists' | 'portfolio_assets' | 'designs';

const META: [string, string][] = [
  ['record_state', 'text'], ['source_type', 'text'], ['origin_authority', 'text'], ['source_url', 'text'], ['source_collected_at', 'timestamptz'],
  ['license_status', 'text'], ['consent_level', 'text'], ['source_notes', 'text[]'], ['verification_status', 'text'], ['approval_status', 'text'],
  ['visibility', 'text'], ['cultural_sensitivity_level', 'text'], ['trust_notes', 'text[]'], ['created_at', 'timestamptz'], ['updated_at', 'timestamptz'],
];
/** The data columns of each table (besides id, legacy_ids and source_rank) and their types. */
const COLUMNS: Record<RuntimeTable, [string, string][]> = {
  studios: [...upsertColumns(STUDIO_FIELDS), ...META],
  artists: [...upsertColumns(ARTIST_FIELDS), ...META],
  portfolio_assets: [...upsertColumns(PORTFOLIO_FIELDS), ...META],
  designs: [...upsertColumns(DESIGN_FIELDS), ...META],
};

/** One batch's rows, staged: a temporary table (never WAL-logged, private to this transaction) loaded by COPY. */
const stageOf = (t: RuntimeTable) => `cutover_stage_${t}`;
const STAGED_COLUMNS: Record<RuntimeTable, [string, string][]> = Object.fromEntries(
  (Object.keys(COLUMNS) as RuntimeTable[]).map((t) => [t, [['id', 'text'], ...COLUMNS[t], ['legacy_ids', 'text[]'], ['source_rank', 'bigint']]]),
) as Record<RuntimeTable, [string, string][]>;
const CREATE_STAGE: Record<RuntimeTable, string> = Object.fromEntries(
  (Object.keys(COLUMNS) as RuntimeTable[]).map((t) => [t, `create temp table ${stageOf(t)} (${STAGED_COLUMNS[t].map(([c, ty]) => `${c} ${ty}`).join(', ')}) on commit drop`]),
) as Record<RuntimeTable, string>;

/** The statement text of each table's upsert from its stage, built once from the constant column lists above. */
const UPSERT: Record<RuntimeTable, string> = Object.fromEntries(
  (Object.keys(COLUMNS) as RuntimeTable[]).map((t) => {
    const cols = COLUMNS[t].map(([c]) => c);
    const all = ['id', ...cols, 'legacy_ids', 'source_rank'];
    const wins = `coalesce(excluded.source_rank, 0) <= coalesce(t.source_rank, 9223372036854775807)`;
    return [
      t,
      `insert into ${t} as t (${all.join(', ')})
       select ${all.join(', ')} from ${stageOf(t)} x
       on conflict (id) do update set
         ${cols.map((c) => `${c} = case when ${wins} then excluded.${c} else t.${c} end`).join(',\n         ')},
         legacy_ids = array(select distinct k from unnest(t.legacy_ids || excluded.legacy_ids) k order by k),
         source_rank = least(t.source_rank, excluded.source_rank)
       where t.source_rank is null or excluded.source_rank < t.source_rank
         or not (excluded.legacy_ids <@ t.legacy_ids)
         or (excluded.source_rank = t.source_rank and (${cols.map((c) => `t.${c}`).join(', ')}) is distinct from (${cols.map((c) => `excluded.${c}`).join(', ')}))`,
    ];
  }),
) as Record<RuntimeTable, string>;

/** A record's value as the stage reads it: what JSON would carry (a number that is not finite as null). */
const staged = (v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v);

/** COPY the records into the table's stage (created for this batch, dropped by the caller or at commit). */
async function stageRecords(tx: Tx, table: RuntimeTable, records: AnyRecord[]) {
  await tx.unsafe(CREATE_STAGE[table]);
  const cols = STAGED_COLUMNS[table].map(([c]) => c);
  await copyRows(tx, stageOf(table), cols, (function* () {
    for (const r of records) yield cols.map((c) => staged((r as unknown as Record<string, unknown>)[c]));
  })());
}

type AnyRecord = StudioRecord | ArtistRecord | MediaRecord;

/**
 * Upsert the records of one batch. Records with one id (duplicates inside the batch) are folded
 * first: one statement may not touch a row twice. Returns the source rank each id now shows.
 */
export async function upsertRecords(tx: Tx, table: RuntimeTable, records: AnyRecord[]): Promise<Map<string, string | null>> {
  const byId = new Map<string, AnyRecord>();
  for (const r of records) {
    const seen = byId.get(r.id);
    if (!seen) byId.set(r.id, r);
    else {
      const [win, lose] = compareRanks(r.source_rank, seen.source_rank) < 0 ? [r, seen] : [seen, r];
      byId.set(r.id, { ...win, legacy_ids: [...new Set([...win.legacy_ids, ...lose.legacy_ids])].sort() });
    }
  }
  if (byId.size === 0) return new Map();
  await stageRecords(tx, table, [...byId.values()]);
  await tx.unsafe(UPSERT[table]);
  await tx.unsafe(`drop table ${stageOf(table)}`);
  const ranks = await tx<{ id: string; sourceRank: string | null }[]>`select id, source_rank::text from ${tx(table)} where id = any(${[...byId.keys()]}::text[])`;
  return new Map(ranks.map((r) => [r.id, r.sourceRank]));
}

/**
 * A source row no longer feeds the record it fed (deleted in the legacy store, or its duplicate key
 * changed): its key leaves the record; a record left with no source is deprecated and private.
 * The fields are retaken by the next write of a remaining member (source_rank null).
 */
export async function detach(tx: Tx, table: RuntimeTable, pairs: { runtimeId: string; key: string }[]) {
  if (!pairs.length) return;
  await tx`
    update ${tx(table)} t set
      legacy_ids = array_remove(t.legacy_ids, d.k),
      source_rank = null,
      record_state = case when t.legacy_ids = array[d.k] then 'deprecated' else t.record_state end,
      visibility = case when t.legacy_ids = array[d.k] then 'private' else t.visibility end
    from unnest(${pairs.map((p) => p.runtimeId)}::text[], ${pairs.map((p) => p.key)}::text[]) as d(id, k)
    where t.id = d.id and d.k = any(t.legacy_ids)`;
}

const LEDGER_COLUMNS = ['origin_authority', 'source_table', 'source_key', 'outcome', 'reason', 'runtime_id', 'record_state', 'notes', 'source_updated_at'] as const;

export interface LedgerEntry {
  key: string;
  outcome: 'imported' | 'merged' | 'rejected';
  reason: string | null;
  runtimeId: string | null;
  recordState: string | null;
  notes: string[];
  sourceUpdatedAt: string | null;
}

/** The runtime ids the ledger holds for these source keys (to see what changed). */
export async function ledgerRuntimeIds(tx: Tx, authority: string, table: string, keys: string[]): Promise<Map<string, string | null>> {
  if (!keys.length) return new Map();
  const rows = await tx<{ sourceKey: string; runtimeId: string | null }[]>`
    select source_key, runtime_id from cutover_ledger where origin_authority = ${authority} and source_table = ${table} and source_key = any(${keys}::text[])`;
  return new Map(rows.map((r) => [r.sourceKey, r.runtimeId]));
}

/** The ledger entries of a batch: upserted, or (a bulk load: every key is new) COPYed in. */
export async function writeLedger(tx: Tx, authority: string, table: string, entries: LedgerEntry[], o: { bulk: boolean } = { bulk: false }) {
  if (!entries.length) return;
  if (o.bulk)
    return copyRows(tx, 'cutover_ledger', LEDGER_COLUMNS, entries.map((e) => [authority, table, e.key, e.outcome, e.reason, e.runtimeId, e.recordState, e.notes, e.sourceUpdatedAt]));
  const rows = entries.map((e) => ({ origin_authority: authority, source_table: table, source_key: e.key, outcome: e.outcome, reason: e.reason, runtime_id: e.runtimeId, record_state: e.recordState, notes: e.notes, source_updated_at: e.sourceUpdatedAt }));
  await tx`
    insert into cutover_ledger as l (origin_authority, source_table, source_key, outcome, reason, runtime_id, record_state, notes, source_updated_at)
    select origin_authority, source_table, source_key, outcome, reason, runtime_id, record_state, notes, source_updated_at
    from jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb) as x(origin_authority text, source_table text, source_key text, outcome text, reason text,
      runtime_id text, record_state text, notes text[], source_updated_at timestamptz)
    on conflict (origin_authority, source_table, source_key) do update set
      outcome = excluded.outcome, reason = excluded.reason, runtime_id = excluded.runtime_id, record_state = excluded.record_state,
      notes = excluded.notes, source_updated_at = excluded.source_updated_at
    where (l.outcome, l.reason, l.runtime_id, l.record_state, l.notes, l.source_updated_at)
      is distinct from (excluded.outcome, excluded.reason, excluded.runtime_id, excluded.record_state, excluded.notes, excluded.source_updated_at)`;
}

/** Runtime studios of these legacy studio ids (through the ledger), and whether each is listed. */
export async function studioLinks(tx: Tx, authority: string, keys: string[]): Promise<Map<string, StudioLink>> {
  if (!keys.length) return new Map();
  const rows = await tx<{ sourceKey: string; id: string; listed: boolean }[]>`
    select l.source_key, s.id, (s.visibility = 'public' and s.is_active and s.record_state <> 'deprecated') as listed
    from cutover_ledger l join studios s on s.id = l.runtime_id
    where l.origin_authority = ${authority} and l.source_table = 'studios' and l.source_key = any(${keys}::text[]) and l.outcome <> 'rejected'`;
  return new Map(rows.map((r) => [r.sourceKey, { id: r.id, listed: r.listed }]));
}

/** Runtime artists of these legacy artist ids, with their studio. */
export async function artistLinks(tx: Tx, authority: string, keys: string[]): Promise<Map<string, { id: string; studioId: string | null }>> {
  if (!keys.length) return new Map();
  const rows = await tx<{ sourceKey: string; id: string; studioId: string | null }[]>`
    select l.source_key, a.id, a.studio_id from cutover_ledger l join artists a on a.id = l.runtime_id
    where l.origin_authority = ${authority} and l.source_table = 'artists' and l.source_key = any(${keys}::text[]) and l.outcome <> 'rejected'`;
  return new Map(rows.map((r) => [r.sourceKey, { id: r.id, studioId: r.studioId }]));
}

/** Ledger entries of a normalized batch, given the rank each runtime id now shows (an unreadable updatedAt: null). */
export function ledgerOf<T extends AnyRecord>(items: { key: string; n: Normalized<T>; updatedAt: unknown }[], ranks: Map<string, string | null>): LedgerEntry[] {
  return items.map(({ key, n, updatedAt }) => {
    const sourceUpdatedAt = isoOrNull(updatedAt);
    if (!n.ok) return { key, outcome: 'rejected', reason: n.reason, runtimeId: null, recordState: null, notes: n.notes, sourceUpdatedAt };
    const rank = ranks.get(n.record.id);
    const merged = rank !== undefined && rank !== null && rank !== n.record.source_rank;
    return { key, outcome: merged ? 'merged' : 'imported', reason: merged ? 'duplicate_name_address' : null, runtimeId: n.record.id, recordState: n.record.record_state, notes: n.notes, sourceUpdatedAt };
  });
}
