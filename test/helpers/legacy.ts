// A legacy store for the cutover tests: a second, empty database in the tests' embedded PostgreSQL,
// filled by the fixture generator (scripts/cutover/fixture.ts).
import postgres from 'postgres';
import { inject } from 'vitest';
import { createSql, type Sql } from '../../lib/db';
import { writeLegacyFixture } from '../../scripts/cutover/fixture';
import { uid } from './stack';

export interface LegacyDb {
  url: string;
  /** An owner connection (the tests change legacy rows with it; the service never writes). */
  sql: Sql;
  drop(): Promise<void>;
}

/** `sqlAscii`: a store in SQL_ASCII, as old legacy stores are: its text may hold any bytes, UTF-8 or not. */
export async function createLegacyDatabase(opts: { studios?: number; seed?: number; sqlAscii?: boolean } = {}): Promise<LegacyDb> {
  const name = uid('legacy_');
  const admin = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}${opts.sqlAscii ? ` encoding 'SQL_ASCII' template template0 lc_collate 'C' lc_ctype 'C'` : ''}`);
  await admin.end();
  const url = inject('pgAdminUrl').replace(/\/postgres$/, `/${name}`);
  const sql = createSql(url, { max: 2 });
  if (opts.studios) await writeLegacyFixture(sql, { studios: opts.studios, seed: opts.seed ?? 1 });
  return {
    url,
    sql,
    async drop() {
      await sql.end({ timeout: 5 });
      const a = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** The runtime rows the cutover owns, as text (with their transaction ids when asked): equal snapshots, equal stores. */
export async function runtimeSnapshot(sql: Sql, withXmin = false): Promise<string> {
  const parts: string[] = [];
  for (const t of ['studios', 'artists', 'portfolio_assets', 'designs']) {
    const [r] = await sql.unsafe<{ h: string; n: number }[]>(
      `select md5(coalesce(string_agg(${withXmin ? "x.xmin::text || ':' || " : ''}x::text, '|' order by x.id), '')) as h, count(*)::int as n from ${t} x where cardinality(x.legacy_ids) > 0 or x.source_rank is not null`,
    );
    parts.push(`${t}:${r!.n}:${r!.h}`);
  }
  const [l] = await sql.unsafe<{ h: string; n: number }[]>(
    `select md5(coalesce(string_agg(${withXmin ? "l.xmin::text || ':' || " : ''}l::text, '|' order by l.origin_authority, l.source_table, l.source_key), '')) as h, count(*)::int as n from cutover_ledger l`,
  );
  parts.push(`ledger:${l!.n}:${l!.h}`);
  const [d] = await sql.unsafe<{ h: string; n: number }[]>(
    // Without `version`: the search feed's order stamp (one sequence per database), not the document.
    `select md5(coalesce(string_agg(${withXmin ? "d.xmin::text || ':' || " : ''}(to_jsonb(d) - 'version')::text, '|' order by d.type, d.id), '')) as h, count(*)::int as n from search_documents d`,
  );
  parts.push(`search_documents:${d!.n}:${d!.h}`);
  return parts.join(' ');
}
