// Connections of the cutover tools: where they connected, said in one line (host:port/db, never a
// password), and connection errors that name host:port. The legacy store is opened read-only.
import postgres from 'postgres';
import type { Sql } from '../db';
import { LEGACY_TYPES } from './legacy-types';

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
 */
export function openLegacy(url: string, opts: { max?: number } = {}): Sql {
  return postgres(url, {
    max: opts.max ?? 4,
    connect_timeout: 5,
    idle_timeout: 30,
    onnotice: () => {},
    transform: postgres.camel,
    types: LEGACY_TYPES,
    connection: { default_transaction_read_only: true, application_name: 'cutover-legacy-reader', TimeZone: 'UTC', DateStyle: 'ISO, MDY' },
  }) as unknown as Sql;
}
