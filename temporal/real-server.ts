// The real Temporal server (issue 37): the pinned temporal-server binary with PostgreSQL persistence
// and SQL visibility in databases of its own, set up by temporal-sql-tool, and the Web UI
// (ui-server) in front of it. What production runs, on one machine: `npm start -- --temporal server`
// and the real-server e2e test. The binaries come from `npm run setup -- --only temporal-server`
// (scripts/tools/temporal-server.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection, type TLSConfig } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { childEnv } from '../lib/config';
import { withPrivateUmask } from '../lib/umask';
import { DevServerExitedError, launcherAccess, waitForTemporal, type DevServer } from './dev-server';
import { dynamicConfigLimits } from './limits';
import { SEARCH_ATTRIBUTES } from './search-attributes';
import { clientTlsOf, sdkTlsOf, serverTlsConfig, type ClusterTls } from './cluster-tls';
import { authorizationConfig, launcherAdminToken, startArgs, writeJwks, type RealServerAuth } from './real-server-auth';

export interface RealServerBinaries {
  server: string;
  sqlTool: string;
  /** schema/postgresql/v12 of the server's module: temporal/ and visibility/, each with versioned/. */
  schemaDir: string;
  /** The Web UI's server (temporalio/ui-server); absent: no Web UI. */
  uiServer?: string | undefined;
}

export interface RealServerOptions {
  bin: RealServerBinaries;
  /** The PostgreSQL the server keeps its databases in (an owner that may create databases). */
  postgres: { host: string; port: number; user: string; password: string };
  /** The databases' names (default temporal, temporal_visibility). */
  databases?: { main: string; visibility: string };
  /** Where its configuration and logs go. */
  dir: string;
  /** The frontend's gRPC port (serverPort() when the caller has none); the other services take their own from serverPort(). */
  port: number;
  uiPort?: number | undefined;
  /** The API's codec endpoint for the Web UI (sent with the operator's cookie: includeCredentials). */
  uiCodecEndpoint?: string | undefined;
  namespace?: string;
  log?: (line: string) => void;
  readyTimeoutMs?: number;
  /**
   * The frontend runs the JWT authorizer and the default claim mapper, trusting this key's public
   * half (TEMPORAL_AUTH=jwt): a caller without a token it signed is refused. Absent: no authorizer.
   */
  auth?: RealServerAuth | undefined;
  /**
   * mTLS inside the cluster (temporal/cluster-tls.ts): internode TLS with client certificates on
   * every service port and the frontend requiring a client certificate of the client CA. The
   * launcher and the Web UI's server connect with their own. Absent: plain gRPC on loopback.
   */
  tls?: ClusterTls | undefined;
}

/**
 * How temporal-sql-tool is called: the password by environment (the tool reads SQL_PASSWORD), never
 * on the command line, where any local user reads it in /proc/<pid>/cmdline while the tool runs.
 */
export function sqlToolCall(o: Pick<RealServerOptions, 'postgres'>, db: string, args: string[]): { args: string[]; env: NodeJS.ProcessEnv } {
  const p = o.postgres;
  return { args: ['--plugin', 'postgres12', '--ep', p.host, '-p', String(p.port), '-u', p.user, '--db', db, ...args], env: childEnv({ SQL_PASSWORD: p.password }) };
}

/** Run temporal-sql-tool; throws with its output unless it succeeds (or says `okIf`). */
function sqlTool(o: RealServerOptions, db: string, args: string[], okIf?: RegExp): void {
  const call = sqlToolCall(o, db, args);
  const r = spawnSync(o.bin.sqlTool, call.args, { encoding: 'utf8', env: call.env, timeout: 120_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status === 0 || (okIf && okIf.test(out))) return;
  // Never the password: the tool does not echo it, and only its last lines are kept.
  throw new Error(`temporal-sql-tool ${args[0]} on ${db} failed: ${out.trim().split('\n').slice(-4).join(' | ').slice(0, 800)}`);
}

/** The two databases and their schemas at the binary's version (idempotent: a second start only checks). */
export function setupSchemas(o: RealServerOptions): void {
  const dbs = o.databases ?? { main: 'temporal', visibility: 'temporal_visibility' };
  for (const [db, dir] of [
    [dbs.main, 'temporal'],
    [dbs.visibility, 'visibility'],
  ] as const) {
    sqlTool(o, db, ['create-database'], /already exists/);
    sqlTool(o, db, ['setup-schema', '-v', '0.0'], /already exists/);
    sqlTool(o, db, ['update-schema', '-d', path.join(o.bin.schemaDir, dir, 'versioned')]);
  }
}

const yamlString = (s: string) => JSON.stringify(s);

/**
 * A free loopback port below 32768, for every port of the server. The cluster membership table
 * keeps ports in a smallint, so an ephemeral port (what binding port 0 gives, 32768 and up here)
 * stops the server at its start; and the server binds its ports seconds after they are picked, so a
 * port from the ephemeral range could meanwhile be handed to another process binding port 0 (a
 * stack beside this one picking its API port: it then never started). Random in 20000-31999,
 * checked free when picked.
 */
export async function serverPort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free loopback port below 32768 for the Temporal server');
}

/** The server's configuration: one process runs every service on loopback, persistence and visibility in PostgreSQL. */
export async function serverConfig(o: RealServerOptions): Promise<string> {
  const p = o.postgres;
  const dbs = o.databases ?? { main: 'temporal', visibility: 'temporal_visibility' };
  const store = (db: string, conns: number) => [
    '      sql:',
    '        pluginName: "postgres12"',
    `        databaseName: ${yamlString(db)}`,
    `        connectAddr: ${yamlString(`${p.host}:${p.port}`)}`,
    '        connectProtocol: "tcp"',
    `        user: ${yamlString(p.user)}`,
    `        password: ${yamlString(p.password)}`,
    `        maxConns: ${conns}`,
    `        maxIdleConns: ${conns}`,
    '        maxConnLifetime: "1h"',
  ];
  const service = async (name: string, grpcPort: number, extra: string[] = []) => [
    `  ${name}:`,
    '    rpc:',
    `      grpcPort: ${grpcPort}`,
    `      membershipPort: ${await serverPort()}`,
    '      bindOnLocalHost: true',
    ...extra,
  ];
  return [
    'log:',
    '  stdout: true',
    '  level: warn',
    'persistence:',
    '  defaultStore: postgres-default',
    '  visibilityStore: postgres-visibility',
    '  numHistoryShards: 4',
    '  datastores:',
    '    postgres-default:',
    ...store(dbs.main, 20),
    '    postgres-visibility:',
    ...store(dbs.visibility, 4),
    'global:',
    '  membership:',
    '    maxJoinDuration: 30s',
    '    broadcastAddress: "127.0.0.1"',
    ...(o.auth ? authorizationConfig(o.dir).map((line) => `  ${line}`) : []),
    ...(o.tls ? serverTlsConfig(o.tls).map((line) => `  ${line}`) : []),
    'services:',
    ...(await service('frontend', o.port, [`      httpPort: ${await serverPort()}`])),
    // With an authorizer, the door of the server's own worker service (real-server-auth.ts startArgs),
    // gRPC only: its HTTP port would serve the public frontend's certificate to internode callers.
    ...(o.auth || o.tls ? await service('internal-frontend', await serverPort()) : []),
    ...(await service('matching', await serverPort())),
    ...(await service('history', await serverPort())),
    ...(await service('worker', await serverPort())),
    'clusterMetadata:',
    '  enableGlobalNamespace: false',
    '  failoverVersionIncrement: 10',
    '  masterClusterName: "active"',
    '  currentClusterName: "active"',
    '  clusterInformation:',
    '    active:',
    '      enabled: true',
    '      initialFailoverVersion: 1',
    '      rpcName: "frontend"',
    `      rpcAddress: "127.0.0.1:${o.port}"`,
    'dcRedirectionPolicy:',
    '  policy: "noop"',
    'dynamicConfigClient:',
    `  filepath: ${yamlString(path.join(o.dir, 'dynamicconfig.yaml'))}`,
    '  pollInterval: "10s"',
    '',
  ].join('\n');
}

/** With mTLS, the membership ports (ringpop) take the internode TLS too. */
export const RINGPOP_TLS_CONFIG = ['system.enableRingpopTLS:', '  - value: true', ''].join('\n');

/** What the dev server is started with too (temporal/dev-server.ts), and what docs/deploy.md asks of a cluster. */
export const DYNAMIC_CONFIG = [
  ...dynamicConfigLimits(),
  'frontend.enableUpdateWorkflowExecution:',
  '  - value: true',
  'frontend.enableUpdateWorkflowExecutionAsyncAccepted:',
  '  - value: true',
  'frontend.workerVersioningWorkflowAPIs:',
  '  - value: true',
  'system.enableDeploymentVersions:',
  '  - value: true',
  '',
].join('\n');

/** Create the namespace and the search attributes the service filters on (idempotent). */
async function registerNamespace(address: string, namespace: string, access: { apiKey?: string | undefined; tls?: TLSConfig | undefined }): Promise<void> {
  const conn = await Connection.connect({ address, ...launcherAccess(access) });
  try {
    try {
      await conn.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('3 days') });
    } catch (err) {
      if (!/already exists|AlreadyExists/i.test((err as Error).message)) throw err;
    }
    // temporal.api.enums.v1.IndexedValueType
    const types: Record<string, number> = { Text: 1, Keyword: 2, Int: 3, Double: 4, Bool: 5, Datetime: 6, KeywordList: 7 };
    const searchAttributes = Object.fromEntries(Object.entries(SEARCH_ATTRIBUTES).map(([name, type]) => [name, types[type] ?? 2]));
    // The namespace is served by the frontend a moment after it is registered.
    for (let i = 0; i < 60; i++) {
      try {
        await conn.operatorService.addSearchAttributes({ namespace, searchAttributes });
        return;
      } catch (err) {
        if (/already exists|AlreadyExists/i.test((err as Error).message)) return;
        if (i === 59) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } finally {
    await conn.close();
  }
}

function spawnLogged(cmd: string, args: string[], o: { cwd: string; log: (line: string) => void; env?: Record<string, string> }) {
  const child = withPrivateUmask(() => spawn(cmd, args, { cwd: o.cwd, env: childEnv(o.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'] }));
  const tail: string[] = [];
  let exited: string | undefined;
  const keep = (d: Buffer) => {
    const text = d.toString().trim();
    if (!text) return;
    o.log(text);
    tail.push(...text.split('\n'));
    tail.splice(0, Math.max(0, tail.length - 5));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('exit', (code, signal) => (exited = `${path.basename(cmd)} exited (code ${code}, signal ${signal}): ${tail.join(' | ').slice(0, 600)}`));
  return { child, exited: () => exited };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await done;
  clearTimeout(timer);
}

/** Set up the schemas, start the server (and the Web UI), wait until the namespace serves. */
export async function startRealServer(o: RealServerOptions): Promise<DevServer> {
  const log = o.log ?? (() => {});
  const namespace = o.namespace ?? 'default';
  fs.mkdirSync(path.join(o.dir, 'config'), { recursive: true, mode: 0o700 });
  setupSchemas(o);
  fs.writeFileSync(path.join(o.dir, 'config', 'development.yaml'), await serverConfig(o), { mode: 0o600 });
  fs.writeFileSync(path.join(o.dir, 'dynamicconfig.yaml'), DYNAMIC_CONFIG + (o.tls ? RINGPOP_TLS_CONFIG : ''));
  if (o.auth) writeJwks(o.dir, o.auth);
  const server = spawnLogged(o.bin.server, ['--config-file', path.join(o.dir, 'config', 'development.yaml'), ...startArgs(o.auth, !!(o.auth || o.tls))], { cwd: o.dir, log });
  const adminKey = o.auth ? launcherAdminToken(o.auth) : undefined;
  const launcherTls = o.tls ? sdkTlsOf(clientTlsOf(o.tls, 'launcher')) : undefined;
  const address = `127.0.0.1:${o.port}`;
  let ui: ReturnType<typeof spawnLogged> | undefined;
  const stop = async () => {
    if (ui) await stopProcess(ui.child);
    await stopProcess(server.child);
  };
  try {
    // The frontend serves before the namespace exists: health first, then the namespace.
    await waitForTemporal(address, o.readyTimeoutMs ?? 120_000, server.exited, null, { tls: launcherTls });
    await registerNamespace(address, namespace, { apiKey: adminKey, tls: launcherTls });
    await waitForTemporal(address, 60_000, server.exited, namespace, { apiKey: adminKey, tls: launcherTls });
    if (o.bin.uiServer && o.uiPort !== undefined) {
      const uiDir = path.join(o.dir, 'ui');
      fs.mkdirSync(path.join(uiDir, 'config'), { recursive: true, mode: 0o700 });
      fs.writeFileSync(
        path.join(uiDir, 'config', 'development.yaml'),
        [
          `temporalGrpcAddress: ${yamlString(address)}`,
          'host: "127.0.0.1"',
          `port: ${o.uiPort}`,
          'enableUi: true',
          // No outside newsfeed: the stack reaches nothing beyond this machine on its own.
          'disableNewsFetch: true',
          `defaultNamespace: ${yamlString(namespace)}`,
          // The API's codec endpoint decodes payloads for the operator signed in to the console.
          ...(o.uiCodecEndpoint ? ['codec:', `  endpoint: ${yamlString(o.uiCodecEndpoint)}`, '  includeCredentials: true'] : []),
          // The ui-server has no token of its own: it passes each request's Authorization header on
          // (grpc-gateway), so the Web UI shows what the caller's token may read; it offers no writes.
          ...(o.auth ? ['disableWriteActions: true'] : []),
          // With mTLS, its own client certificate to the frontend (it has no token: see above).
          ...(o.tls ? uiTlsConfig(o.tls) : []),
          '',
        ].join('\n'),
      );
      ui = spawnLogged(o.bin.uiServer, ['--root', uiDir, '--config', 'config', '--env', 'development', 'start'], { cwd: uiDir, log });
      await waitForUi(`http://127.0.0.1:${o.uiPort}`, 30_000, ui.exited);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, uiUrl: ui ? `http://127.0.0.1:${o.uiPort}` : undefined, process: server.child, stop };
}

/** The ui-server's `tls` block: the client CA's certificate made for it, the cluster CA to check the frontend. */
function uiTlsConfig(tls: ClusterTls): string[] {
  const c = clientTlsOf(tls, 'ui-server');
  return ['tls:', `  caFile: ${yamlString(c.ca)}`, `  certFile: ${yamlString(c.cert)}`, `  keyFile: ${yamlString(c.key)}`, `  serverName: ${yamlString(c.serverName)}`, '  enableHostVerification: true'];
}

/** The Web UI answers its page. */
async function waitForUi(url: string, timeoutMs: number, failed: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const why = failed();
    if (why) throw new DevServerExitedError(why);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Temporal Web UI at ${url} not answering after ${timeoutMs} ms`);
}
