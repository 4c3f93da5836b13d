// PostgreSQL's COPY text format (the default of `copy ... from stdin`): one line per row, columns
// separated by tabs, null as \N, backslash, tab, newline and carriage return escaped; a text[] as
// an array literal with every element quoted (NULL elements as NULL).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Tx } from './index';

const ESCAPED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const esc = (s: string) => (/[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => ESCAPED[c]!) : s);
const arrayLiteral = (xs: unknown[]) => `{${xs.map((x) => (x === null || x === undefined ? 'NULL' : `"${String(x).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;

/** A value as COPY text reads it: a Date as its ISO instant, an array as a one-dimension literal. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (Array.isArray(v)) return esc(arrayLiteral(v));
  if (v instanceof Date) return v.toISOString();
  return esc(String(v));
}

/** One row of COPY text, with its line end. */
export function copyLine(row: unknown[]): string {
  return row.map(cell).join('\t') + '\n';
}

/** COPY `rows` into `table (columns)` through one stream, in 64 KB pieces. */
export async function copyRows(tx: Tx, table: string, columns: readonly string[], rows: Iterable<unknown[]>) {
  function* chunks() {
    let buf = '';
    for (const r of rows) {
      buf += copyLine(r);
      if (buf.length > 1 << 16) {
        yield buf;
        buf = '';
      }
    }
    if (buf) yield buf;
  }
  const into = await tx.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`).writable();
  await pipeline(Readable.from(chunks()), into);
}
