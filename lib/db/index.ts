import postgres from 'postgres';

export type Sql = postgres.Sql;

/**
 * The process's pool. With `directUrl` (DATABASE_DIRECT_URL), `url` is a pooler in transaction mode
 * (PgBouncer): a server connection is ours for one transaction only, so no prepared statements
 * (they would be looked up on another connection), and `listen` (postgres.js keeps a connection of
 * its own for it) goes to `directUrl`, where the session that LISTENs is the one notified.
 */
export function createSql(url: string, opts: { max?: number; connectTimeoutSeconds?: number; directUrl?: string | undefined } = {}): Sql {
  const options = (u: string) =>
    postgres(u, {
      max: opts.max ?? 10,
      connect_timeout: opts.connectTimeoutSeconds ?? 5,
      idle_timeout: 30,
      onnotice: () => {},
      // Convert snake_case columns to camelCase in results, so query modules return plain objects.
      transform: postgres.camel,
      ...(opts.directUrl ? { prepare: false } : {}),
    });
  const sql = options(url);
  if (!opts.directUrl) return sql;
  const direct = options(opts.directUrl);
  const end = sql.end.bind(sql);
  return Object.assign(sql, {
    listen: direct.listen.bind(direct),
    end: async (o?: { timeout?: number }) => {
      await Promise.all([end(o), direct.end(o)]);
    },
  }) as Sql;
}

/** Round-trip time of `select 1`, or an error. Used by health. */
export async function pingDatabase(sql: Sql, timeoutMs = 2000): Promise<{ ok: true; ms: number } | { ok: false; ms: number; error: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      sql`select 1`,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('database ping timed out')), timeoutMs);
      }),
    ]);
    return { ok: true, ms: Math.round((performance.now() - started) * 100) / 100 };
  } catch (err) {
    return { ok: false, ms: Math.round(performance.now() - started), error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** A query runner: the pool or a transaction (query functions accept either). */
export type Tx = Sql | postgres.TransactionSql;
