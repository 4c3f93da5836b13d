// R10 baseline: the same public search corpus as GET /search (the rows FTS5 gets for R4) exported
// as NDJSON and indexed by tantivy (PyPI, installed into .tools by `npm run setup`), BM25 top 20
// with an exact count, one query in flight; timed inside the Python process (engine time only).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Sql } from '../../lib/db';
import { TANTIVY_DIR, tantivyInstalled } from '../../scripts/tools/tantivy';
import { corpusRows } from './fts5';

export interface TantivyResult {
  docs: number;
  build_s: number;
  n: number;
  p50_ms: number;
  p95_ms: number;
  hits: number;
  counts: Record<string, number>;
}

export { tantivyInstalled };

export async function runTantivy(sql: Sql, dir: string, o: { terms: readonly string[]; warmup: number; count: number }): Promise<TantivyResult> {
  const corpus = path.join(dir, 'tantivy-corpus.ndjson');
  const indexDir = path.join(dir, 'tantivy-index');
  fs.rmSync(indexDir, { recursive: true, force: true });
  fs.mkdirSync(indexDir, { recursive: true });
  const out = fs.createWriteStream(corpus);
  try {
    for await (const batch of corpusRows(sql).cursor(5000)) {
      if (!out.write(batch.map((r) => JSON.stringify(r)).join('\n') + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    const script = path.join(import.meta.dirname, 'tantivy_r10.py');
    const stdout = execFileSync('python3', [script, corpus, indexDir, JSON.stringify(o.terms), String(o.warmup), String(o.count)], {
      env: { ...process.env, PYTHONPATH: TANTIVY_DIR },
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      timeout: 30 * 60 * 1000,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as TantivyResult;
  } finally {
    fs.rmSync(corpus, { force: true });
    fs.rmSync(indexDir, { recursive: true, force: true });
  }
}
