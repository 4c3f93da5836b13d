// How values of the legacy store are read: every value its schema allows comes out as something
// the service can hold and write again. A timestamp outside the years 1..9999 (`infinity`,
// `-infinity`, BC, beyond year 9999: no Date or no ISO 8601 text PostgreSQL reads back) reads as null
// (unknown), never as an Invalid Date; the others are read exactly, years below 100 included (the
// session's time zone is UTC).

const TIMESTAMP = /^(\d{4,})-(\d\d)-(\d\d)(?: (\d\d):(\d\d):(\d\d)(\.\d{1,6})?)?(?:([+-])(\d\d)(?::?(\d\d))?(?::(\d\d))?)?( BC)?$/;

/** A PostgreSQL date, timestamp or timestamptz as text (DateStyle ISO) -> a Date, or null outside the years 1..9999. */
export function legacyTimestamp(text: string): Date | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const year = m[12] ? 1 - Number(m[1]) : Number(m[1]);
  const ms = m[7] ? Math.floor(Number(m[7]) * 1000) : 0;
  const d = new Date(0);
  d.setUTCFullYear(year, Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), ms);
  if (m[8]) {
    const offsetS = Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0);
    d.setTime(d.getTime() - (m[8] === '-' ? -1 : 1) * offsetS * 1000);
  }
  const y = d.getUTCFullYear();
  return Number.isNaN(d.getTime()) || y < 1 || y > 9999 ? null : d;
}

/** postgres.js `types` of a legacy connection: date (1082), timestamp (1114) and timestamptz (1184) through legacyTimestamp. */
export const LEGACY_TYPES = {
  legacyTimestamp: {
    to: 1184,
    from: [1082, 1114, 1184],
    serialize: (x: Date | string) => (x instanceof Date ? x : new Date(x)).toISOString(),
    parse: legacyTimestamp,
  },
};
