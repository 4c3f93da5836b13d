// `npm run search -- compare`: samples documents from both sides and reports drift. A document of
// PostgreSQL missing from the engine, or there with an older version or other values; a document
// of the engine PostgreSQL no longer has; and both counts.
import type { Sql } from '../db';
import { call, ok, type EngineConfig } from './client';
import { docId, DOCUMENT_COLUMNS, toDocument, type DocumentRow } from './documents';

export interface Drift {
  postgresDocuments: number;
  engineDocuments: number;
  sampled: number;
  missing: string[];
  stale: string[];
  differing: string[];
  extra: string[];
}

const COMPARED = ['name', 'city', 'state', 'country', 'rating', 'review_count', 'verified', 'quality', 'created_us', 'styles', 'specialties', 'w_a', 'w_b', 'w_c'] as const;

export async function compare(sql: Sql, e: EngineConfig, sample = 500): Promise<Drift> {
  const [{ n } = { n: 0 }] = await sql<{ n: number }[]>`select count(*)::int as n from search_documents`;
  const pct = Math.min(100, n ? ((sample * 3) / n) * 100 : 100);
  const rows = await sql<DocumentRow[]>`
    select ${sql.unsafe(DOCUMENT_COLUMNS)} from search_documents d tablesample bernoulli (${pct}) limit ${sample}`;
  const got = rows.length
    ? await ok<{ docs: { _id: string; found: boolean; _source?: Record<string, unknown> }[] }>(e, 'POST', `/${e.alias}/_mget`, { ids: rows.map((r) => docId(r.type, r.id)) })
    : { docs: [] };
  const drift: Drift = { postgresDocuments: n, engineDocuments: 0, sampled: rows.length, missing: [], stale: [], differing: [], extra: [] };
  rows.forEach((r, i) => {
    const want = toDocument(r);
    const have = got.docs[i]!;
    const key = docId(r.type, r.id);
    if (!have.found || !have._source) drift.missing.push(key);
    else if (Number(have._source.version) < want.version) drift.stale.push(key);
    else if (COMPARED.some((f) => JSON.stringify(have._source![f]) !== JSON.stringify(want[f]))) drift.differing.push(key);
  });
  // the other way: a random sample of the engine's documents that PostgreSQL must still hold
  const theirs = await ok<{ hits: { hits: { _source: { type: string; id: string } }[] } }>(e, 'POST', `/${e.alias}/_search`, {
    size: Math.min(sample, 1000),
    _source: ['type', 'id'],
    query: { function_score: { query: { match_all: {} }, random_score: {} } },
  });
  const keys = theirs.hits.hits.map((h) => h._source);
  if (keys.length) {
    const present = await sql<{ type: string; id: string }[]>`
      select d.type, d.id from search_documents d
      join (select unnest(${keys.map((k) => k.type)}::text[]) as type, unnest(${keys.map((k) => k.id)}::text[]) as id) k on k.type = d.type and k.id = d.id`;
    const have = new Set(present.map((p) => docId(p.type, p.id)));
    drift.extra = keys.map((k) => docId(k.type, k.id)).filter((k) => !have.has(k));
  }
  const c = await call<{ count: number }>(e, 'GET', `/${e.alias}/_count`);
  drift.engineDocuments = c.status === 200 ? c.body.count : 0;
  return drift;
}
