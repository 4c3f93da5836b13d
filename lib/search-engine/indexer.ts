// The indexer: drains search_changes (migration 1700000033000) into every index named in
// search_indices, and builds an index from a snapshot of search_documents (first start, `npm run
// search -- reindex`).
//
// - At least once: a batch is read, written to the engine, and its rows deleted in one
//   transaction; a crash (kill -9 of the indexer, the engine down, the API's process gone) before
//   the commit leaves the rows, and the next batch writes them again.
// - Never backwards: every write carries the row's version as an external version; the engine
//   refuses one not above what it has (409, counted as done), so a replay or a late batch cannot
//   overwrite a newer document, nor bring back a deleted one (gc_deletes: 1h).
// - One batch at a time across processes: each batch holds an advisory transaction lock; a
//   rebuild takes it briefly to register its index and take its snapshot in one step, so every
//   change is either in the snapshot or written to the new index by a later batch.
import type { Sql } from '../db';
import { call, ok, type EngineConfig } from './client';
import { docId, DOCUMENT_COLUMNS, DOCUMENT_MAPPINGS, documentsOf, indexSettings, toDocument, type DocumentRow } from './documents';

export const FEED_LOCK = 45_045_001;
/** Held by a build from start to swap: two builds (two API replicas' first start, a reindex) never overlap. */
export const BUILD_LOCK = 45_045_002;
export const BATCH = 500;

interface Change {
  seq: string;
  type: string;
  id: string;
  version: string;
  deleted: boolean;
}

type Op = { index: string; id: string; version: number; doc?: ReturnType<typeof toDocument> };

/** One _bulk request; a refused older version (409) or a delete of an absent document (404) is done, anything else throws. */
export async function bulk(e: EngineConfig, ops: Op[], refresh = false): Promise<{ written: number; stale: number }> {
  if (!ops.length) return { written: 0, stale: 0 };
  const lines: string[] = [];
  for (const o of ops) {
    const meta = { _index: o.index, _id: o.id, version: o.version, version_type: 'external' };
    if (o.doc) lines.push(JSON.stringify({ index: meta }), JSON.stringify(o.doc));
    else lines.push(JSON.stringify({ delete: meta }));
  }
  const r = await ok<{ errors: boolean; items: Record<string, { status: number; error?: unknown }>[] }>(e, 'POST', `/_bulk${refresh ? '?refresh=true' : ''}`, `${lines.join('\n')}\n`);
  let stale = 0;
  for (const item of r.items) {
    const res = Object.values(item)[0]!;
    if (res.status === 409 || res.status === 404) stale++;
    else if (res.status >= 300) throw new Error(`OpenSearch bulk item ${res.status}: ${JSON.stringify(res.error).slice(0, 300)}`);
  }
  return { written: ops.length - stale, stale };
}

/** Start writing the change log (idempotent). */
export async function enableFeed(sql: Sql): Promise<void> {
  await sql`insert into search_feed default values on conflict do nothing`;
}

/**
 * One batch: at most `max` changes in log order, written to every index the indexer feeds, then
 * deleted from the log; all or nothing. Returns how many changes it took (0: nothing to do).
 */
export async function drainOnce(sql: Sql, e: EngineConfig, max = BATCH): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${FEED_LOCK})`;
    const targets = (await tx<{ name: string }[]>`select name from search_indices order by name`).map((r) => r.name);
    if (!targets.length) return 0;
    const changes = await tx<Change[]>`select seq::text, type, id, version::text, deleted from search_changes order by seq limit ${max}`;
    if (!changes.length) return 0;
    // A present document is written as it is now (its version is at least the change's); a
    // changed document gone since is skipped (its delete is in the log behind it).
    const live = changes.filter((c) => !c.deleted);
    const rows = new Map((await documentsOf(tx, live)).map((r) => [docId(r.type, r.id), r]));
    const ops: Op[] = [];
    const seen = new Set<string>();
    for (const c of changes) {
      const key = docId(c.type, c.id);
      if (c.deleted) for (const index of targets) ops.push({ index, id: key, version: Number(c.version) });
      else if (rows.has(key) && !seen.has(key)) {
        seen.add(key);
        const doc = toDocument(rows.get(key)!);
        for (const index of targets) ops.push({ index, id: key, version: doc.version, doc });
      }
    }
    await bulk(e, ops);
    await tx`delete from search_changes where seq = any(${changes.map((c) => c.seq)}::bigint[])`;
    return changes.length;
  });
}

/** Changes not yet indexed, and the age of the oldest (seconds, 0 when none); the count stops at 100,000. */
export async function feedLag(sql: Sql): Promise<{ pending: number; lagSeconds: number; enabled: boolean }> {
  const [r] = await sql<{ pending: number; lag: number; enabled: boolean }[]>`
    select (select count(*)::int from (select 1 from search_changes limit 100000) x) as pending,
      coalesce((select extract(epoch from clock_timestamp() - min(at))::float8 from search_changes), 0) as lag,
      exists (select 1 from search_feed) as enabled`;
  return { pending: r!.pending, lagSeconds: Math.max(0, r!.lag), enabled: r!.enabled };
}

export interface IndexShape {
  shards: number;
  replicas: number;
}

/**
 * A new index filled from a snapshot of search_documents, then the read alias moved onto it in one
 * step (answers never have a gap: the old index answers until the swap), the old indices dropped.
 */
export async function rebuild(sql: Sql, e: EngineConfig, shape: IndexShape, log: (line: string) => void = () => {}, o: { onlyIfMissing?: boolean } = {}): Promise<{ index: string; documents: number; ms: number } | 'present'> {
  const build = await sql.reserve();
  try {
    await build`select pg_advisory_lock(${BUILD_LOCK})`;
    if (o.onlyIfMissing && (await fedAlias(sql, e))) {
      await enableFeed(sql);
      return 'present';
    }
    return await build_(sql, e, shape, log);
  } finally {
    await build`select pg_advisory_unlock(${BUILD_LOCK})`.catch(() => {});
    build.release();
  }
}

/** The alias exists and names the one index the indexer feeds as live. */
async function fedAlias(sql: Sql, e: EngineConfig): Promise<boolean> {
  const behind = await aliasIndices(e);
  const fed = (await sql<{ name: string }[]>`select name from search_indices where state = 'live'`).map((r) => r.name);
  return behind.length === 1 && fed.includes(behind[0]!);
}

async function build_(sql: Sql, e: EngineConfig, shape: IndexShape, log: (line: string) => void): Promise<{ index: string; documents: number; ms: number }> {
  const started = Date.now();
  await enableFeed(sql);
  const index = `${e.alias}-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 17)}`;
  await ok(e, 'PUT', `/${index}`, { settings: { index: indexSettings(shape) }, mappings: DOCUMENT_MAPPINGS });
  const lock = await sql.reserve();
  const snap = await sql.reserve();
  let documents = 0;
  try {
    await lock`select pg_advisory_lock(${FEED_LOCK})`;
    try {
      await lock`insert into search_indices (name, state) values (${index}, 'building')`;
      await snap`begin isolation level repeatable read read only`;
      await snap`select 1`; // the snapshot is taken here, while no batch runs
    } finally {
      await lock`select pg_advisory_unlock(${FEED_LOCK})`;
    }
    let after = { type: '', id: '' };
    for (let page = 0; page < 1_000_000; page++) {
      const rows = await snap<DocumentRow[]>`
        select ${snap.unsafe(DOCUMENT_COLUMNS)} from search_documents d
        where (d.type, d.id) > (${after.type}, ${after.id}) order by d.type, d.id limit 2000`;
      if (!rows.length) break;
      await bulk(e, rows.map((r) => {
        const doc = toDocument(r);
        return { index, id: docId(r.type, r.id), version: doc.version, doc };
      }));
      documents += rows.length;
      after = { type: rows.at(-1)!.type, id: rows.at(-1)!.id };
      if (page % 50 === 49) log(`${documents} documents`);
    }
    await snap`commit`;
  } finally {
    lock.release();
    snap.release();
  }
  await ok(e, 'POST', `/${index}/_refresh`);
  const old = await aliasIndices(e);
  await ok(e, 'POST', '/_aliases', { actions: [...old.map((o) => ({ remove: { index: o, alias: e.alias } })), { add: { index, alias: e.alias } }] });
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${FEED_LOCK})`;
    await tx`delete from search_indices where name <> ${index}`;
    await tx`update search_indices set state = 'live' where name = ${index}`;
  });
  for (const o of old) await call(e, 'DELETE', `/${o}`);
  return { index, documents, ms: Date.now() - started };
}

/** The indices behind the read alias (none: no index yet). */
export async function aliasIndices(e: EngineConfig): Promise<string[]> {
  const r = await call<Record<string, unknown>>(e, 'GET', `/_alias/${e.alias}`);
  return r.status === 200 ? Object.keys(r.body) : [];
}

/** The alias exists and its index is the one the indexer feeds; else a rebuild. */
export async function ensureIndex(sql: Sql, e: EngineConfig, shape: IndexShape, log?: (line: string) => void): Promise<'present' | 'built'> {
  return (await rebuild(sql, e, shape, log, { onlyIfMissing: true })) === 'present' ? 'present' : 'built';
}

/** Drains the log until stopped: a full batch is followed at once, else it waits `idleMs`; an error waits and retries. */
export function startIndexer(sql: Sql, e: EngineConfig, o: { idleMs?: number; batch?: number; onError?: (err: Error) => void } = {}) {
  let stopped = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) => new Promise<void>((r) => {
    const t = setTimeout(r, ms);
    wake = () => {
      clearTimeout(t);
      r();
    };
  });
  const done = (async () => {
    while (!stopped) {
      try {
        const n = await drainOnce(sql, e, o.batch ?? BATCH);
        if (n < (o.batch ?? BATCH)) await pause(o.idleMs ?? 200);
      } catch (err) {
        o.onError?.(err as Error);
        await pause(1000);
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await done;
    },
  };
}
