// The running embedded stack's own account of where it runs: `npm start` writes DATA_DIR/stack.json
// (ports, URLs, pids) and keeps it current, so that every tool connects to the stack it was
// started beside, never to another one on the default ports.
import fs from 'node:fs';
import path from 'node:path';

export const RUN_FILE = 'stack.json';

/** The pieces the launcher supervises. */
export type StackPart = 'api' | 'worker' | 'webhooks' | 'temporal' | 'postgres' | 'haproxy' | 'pgbouncer' | 'opensearch';

export interface RunFile {
  launcherPid: number;
  apiUrl: string | undefined;
  databasePort: number | undefined;
  /** With `--pooler`: PgBouncer's port, where the API and worker processes send their queries. */
  poolerPort?: number;
  temporalAddress: string;
  /** With mTLS (the real server's default): on-call's client certificate, the CA and the frontend's name (paths). */
  temporalTls?: { ca: string; cert: string; key: string; serverName: string };
  uiUrl: string | undefined;
  /** With `--search opensearch`: the node's HTTP URL (`npm run search` connects there); its pid is pids.opensearch. */
  searchUrl?: string;
  pids: Partial<Record<StackPart, number>>;
  /** With `--replicas N`: each replica's API origin and pids (apiUrl above is HAProxy's). */
  replicas?: { apiUrl: string; api: number | undefined; worker: number | undefined }[];
  restarts: Partial<Record<StackPart, number>>;
  updatedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The run file of the stack running on DATA_DIR, if its launcher still runs (a stale file is ignored). */
export function readRunFile(dataDir: string): RunFile | undefined {
  try {
    const run = JSON.parse(fs.readFileSync(path.join(dataDir, RUN_FILE), 'utf8')) as RunFile;
    return Number.isInteger(run.launcherPid) && alive(run.launcherPid) ? run : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Remove DATA_DIR/stack.json if it is this launcher's (names `launcherPid`): a launcher that stops,
 * or refuses beside a running stack, leaves another launcher's file alone.
 */
export function removeOwnRunFile(dataDir: string, launcherPid: number): void {
  const file = path.join(dataDir, RUN_FILE);
  try {
    if ((JSON.parse(fs.readFileSync(file, 'utf8')) as RunFile).launcherPid !== launcherPid) return;
  } catch {
    return; // no file, or not one a launcher wrote
  }
  fs.rmSync(file, { force: true });
}

/** host:port/database of a PostgreSQL URL, never its user or password: what a tool says it connected to. */
export function whereOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}

/**
 * The API a tool talks to, and why that one: an explicit URL (a flag), PUBLIC_BASE_URL, the
 * running stack's run file (DATA_DIR/stack.json), PORT, else the default port. Without a trailing slash.
 */
export function apiBaseOf(o: { flag?: string | undefined; flagName?: string; publicBaseUrl?: string | undefined; port?: number | undefined; dataDir: string; defaultPort: number }): { url: string; source: string } {
  const run = readRunFile(o.dataDir);
  const [url, source] = o.flag
    ? [o.flag, o.flagName ?? '--api']
    : o.publicBaseUrl
      ? [o.publicBaseUrl, 'PUBLIC_BASE_URL']
      : run?.apiUrl
        ? [run.apiUrl, `the running stack's ${path.join(o.dataDir, RUN_FILE)}`]
        : [`http://127.0.0.1:${o.port ?? o.defaultPort}`, o.port ? 'PORT' : 'the default port (no stack.json of a running stack)'];
  return { url: url.replace(/\/+$/, ''), source };
}
