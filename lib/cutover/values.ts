// Source values at the edges of what their columns allow: timestamps that are infinite or beyond
// what the runtime can write, ids beyond 2^53, text the runtime cannot store. Pure.

/** Years a runtime timestamp is written in (ISO strings outside them do not read back in PostgreSQL). */
const FIRST_MS = Date.UTC(1, 0, 1);
const LAST_MS = Date.UTC(10_000, 0, 1) - 1;

/**
 * A source timestamp as an ISO string: a Date, an ISO text or epoch milliseconds. Null when absent;
 * 'unreadable' when infinite (`infinity`, `-infinity`), invalid, or outside the years 1..9999.
 */
export function timestampOf(v: unknown): string | null | 'unreadable' {
  if (v === null || v === undefined || v === '') return null;
  const ms = v instanceof Date ? v.getTime() : typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms) || ms < FIRST_MS || ms > LAST_MS) return 'unreadable';
  return new Date(ms).toISOString();
}

/** timestampOf, unreadable as null: for a column that only records when. */
export function isoOrNull(v: unknown): string | null {
  const t = timestampOf(v);
  return t === 'unreadable' ? null : t;
}

/** A rank (an id or a line number) as a canonical decimal string: exact for every bigint. */
export function rankText(rank: bigint | number | string): string {
  return BigInt(rank).toString();
}

/** Compare two canonical decimal ranks as integers. */
export function compareRanks(a: string, b: string): number {
  const [x, y] = [BigInt(a), BigInt(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

export const INT4_MAX = 2_147_483_647;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text cannot be stored (PostgreSQL text holds no NUL; UTF-8 has no lone surrogates), or null. */
export function textProblem(text: string): 'nul' | 'lone_surrogate' | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'lone_surrogate';
  return null;
}

/** U+FFFD: what bytes that were not UTF-8 (a SQL_ASCII store) decode to. */
export const hasReplacementChar = (text: string) => text.includes('\uFFFD');
