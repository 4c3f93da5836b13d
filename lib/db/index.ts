import postgres from 'postgres';

export type Sql = postgres.Sql;

export function createSql(url: string, opts: { max?: number; connectTimeoutSeconds?: number } = {}): Sql {
  return postgres(url, {
    max: opts.max ?? 10,
    connect_timeout: opts.connectTimeoutSeconds ?? 5,
    idle_timeout: 30,
    onnotice: () => {},
    // Convert snake_case columns to camelCase in results, so query modules return plain objects.
    transform: postgres.camel,
  });
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
