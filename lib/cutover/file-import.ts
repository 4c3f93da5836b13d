// The file import for owners without a legacy store: studios or artists from CSV (quoting, BOM and
// CRLF handled by csv-parse) or NDJSON, through the same normalization, ledger and provenance as the
// backfill, with sourceType "file_import" and originAuthority "file_import:<file name>".
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { parse } from 'csv-parse';
import type { Sql, Tx } from '../db';
import { normalizeArtist, normalizeStudio, type Normalized, type Source, type StudioLink } from './normalize';
import { writeBatch } from './batch-writes';

export type ImportKind = 'studios' | 'artists';
export type ImportFormat = 'csv' | 'ndjson';
type Row = Record<string, unknown>;

export function formatOf(file: string): ImportFormat {
  return /\.(nd)?jsonl?$/i.test(file) || /\.ndjson$/i.test(file) ? 'ndjson' : 'csv';
}
export function kindOf(file: string): ImportKind {
  return /artist/i.test(path.basename(file)) ? 'artists' : 'studios';
}

/** Records of the file, in order, with their record number (1 = the first record after the header). */
export async function* readRecords(file: string, format: ImportFormat): AsyncGenerator<Row> {
  if (format === 'csv') {
    const parser = fs.createReadStream(file).pipe(parse({ columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), bom: true, skip_empty_lines: true, relax_column_count: true }));
    for await (const r of parser) yield r as Row;
    return;
  }
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  let first = true;
  for await (const raw of lines) {
    const line = first ? raw.replace(/^\uFEFF/, '') : raw;
    first = false;
    if (line.trim()) yield JSON.parse(line) as Row;
  }
}

// ---- cells: CSV gives strings, NDJSON typed values ----
const text = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));
const number = (v: unknown): number | null => {
  const t = text(v);
  if (t === null) return null;
  const n = Number(t.trim());
  return Number.isFinite(n) ? n : null;
};
const bool = (v: unknown): boolean | null => {
  if (typeof v === 'boolean') return v;
  const t = text(v)?.trim().toLowerCase();
  return t === undefined ? null : ['true', 't', 'yes', 'y', '1'].includes(t) ? true : ['false', 'f', 'no', 'n', '0'].includes(t) ? false : null;
};
const list = (v: unknown): string[] | null => (Array.isArray(v) ? v.map(String) : text(v)?.split(/[,;|]/).map((s) => s.trim()).filter(Boolean) ?? null);
const date = (v: unknown): Date | null => {
  const t = text(v);
  const d = t ? new Date(t) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
};
const pick = (r: Row, ...names: string[]) => names.map((n) => r[n]).find((v) => v !== undefined && v !== '');

function normalizeRow(kind: ImportKind, r: Row, src: Source, studio: StudioLink | null | 'not_imported'): Normalized<Parameters<typeof writeBatch>[4][number]['n'] extends Normalized<infer T> ? T : never> {
  const createdAt = date(pick(r, 'created_at'));
  const updatedAt = date(pick(r, 'updated_at')) ?? createdAt;
  if (kind === 'studios')
    return normalizeStudio(
      {
        name: text(r.name), description: text(r.description), address: text(r.address), city: text(r.city), state: text(r.state), country: text(r.country),
        lat: number(pick(r, 'lat', 'latitude')), lng: number(pick(r, 'lng', 'lon', 'longitude')), priceRange: text(r.price_range),
        rating: number(r.rating), reviewsCount: number(pick(r, 'reviews_count', 'review_count')), styles: list(r.styles),
        isVerified: bool(pick(r, 'is_verified', 'verified')), isFeatured: bool(pick(r, 'is_featured', 'featured')), status: text(r.status) ?? 'active', createdAt, updatedAt,
      },
      src,
    );
  return normalizeArtist(
    { name: text(r.name), bio: text(r.bio), specialties: list(r.specialties), yearsExperience: number(r.years_experience), hourlyRate: number(r.hourly_rate), isActive: bool(r.is_active), createdAt, updatedAt },
    src,
    studio,
  );
}

/** An artist's studio_id: a runtime studio id, or the id a studio had in an imported file. */
async function studioLinksOf(tx: Tx, refs: string[]): Promise<Map<string, StudioLink>> {
  if (!refs.length) return new Map();
  const rows = await tx<{ ref: string; id: string; listed: boolean }[]>`
    select r.ref, s.id, (s.visibility = 'public' and s.is_active and s.record_state <> 'deprecated') as listed
    from unnest(${refs}::text[]) as r(ref)
    join lateral (
      select s.* from studios s where s.id = r.ref
      union all
      select s.* from cutover_ledger l join studios s on s.id = l.runtime_id
      where l.source_table = 'studios' and l.source_key = r.ref and l.origin_authority like 'file_import:%' and l.outcome <> 'rejected'
      limit 1
    ) s on true`;
  return new Map(rows.map((r) => [r.ref, { id: r.id, listed: r.listed }]));
}

export interface ImportSummary {
  authority: string;
  kind: ImportKind;
  rows: number;
  outcomes: { outcome: string; reason: string | null; n: number }[];
}

export async function importFile(sql: Sql, file: string, o: { kind?: ImportKind; format?: ImportFormat; batchSize?: number; onProgress?: (done: number) => void } = {}): Promise<ImportSummary> {
  const kind = o.kind ?? kindOf(file);
  const authority = `file_import:${path.basename(file)}`;
  const [run] = await sql<{ id: string }[]>`insert into cutover_runs (kind, source) values ('file_import', ${authority}) returning id::text`;
  let batch: { row: Row; src: Source }[] = [];
  let n = 0;
  const flush = async () => {
    const items = batch;
    batch = [];
    await sql.begin(async (tx) => {
      const refs = kind === 'artists' ? [...new Set(items.map((i) => text(i.row.studio_id)).filter((r): r is string => r !== null))] : [];
      const links = await studioLinksOf(tx, refs);
      await writeBatch(
        tx, authority, kind, kind,
        items.map(({ row, src }) => {
          const ref = text(row.studio_id);
          return { key: src.key, n: normalizeRow(kind, row, src, ref === null ? null : (links.get(ref) ?? 'not_imported')), updatedAt: date(pick(row, 'updated_at', 'created_at')) };
        }),
      );
    });
    o.onProgress?.(n);
  };
  for await (const row of readRecords(file, o.format ?? formatOf(file))) {
    n++;
    const id = text(row.id)?.trim();
    batch.push({ row, src: { type: 'file_import', authority, key: id || `record:${n}`, rank: n } });
    if (batch.length >= (o.batchSize ?? 1000)) await flush();
  }
  if (batch.length) await flush();
  await sql`update cutover_runs set finished_at = now() where id = ${run!.id}`;
  const outcomes = await sql<ImportSummary['outcomes']>`
    select outcome, reason, count(*)::int as n from cutover_ledger where origin_authority = ${authority} and source_table = ${kind} group by 1, 2 order by 1, 2`;
  return { authority, kind, rows: n, outcomes };
}
