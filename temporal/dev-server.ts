// Launches the official Temporal dev server (`temporal server start-dev`) as a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv } from '../lib/config';
import { withPrivateUmask } from '../lib/umask';
import fs from 'node:fs';
import path from 'node:path';
import { Connection, type TLSConfig } from '@temporalio/client';
import { devServerLimitArgs } from './limits';
import { SEARCH_ATTRIBUTES } from './search-attributes';

export interface DevServer {
  address: string;
  uiUrl: string | undefined;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  cliPath: string;
  port: number;
  uiPort?: number; // omitted: headless
  /** The API's codec endpoint (TEMPORAL_CODEC_BASE), so the Web UI shows encrypted payloads decoded to operators. */
  uiCodecEndpoint?: string;
  dbFile?: string; // omitted: in memory
  namespace?: string;
  log?: (line: string) => void;
  readyTimeoutMs?: number;
  /** Dynamic config keys set otherwise than temporal/limits.ts (tests: a history bound lower than the project's). */
  limitsOver?: Record<string, number>;
}


export function devServerArgs(o: DevServerOptions): string[] {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(o.port), '--log-level', 'warn'];
  args.push('--namespace', o.namespace ?? 'default');
  // The Web UI fetches no outside newsfeed: the stack reaches nothing beyond this machine on its own.
  if (o.uiPort !== undefined) args.push('--ui-port', String(o.uiPort), '--ui-disable-news-fetch', ...(o.uiCodecEndpoint ? ['--ui-codec-endpoint', o.uiCodecEndpoint] : []));
  else args.push('--headless');
  if (o.dbFile) {
    // File SQLite with default pragmas is an order of magnitude slower; WAL + NORMAL keeps it durable enough for dev.
    args.push('--db-filename', o.dbFile, '--sqlite-pragma', 'journal_mode=WAL', '--sqlite-pragma', 'synchronous=NORMAL');
  }
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);
  // Payload, signal and history limits (temporal/limits.ts; docs/deploy.md sets the same on a cluster):
  // a flood sent around the API is refused at the frontend instead of growing a run past them.
  args.push(...devServerLimitArgs(o.limitsOver));
  return args;
}

/** Thrown when the dev server process ends before it serves (as opposed to never answering). */
export class DevServerExitedError extends Error {}

export async function startDevServer(o: DevServerOptions): Promise<DevServer> {
  if (o.dbFile) fs.mkdirSync(path.dirname(o.dbFile), { recursive: true });
  const child = withPrivateUmask(() => spawn(o.cliPath, devServerArgs(o), { env: childEnv({}), stdio: ['ignore', 'pipe', 'pipe'] }));
  const log = o.log ?? (() => {});
  let exited: string | undefined;
  // The last lines it wrote, so a start that fails says why (a port taken, a bad flag).
  const tail: string[] = [];
  const keep = (d: Buffer) => {
    const text = d.toString().trim();
    log(text);
    tail.push(...text.split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 5));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('exit', (code, signal) => {
    exited = `temporal dev server exited (code ${code}, signal ${signal})${tail.length ? `: ${tail.join(' | ').slice(0, 600)}` : ''}`;
  });
  const address = `127.0.0.1:${o.port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await done;
    clearTimeout(timer);
  };
  try {
    await waitForTemporal(address, o.readyTimeoutMs ?? 60_000, () => exited);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, uiUrl: o.uiPort !== undefined ? `http://127.0.0.1:${o.uiPort}` : undefined, process: child, stop };
}

/**
 * Poll the gRPC health of a Temporal frontend until it answers SERVING and, unless `namespace` is
 * null (a server that registers it afterwards), serves that namespace.
 */
/** A launcher's own connection options: a token (explicit TLS then, plain unless a certificate is given) and/or its client certificate. */
export function launcherAccess(access: { apiKey?: string | undefined; tls?: TLSConfig | undefined }): { apiKey?: string; tls?: TLSConfig | false } {
  return { ...(access.apiKey ? { apiKey: access.apiKey } : {}), ...(access.apiKey || access.tls ? { tls: access.tls ?? false } : {}) };
}

export async function waitForTemporal(
  address: string,
  timeoutMs: number,
  failed: () => string | undefined = () => undefined,
  namespace: string | null = 'default',
  /** A token for a frontend with an authorizer (the health check itself needs none), and a client certificate for one that requires it. */
  access: { apiKey?: string | undefined; tls?: TLSConfig | undefined } = {},
) {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'not reached';
  while (Date.now() < deadline) {
    const why = failed();
    if (why) throw new DevServerExitedError(why);
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000, ...launcherAccess(access) });
      try {
        const res = await conn.healthService.check({}, );
        if (res.status === 1) {
          // The namespace is created right after the frontend starts serving.
          if (namespace !== null) await conn.workflowService.describeNamespace({ namespace });
          return;
        }
      } finally {
        await conn.close();
      }
    } catch (err) {
      lastError = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Temporal at ${address} not ready after ${timeoutMs} ms: ${lastError}`);
}
