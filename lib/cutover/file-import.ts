// The file import for owners without a legacy store: studios or artists from CSV (quoting, BOM and
// CRLF handled by csv-parse) or NDJSON, through the same normalization, ledger and provenance as the
// backfill, with sourceType "file_import" and originAuthority "file_import:<file name>".
import path from 'node:path';
import type { Sql, Tx } from '../db';
import { writeBatch, type BatchItem } from './batch-writes';
import { Cells } from './file-cells';
import { readRecords, type FileRecord, type ImportFormat } from './file-records';
import { normalizeArtist, normalizedSafely, normalizeStudio, type Source, type SourceArtist, type SourceStudio, type SourceTime, type StudioLink } from './normalize';

export type { ImportFormat } from './file-records';
export type ImportKind = 'studios' | 'artists';

export function formatOf(file: string): ImportFormat {
  return /\.(nd)?jsonl?$/i.test(file) || /\.ndjson$/i.test(file) ? 'ndjson' : 'csv';
}
export function kindOf(file: string): ImportKind {
  return /artist/i.test(path.basename(file)) ? 'artists' : 'studios';
}

const studioOf = (c: Cells, createdAt: SourceTime, updatedAt: SourceTime): SourceStudio => ({
  name: c.text('name'), description: c.text('description'), address: c.text('address'), city: c.text('city'), state: c.text('state'), country: c.text('country'),
  lat: c.number('lat', 'latitude'), lng: c.number('lng', 'lon', 'longitude'), priceRange: c.text('price_range'),
  rating: c.number('rating'), reviewsCount: c.number('reviews_count', 'review_count'), styles: c.list('styles'),
  isVerified: c.bool('is_verified', 'verified'), isFeatured: c.bool('is_featured', 'featured'), status: c.text('status') ?? 'active', createdAt, updatedAt,
});
const artistOf = (c: Cells, createdAt: SourceTime, updatedAt: SourceTime): SourceArtist => ({
  name: c.text('name'), bio: c.text('bio'), specialties: c.list('specialties'), yearsExperience: c.number('years_experience'), hourlyRate: c.number('hourly_rate'),
  isActive: c.bool('is_active'), createdAt, updatedAt,
});

/** A row of the file normalized: its cells read strictly, the first problem rejects it. */
function normalizeRow(kind: ImportKind, c: Cells, src: Source, studio: StudioLink | null | 'not_imported'): BatchItem['n'] {
  const createdAt = c.time('created_at');
  const updatedAt = c.time('updated_at') ?? createdAt;
  const problem = () => (c.problem ? { ok: false as const, reason: c.problem.reason, notes: [c.problem.note] } : undefined);
  if (kind === 'studios') {
    const row = studioOf(c, createdAt, updatedAt);
    return problem() ?? normalizedSafely(() => normalizeStudio(row, src));
  }
  const row = artistOf(c, createdAt, updatedAt);
  return problem() ?? normalizedSafely(() => normalizeArtist(row, src, studio));
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

/** A rejected row of this file: where it is and why. */
export interface ImportRejection {
  record: number;
  line: number;
  key: string;
  reason: string;
  notes: string[];
}

export interface ImportSummary {
  authority: string;
  kind: ImportKind;
  rows: number;
  outcomes: { outcome: string; reason: string | null; n: number }[];
  /** Every row of this file the ledger holds as rejected, in file order. */
  rejected: ImportRejection[];
}

/** A record of the file on its way to a batch: read (its cells) or already rejected. */
type Pending = { key: string; at: FileRecord } & ({ cells: Cells; src: Source } | { n: BatchItem['n'] });

/**
 * Import a file. A row that cannot be read, holds a value of the wrong kind, repeats an id of the
 * file (`duplicate_id`; keyed by its record number) or is refused by the store is rejected into the
 * ledger and the summary, with its line; the file goes on to its end.
 */
export async function importFile(sql: Sql, file: string, o: { kind?: ImportKind; format?: ImportFormat; batchSize?: number; onProgress?: (done: number) => void } = {}): Promise<ImportSummary> {
  const kind = o.kind ?? kindOf(file);
  const authority = `file_import:${path.basename(file)}`;
  const [run] = await sql<{ id: string }[]>`insert into cutover_runs (kind, source) values ('file_import', ${authority}) returning id::text`;
  const where = new Map<string, FileRecord>();
  const seen = new Set<string>();
  let batch: Pending[] = [];
  let n = 0;
  const flush = async () => {
    const items = batch;
    batch = [];
    await sql.begin(async (tx) => {
      const refs = kind === 'artists' ? [...new Set(items.flatMap((i) => ('cells' in i ? [i.cells.key('studio_id')] : [])).filter((r): r is string => r !== null))] : [];
      const links = await studioLinksOf(tx, refs);
      const rows = items.map((i): BatchItem => {
        if ('n' in i) return { key: i.key, n: i.n, updatedAt: null };
        const ref = i.cells.key('studio_id');
        return { key: i.key, n: normalizeRow(kind, i.cells, i.src, ref === null ? null : (links.get(ref) ?? 'not_imported')), updatedAt: i.cells.time('updated_at') ?? i.cells.time('created_at') };
      });
      await writeBatch(tx, authority, kind, kind, rows);
    });
    o.onProgress?.(n);
  };
  for await (const at of readRecords(file, o.format ?? formatOf(file))) {
    n = at.record;
    const byRecord = `record:${at.record}`;
    if ('problem' in at) batch.push({ key: byRecord, at, n: { ok: false, reason: at.problem, notes: [] } });
    else {
      const cells = new Cells(at.row);
      const id = cells.key('id');
      const key = id !== null && !seen.has(id) ? id : byRecord;
      if (id !== null && seen.has(id)) batch.push({ key, at, n: { ok: false, reason: 'duplicate_id', notes: [] } });
      else batch.push({ key, at, cells, src: { type: 'file_import', authority, key, rank: at.record } });
      if (id !== null) seen.add(id);
    }
    where.set(batch[batch.length - 1]!.key, at);
    if (batch.length >= (o.batchSize ?? 1000)) await flush();
  }
  if (batch.length) await flush();
  await sql`update cutover_runs set finished_at = now() where id = ${run!.id}`;
  const outcomes = await sql<ImportSummary['outcomes']>`
    select outcome, reason, count(*)::int as n from cutover_ledger where origin_authority = ${authority} and source_table = ${kind} group by 1, 2 order by 1, 2`;
  const rejectedRows = await sql<{ sourceKey: string; reason: string; notes: string[] }[]>`
    select source_key, reason, notes from cutover_ledger where origin_authority = ${authority} and source_table = ${kind} and outcome = 'rejected'`;
  const rejected = rejectedRows
    .flatMap((r) => {
      const at = where.get(r.sourceKey);
      return at ? [{ record: at.record, line: at.line, key: r.sourceKey, reason: r.reason, notes: r.notes }] : [];
    })
    .sort((a, b) => a.record - b.record);
  return { authority, kind, rows: n, outcomes, rejected };
}
