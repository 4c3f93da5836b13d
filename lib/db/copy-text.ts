// PostgreSQL's COPY text format (the default of `copy ... from stdin`): one line per row, columns
// separated by tabs, null as \N, backslash, tab, newline and carriage return escaped; a text[] as
// an array literal with every element quoted (NULL elements as NULL).
const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
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
