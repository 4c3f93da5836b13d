// The cells of an imported row: CSV gives strings, NDJSON typed values. A cell is read strictly: a
// value of the wrong kind (an object for a name, a word for a number) is a problem of the row, never
// turned into text ("[object Object]", "null") or silently dropped. The first problem rejects the row.
import type { Row } from './file-records';
import type { CellReason, SourceTime } from './records';

export class Cells {
  /** The first problem: its reason, and the note `<reason>:<column>`. */
  problem: { reason: CellReason; note: string } | undefined;
  constructor(private readonly row: Row) {}

  private fail(reason: CellReason, column: string): null {
    this.problem ??= { reason, note: `${reason}:${column}` };
    return null;
  }

  /** The first of these columns with a value (not absent, null or ''), and its name. */
  private cell(columns: string[]): [unknown, string] {
    for (const c of columns) {
      const v = this.row[c];
      if (v !== undefined && v !== null && v !== '') return [v, c];
    }
    return [undefined, columns[0]!];
  }

  text(...columns: string[]): string | null {
    const [v, c] = this.cell(columns);
    if (v === undefined) return null;
    return typeof v === 'string' ? v : this.fail('value_not_text', c);
  }

  number(...columns: string[]): number | null {
    const [v, c] = this.cell(columns);
    if (v === undefined) return null;
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v.trim()) : NaN;
    return Number.isFinite(n) ? n : this.fail('invalid_number', c);
  }

  bool(...columns: string[]): boolean | null {
    const [v, c] = this.cell(columns);
    if (v === undefined) return null;
    if (typeof v === 'boolean') return v;
    const t = typeof v === 'string' ? v.trim().toLowerCase() : undefined;
    if (t !== undefined && ['true', 't', 'yes', 'y', '1'].includes(t)) return true;
    if (t !== undefined && ['false', 'f', 'no', 'n', '0'].includes(t)) return false;
    return this.fail('invalid_boolean', c);
  }

  /** A list: a JSON array (NULL elements dropped, other non-text elements a problem) or text split on , ; or |. */
  list(column: string): string[] | null {
    const [v] = this.cell([column]);
    if (v === undefined) return null;
    if (typeof v === 'string') return v.split(/[,;|]/).map((s) => s.trim()).filter(Boolean);
    if (!Array.isArray(v)) return this.fail('value_not_text', column);
    if (v.some((e) => e !== null && typeof e !== 'string')) return this.fail('value_not_text', column);
    return v.filter((e): e is string => e !== null);
  }

  /** A timestamp as written (text or epoch milliseconds); the normalization reads it or notes it unreadable. */
  time(column: string): SourceTime {
    const [v] = this.cell([column]);
    if (v === undefined) return null;
    return typeof v === 'string' || typeof v === 'number' ? v : this.fail('value_not_text', column);
  }

  /** A key (the row's id, an artist's studio_id): text, or a JSON integer JSON.parse kept exactly (a larger one lost digits: a problem). */
  key(column: string): string | null {
    const [v] = this.cell([column]);
    if (v === undefined) return null;
    if (typeof v === 'string') return v.trim() || null;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
    return this.fail('invalid_id', column);
  }
}
