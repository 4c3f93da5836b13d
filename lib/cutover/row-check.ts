// The text fields of one source row, checked before normalization: a value that is not text (an
// object, a number) or text the runtime cannot store (a NUL, a lone surrogate) rejects the row;
// NULL elements of a text array are dropped by the normalization; bytes that were not UTF-8 (read
// as U+FFFD from a SQL_ASCII store) are kept and noted.
import { hasReplacementChar, textProblem } from './values';

export type TextRejection = 'value_not_text' | 'invalid_text';

export interface TextCheck {
  /** The first problem, and its note (`<reason>:<field>`). */
  reject?: { reason: TextRejection; note: string };
  notUtf8: boolean;
}

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Check the named text fields (`tags[]`: a text array, its NULL elements allowed) of a row. */
export function checkText(row: object, fields: readonly string[]): TextCheck {
  const r = row as Record<string, unknown>;
  let notUtf8 = false;
  const one = (v: unknown, field: string): TextCheck['reject'] => {
    if (typeof v !== 'string') return { reason: 'value_not_text', note: `value_not_text:${snake(field)}` };
    if (textProblem(v)) return { reason: 'invalid_text', note: `invalid_text:${snake(field)}` };
    notUtf8 ||= hasReplacementChar(v);
    return undefined;
  };
  for (const f of fields) {
    const array = f.endsWith('[]');
    const name = array ? f.slice(0, -2) : f;
    const v = r[name];
    if (v === null || v === undefined) continue;
    if (!array) {
      const bad = one(v, name);
      if (bad) return { reject: bad, notUtf8 };
      continue;
    }
    if (!Array.isArray(v)) return { reject: { reason: 'value_not_text', note: `value_not_text:${snake(name)}` }, notUtf8 };
    for (const e of v) {
      const bad = e === null ? undefined : one(e, name);
      if (bad) return { reject: bad, notUtf8 };
    }
  }
  return { notUtf8 };
}
