// What a long-running process (the worker, the API) does with an error nobody caught. One known
// fault of postgres.js is survivable: when PostgreSQL dies under load, a write can be scheduled on
// a connection whose socket has just been closed, and connection.js throws
// `TypeError: Cannot read properties of null (reading 'write')` outside any query's promise
// (upstream porsager/postgres, no fix released). The connection is already gone and the pool
// opens a new one on the next query, so the process goes on. So is a second one: the array-type
// lookup postgres.js sends on every new connection (not awaited by anyone) rejects when PostgreSQL
// drops that connection mid-query; the next connection looks the types up again. Anything else is a state the process
// cannot vouch for: it is logged and the process exits non-zero, so that its supervisor (the
// launcher, systemd, Kubernetes) restarts it.

/** The exit code of a process that stopped on an error nobody caught. */
export const EXIT_UNCAUGHT = 70;

/** The postgres.js closed-socket fault (see above), recognised by its message and where it was thrown. */
export function isPostgresClosedSocketFault(err: unknown): boolean {
  // Also an error serialised across processes (vitest's unhandled-error callback): by name, not class.
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: unknown; message?: unknown; stack?: unknown };
  if (!(err instanceof TypeError) && e.name !== 'TypeError') return false;
  if (typeof e.message !== 'string' || !/^Cannot read properties of null \(reading '(write|end|destroy|removeListener|removeAllListeners|once)'\)$/.test(e.message)) return false;
  const top = (typeof e.stack === 'string' ? e.stack : '').split('\n').slice(1, 4).join('\n');
  return /[\\/]postgres[\\/](cjs[\\/])?src[\\/]connection\.js/.test(top);
}

/** postgres.js's array-type lookup (connection.js fetchArrayTypes, sent on each new connection) lost with its connection. */
export function isPostgresTypeFetchLost(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; query?: unknown };
  const lost = ['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED'];
  return typeof e.code === 'string' && lost.includes(e.code) && typeof e.query === 'string' && /from pg_catalog\.pg_type a\s+left join pg_catalog\.pg_type b on b\.oid = a\.typelem/.test(e.query);
}

/** The postgres.js faults a process survives (see above). */
export const isSurvivablePostgresFault = (err: unknown): boolean => isPostgresClosedSocketFault(err) || isPostgresTypeFetchLost(err);

export interface GuardLog {
  warn(obj: object, msg: string): void;
  fatal(obj: object, msg: string): void;
}

export interface GuardOptions {
  log: GuardLog;
  name: string;
  onFatal?: () => Promise<void>;
  fatalGraceMs?: number;
  exit?: (code: number) => void;
  /** Where one line about the fatal error also goes (the log may be a stdout nobody reads, as a launcher's child's can be): installProcessGuard writes it to stderr. */
  stderr?: (line: string) => void;
}

/** What the guard does with one uncaught error (exported for the unit test). */
export function guardHandler(o: GuardOptions): (err: unknown, origin: string) => void {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let survived = 0;
  let dying = false;
  const handle = (err: unknown, origin: string) => {
    if (isSurvivablePostgresFault(err)) {
      survived++;
      o.log.warn({ origin, survived }, `${o.name}: survived a postgres.js fault of a lost PostgreSQL connection (${isPostgresTypeFetchLost(err) ? 'its array-type lookup' : 'a closed socket'}); the pool reconnects`);
      return;
    }
    if (dying) return;
    dying = true;
    o.stderr?.(`${o.name}: uncaught ${origin}: ${err instanceof Error ? (err.stack ?? err.message).split('\n').slice(0, 6).join('\n') : String(err).slice(0, 500)}\n`);
    o.log.fatal({ origin, err: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) }, `${o.name}: uncaught ${origin}; exiting with code ${EXIT_UNCAUGHT} for the supervisor to restart it`);
    const timer = setTimeout(() => exit(EXIT_UNCAUGHT), o.fatalGraceMs ?? 5000);
    timer.unref();
    void (o.onFatal?.() ?? Promise.resolve()).catch(() => undefined).finally(() => exit(EXIT_UNCAUGHT));
  };
  return handle;
}

/**
 * Install the process's handlers for uncaught exceptions and unhandled rejections. `onFatal`
 * runs before the exit (best effort, bounded by `fatalGraceMs`).
 */
export function installProcessGuard(o: GuardOptions): () => void {
  const handle = guardHandler({ stderr: (line) => void process.stderr.write(line), ...o });
  const onException = (err: unknown) => handle(err, 'exception');
  const onRejection = (err: unknown) => handle(err, 'rejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
