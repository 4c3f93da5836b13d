// Errors that mean "PostgreSQL is not reachable right now" (down, restarting, connection lost),
// as opposed to an error in a query: the API answers 503 with Retry-After for these, never 500.
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const POSTGRES_JS_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);
// SQLSTATE class 08 (connection exception), 57P01..57P03 (shutdown, crash, cannot connect now).
const SQLSTATE = /^(08...|57P0[123])$/;

export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; errors?: unknown[] } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NODE_CODES.has(code) || POSTGRES_JS_CODES.has(code)) return true;
  if (e.name === 'PostgresError' && SQLSTATE.test(code)) return true;
  // AggregateError from a dual-stack connect attempt
  return Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable);
}
