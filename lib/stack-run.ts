// The running embedded stack's own account of where it runs: `npm start` writes DATA_DIR/stack.json
// (ports, URLs, pids) and keeps it current, so that every tool connects to the stack it was
// started beside, never to another one on the default ports.
import fs from 'node:fs';
import path from 'node:path';

export const RUN_FILE = 'stack.json';

/** The pieces the launcher supervises. */
export type StackPart = 'api' | 'worker' | 'temporal' | 'postgres';

export interface RunFile {
  launcherPid: number;
  apiUrl: string | undefined;
  databasePort: number | undefined;
  temporalAddress: string;
  uiUrl: string | undefined;
  pids: Partial<Record<StackPart, number>>;
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

/** host:port/database of a PostgreSQL URL, never its user or password: what a tool says it connected to. */
export function whereOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}
