// R4 baseline: the same public search corpus as GET /search (studios, artists, public designs, with
// the same visibility rules) copied into an SQLite FTS5 table (better-sqlite3), ranked with bm25
// and cut to the top 20. Columns follow the tsvector weights: name (A), place or specialties (B),
// the rest (C); bm25 gets matching column weights.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Sql } from '../../lib/db';
import { publicDirectoryWhere, publicMediaWhere } from '../../lib/directory/records';

const BUILD_WORKER = new URL('./fts5-build-worker.mjs', import.meta.url);

export interface Fts5Baseline {
  rows: number;
  buildMs: number;
  file: string;
  /** Top 20 by bm25 for the words of q (all must match, as websearch_to_tsquery's AND). */
  top20(q: string): { type: string; id: string; score: number }[];
  close(): void;
}

/** The public search corpus, a row per studio, artist and public design (the baselines of R4 and R10 read the same rows). */
export function corpusRows(sql: Sql) {
  return sql<{ type: string; id: string; name: string; place: string; body: string }[]>`
    select 'studio' as type, s.id::text, s.name, s.city as place,
      s.description || ' ' || array_to_string(s.styles, ' ') || ' ' || array_to_string(s.specialties, ' ') as body
    from studios s where ${publicDirectoryWhere(sql, 's')} and s.is_active
    union all
    select 'artist', a.id::text, a.name, array_to_string(a.specialties, ' '), a.bio
    from artists a where ${publicDirectoryWhere(sql, 'a')} and a.is_active
    union all
    select 'design', d.id::text, d.title, '', d.description || ' ' || array_to_string(d.tags, ' ') || ' ' || array_to_string(d.style_ids, ' ')
    from designs d where ${publicMediaWhere(sql, 'd')}`;
}

/** One message from the build worker, or its failure. */
function reply(worker: Worker): Promise<{ ack?: number; done?: boolean }> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    const onExit = (code: number) => reject(new Error(`the FTS5 build worker exited with ${code}`));
    worker.once('error', onError).once('exit', onExit);
    worker.once('message', (m: { ack?: number; done?: boolean }) => {
      worker.off('error', onError).off('exit', onExit);
      resolve(m);
    });
  });
}

export async function buildFts5(sql: Sql, dir: string): Promise<Fts5Baseline> {
  const started = performance.now();
  const file = path.join(dir, 'fts5.sqlite');
  fs.rmSync(file, { force: true });
  // the inserts and the optimize run in a worker thread: this thread's event loop (and its pooled
  // HTTP sockets to the API) stays live during the build
  const worker = new Worker(BUILD_WORKER, { workerData: { file } });
  let rows = 0;
  try {
    for await (const batch of corpusRows(sql).cursor(5000)) {
      worker.postMessage({ rows: batch.map((r) => ({ ...r })) });
      await reply(worker);
      rows += batch.length;
    }
    worker.postMessage({ finish: true });
    await reply(worker);
  } finally {
    await worker.terminate();
  }
  const db = new Database(file, { readonly: true });
  const query = db.prepare(`select type, id, bm25(docs, 1.0, 0.4, 0.2) as score from docs where docs match ? order by score limit 20`);
  return {
    rows,
    buildMs: performance.now() - started,
    file,
    top20: (q) => query.all(toFtsQuery(q)) as { type: string; id: string; score: number }[],
    close: () => db.close(),
  };
}

/** Each word as a quoted FTS5 string: the words ANDed, no FTS5 syntax from the input. */
export function toFtsQuery(q: string): string {
  return q
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `"${w.replace(/"/g, '""')}"`)
    .join(' ');
}
