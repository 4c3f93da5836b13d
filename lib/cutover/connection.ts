// Connections of the cutover tools: where they connected, said in one line (host:port/db, never a
// password), and connection errors that name host:port. The legacy store is opened read-only.
import postgres from 'postgres';
import type { Sql } from '../db';
import { LEGACY_TYPES } from './legacy-types';
import { TEXT_ARRAY_TYPE } from './text-arrays';

/** `host:port/db` of a PostgreSQL URL: what a tool may print (never the user or password). */
export function whereOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname || '/'}`;
  } catch {
    return '(unparseable URL)';
  }
}

/** An error message that names the place, never the URL. */
export function connectionProblem(url: string, err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const what = e.code === 'ECONNREFUSED' ? 'connection refused' : e.code === 'ENOTFOUND' ? 'host not found' : e.message;
  return `cannot use PostgreSQL at ${whereOf(url)}: ${what}`;
}

/**
 * The legacy store, read-only: every transaction of this session is READ ONLY
 * (default_transaction_read_only), so a mistake in our code cannot write to it. Its time zone is UTC
 * and its timestamps are read by legacyTimestamp (a value a Date cannot hold reads as null).
 *
 * Its text comes as stored (client_encoding SQL_ASCII: no conversion): a UTF8 store sends the same
 * bytes as with UTF8, and a SQL_ASCII store, whose text may hold any bytes, sends them instead of
 * failing the whole query on the first byte that is not UTF-8; those bytes read as U+FFFD and the
 * normalization notes the row (text_not_utf8). Stores in another server encoding (LATIN1, ...) are
 * not supported. A NULL element of a text[] reads as null (text-arrays.ts).
 */
export function openLegacy(url: string, opts: { max?: number } = {}): Sql {
  return postgres(url, {
    max: opts.max ?? 4,
    connect_timeout: 5,
    idle_timeout: 30,
    onnotice: () => {},
    transform: postgres.camel,
    types: { ...LEGACY_TYPES, textArray: TEXT_ARRAY_TYPE },
    connection: { default_transaction_read_only: true, application_name: 'cutover-legacy-reader', TimeZone: 'UTC', DateStyle: 'ISO, MDY', client_encoding: 'SQL_ASCII' },
  }) as unknown as Sql;
}
