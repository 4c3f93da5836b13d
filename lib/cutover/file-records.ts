// The records of an imported file, one by one, with where each is (its record number and line): a
// record that cannot be read (CSV it cannot parse, an NDJSON line that is no JSON or no object) comes
// out as a problem in its place, and reading goes on.
import fs from 'node:fs';
import readline from 'node:readline';
import { parse, type CsvError } from 'csv-parse';

export type ImportFormat = 'csv' | 'ndjson';
export type Row = Record<string, unknown>;
export type RecordProblem = 'invalid_csv' | 'invalid_json' | 'not_an_object';

/** record: 1 = the first record (after a CSV header), in file order; line: the file's line where the record ends. */
export type FileRecord = { record: number; line: number } & ({ row: Row } | { problem: RecordProblem });

/**
 * CSV records. Quotes inside a field are kept as typed (relax_quotes); a record csv-parse cannot read
 * (a quote never closed swallows the rest of the file) is a problem at the line where parsing gave
 * up. csv-parse reports those ahead of the records still buffered: each is put back in file order by
 * the count of records read before it.
 */
async function* csvRecords(file: string): AsyncGenerator<FileRecord> {
  const skipped: { before: number; line: number }[] = [];
  const parser = fs.createReadStream(file).pipe(
    parse({
      columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      info: true,
      skip_records_with_error: true,
      on_skip: (err) => {
        const e = err as (CsvError & { records?: number; lines?: number }) | undefined;
        if (e) skipped.push({ before: e.records ?? 0, line: e.lines ?? 0 });
      },
    }),
  );
  let record = 0;
  const problems = function* (upTo: number) {
    while (skipped.length && skipped[0]!.before <= upTo) yield { record: ++record, line: skipped.shift()!.line, problem: 'invalid_csv' as const };
  };
  for await (const r of parser) {
    const { record: row, info } = r as { record: Row; info: { lines: number; records: number } };
    yield* problems(info.records - 1);
    yield { record: ++record, line: info.lines, row };
  }
  yield* problems(Infinity);
}

async function* ndjsonRecords(file: string): AsyncGenerator<FileRecord> {
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  let line = 0;
  let record = 0;
  for await (const raw of lines) {
    const text = ++line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (!text.trim()) continue;
    record++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { record, line, problem: 'invalid_json' };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) yield { record, line, problem: 'not_an_object' };
    else yield { record, line, row: value as Row };
  }
}

/** Records of the file, in order, each a row or a problem. */
export function readRecords(file: string, format: ImportFormat): AsyncGenerator<FileRecord> {
  return format === 'csv' ? csvRecords(file) : ndjsonRecords(file);
}
