// Shared bench and fault-suite plumbing: the embedded stack as `npm start` runs it (embedded
// PostgreSQL, Temporal dev server with a WAL SQLite file, the worker and the API as their own
// processes), on free loopback ports in a throwaway folder, plus real credentials. Each piece can
// be killed and started again by pid (the fault suite's faults). stop() ends everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv, pathVariable, PROJECT_ROOT } from '../../lib/config';
import { createSql, type Sql } from '../../lib/db';
import { startEmbeddedPostgres, type EmbeddedPg } from '../../lib/db/embedded';
import { migrateUp } from '../../lib/db/migrate';
import { LOCAL_ISSUER } from '../../lib/identity';
import { upsertMapping } from '../../lib/identity/actors';
import { createApiKey } from '../../lib/identity/api-keys';
import { issueLocalToken, loadOrCreateSigningKey } from '../../lib/identity/local-keys';
import type { Permission } from '../../lib/identity/permissions';
import { freePort } from '../../lib/net/free-port';
import { findTemporalCli } from '../../temporal/cli-path';
import { startDevServer, type DevServer } from '../../temporal/dev-server';

export interface BenchStack {
  dir: string;
  dataDir: string;
  apiUrl: string;
  databaseUrl: string;
  temporalAddress: string;
  taskQueue: string;
  sql: Sql;
  partner: { key: string; headers: Record<string, string>; organizationId: string };
  operator: { token: string; headers: Record<string, string> };
  apiPid: () => number | undefined;
  workerPid: () => number | undefined;
  startWorker(extraEnv?: Record<string, string>): Promise<void>;
  stopWorker(): Promise<void>;
  /** SIGKILL the worker process and wait until it is gone. */
  killWorker(): Promise<void>;
  /** Resolves when the worker process exits on its own (e.g. a fault hook killed it). */
  workerExited(): Promise<void>;
  startApi(extraEnv?: Record<string, string>): Promise<void>;
  killApi(): Promise<void>;
  stopTemporal(): Promise<void>;
  startTemporal(): Promise<void>;
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  stop(): Promise<void>;
}

export interface BenchStackOptions {
  /** Extra environment for the API and the worker (e.g. WORKER_* tuning). */
  env?: Record<string, string>;
  /** `taskset -c <cpus>` for the API and worker processes, when taskset exists. */
  serverCpus?: string;
  partnerPermissions?: Permission[];
}

const READ_PERMISSIONS: Permission[] = ['studios:read', 'search:read', 'artists:read', 'portfolios:read', 'designs:read'];

export function hasTaskset(): boolean {
  return (pathVariable() ?? '').split(':').some((d) => fs.existsSync(path.join(d, 'taskset')));
}

/** `node --import tsx <script>` from the project root, pinned with taskset to `cpus` when given and available. */
export function spawnNode(script: string, env: Record<string, string>, cpus?: string): ChildProcess {
  const args = ['--import', 'tsx', path.join(PROJECT_ROOT, script)];
  const [cmd, argv] = cpus && hasTaskset() ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
  return spawn(cmd, argv, { cwd: PROJECT_ROOT, env: childEnv(env), stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function stopChild(c: ChildProcess | undefined, graceMs = 15_000): Promise<void> {
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const done = new Promise<void>((resolve) => c.once('exit', () => resolve()));
  c.kill('SIGTERM');
  const timer = setTimeout(() => c.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
}

async function killChild(c: ChildProcess | undefined): Promise<void> {
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
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

async function waitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/v1/health/ready`, { signal: AbortSignal.timeout(3000) });
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`bench stack not ready at ${url} within ${timeoutMs} ms`);
}

export async function startBenchStack(o: BenchStackOptions = {}): Promise<BenchStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-stack-'));
  fs.chmodSync(dir, 0o755); // the unprivileged postgres user must reach its data folder
  const dataDir = path.join(dir, 'data');
  let pg: EmbeddedPg | undefined;
  let temporal: DevServer | undefined;
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let sql: Sql | undefined;
  const cleanup = async () => {
    await stopChild(api);
    await stopChild(worker);
    await sql?.end({ timeout: 5 });
    await temporal?.stop().catch(() => {});
    await pg?.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const pgPort = await freePort();
    pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: pgPort });
    await migrateUp(pg.url);
    const cli = findTemporalCli({ pathVar: pathVariable() });
    if (!cli) throw new Error('Temporal CLI not found: run `npm run setup`');
    const temporalOpts = { cliPath: cli, port: await freePort(), dbFile: path.join(dir, 'temporal.db') };
    temporal = await startDevServer(temporalOpts);
    const port = await freePort();
    const apiUrl = `http://127.0.0.1:${port}`;
    const taskQueue = 'portfolio-intake-bench';
    const env = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: pg.url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      PORT: String(port),
      ...o.env,
    };
    sql = createSql(pg.url, { max: 4 });
    const startWorker = async (extraEnv: Record<string, string> = {}) => {
      if (worker && worker.exitCode === null && worker.signalCode === null) return;
      worker = spawnNode('worker/main.ts', { ...env, ...extraEnv }, o.serverCpus);
    };
    await startWorker();
    const startApiProcess = async (extraEnv: Record<string, string> = {}) => {
      if (api && api.exitCode === null && api.signalCode === null) return;
      api = spawnNode('api/main.ts', { ...env, ...extraEnv }, o.serverCpus);
      await waitLive(apiUrl, 60_000);
    };
    await startApiProcess();
    await waitReady(apiUrl, 120_000);

    const organizationId = 'bench-tenant';
    const created = await createApiKey(sql, { organizationId, label: 'bench partner' });
    await upsertMapping(sql, {
      actorId: 'bench-partner',
      credentialKind: 'api_key',
      credentialSubject: created.keyId,
      role: 'partner',
      permissions: o.partnerPermissions ?? ['portfolio_intake:stage', ...READ_PERMISSIONS],
      organizationId,
    });
    await upsertMapping(sql, {
      actorId: 'bench-operator',
      credentialKind: 'bearer',
      credentialSubject: 'bench-operator',
      credentialIssuer: LOCAL_ISSUER,
      role: 'operator',
      permissions: ['portfolio_intake:review'],
      organizationId: 'platform',
      isHumanOperator: true,
      selfService: false,
    });
    const token = await issueLocalToken(await loadOrCreateSigningKey(dataDir), { subject: 'bench-operator', issuer: LOCAL_ISSUER, ttlSeconds: 4 * 3600 });
    const db = sql;
    return {
      dir,
      dataDir,
      apiUrl,
      databaseUrl: pg.url,
      temporalAddress: temporal.address,
      taskQueue,
      sql: db,
      partner: { key: created.key, headers: { 'x-api-key': created.key }, organizationId },
      operator: { token, headers: { authorization: `Bearer ${token}` } },
      apiPid: () => api?.pid,
      workerPid: () => worker?.pid,
      startWorker,
      stopWorker: async () => {
        await stopChild(worker);
        worker = undefined;
      },
      killWorker: async () => {
        await killChild(worker);
        worker = undefined;
      },
      workerExited: () => {
        const w = worker;
        if (!w || w.exitCode !== null || w.signalCode !== null) return Promise.resolve();
        return new Promise<void>((resolve) => w.once('exit', () => resolve()));
      },
      startApi: startApiProcess,
      killApi: async () => {
        await killChild(api);
        api = undefined;
      },
      stopTemporal: async () => {
        await temporal?.stop();
        temporal = undefined;
      },
      startTemporal: async () => {
        temporal ??= await startDevServer(temporalOpts);
      },
      stopPostgres: async () => {
        await pg?.stop();
        pg = undefined;
      },
      startPostgres: async () => {
        pg ??= await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: pgPort });
      },
      stop: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
