// text[] as the legacy connection reads and writes it. postgres.js reads an array's NULL element as
// the string "NULL" (it does not tell `{NULL}` from `{"NULL"}`), which the normalization cannot undo;
// this parser gives null for an unquoted NULL and the text for a quoted one.

/** Parse a text[] literal (`{a,"b c",NULL}`; nested arrays as nested lists). */
export function parseTextArray(literal: string): unknown[] {
  let i = 0;
  const list = (): unknown[] => {
    const out: unknown[] = [];
    i++; // '{'
    while (i < literal.length) {
      const c = literal[i]!;
      if (c === '}') {
        i++;
        return out;
      }
      if (c === ',') {
        i++;
        continue;
      }
      if (c === '{') {
        out.push(list());
        continue;
      }
      if (c === '"') {
        let s = '';
        for (i++; i < literal.length && literal[i] !== '"'; i++) s += literal[i] === '\\' ? literal[++i] : literal[i];
        i++;
        out.push(s);
        continue;
      }
      let j = i;
      while (j < literal.length && literal[j] !== ',' && literal[j] !== '}') j++;
      const bare = literal.slice(i, j);
      out.push(bare.toUpperCase() === 'NULL' ? null : bare);
      i = j;
    }
    return out;
  };
  // an explicit lower bound (`[0:1]={a,b}`) is dropped
  i = literal.indexOf('{');
  return i < 0 ? [] : list();
}

/** A text[] literal of a list (nested lists as nested arrays; null as NULL). */
export function serializeTextArray(xs: unknown): string {
  if (!Array.isArray(xs)) return String(xs);
  return `{${xs.map((x) => (Array.isArray(x) ? serializeTextArray(x) : x === null || x === undefined ? 'NULL' : `"${String(x).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

/** The postgres.js custom type that reads and writes text[] (oid 1009) as above. */
export const TEXT_ARRAY_TYPE = { to: 1009, from: [1009], serialize: serializeTextArray, parse: parseTextArray };
