// The package managers' output (pip, apt-get) goes to one log file, not to the console: setup prints
// one line per tool, and on a failure the log's path and the failed command's last lines.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { TOOLS_DIR } from '../../temporal/cli-path';

export const SETUP_LOG = path.join(TOOLS_DIR, 'setup-tools.log');

export class InstallError extends Error {
  constructor(
    message: string,
    /** The last lines the failed command wrote to the log. */
    readonly tail: string[],
  ) {
    super(message);
    this.name = 'InstallError';
  }
}

/** Runs a command with stdout and stderr appended to SETUP_LOG; throws InstallError when it fails. */
/** `what` names the step in the failure message, e.g. `pip install schemathesis==4.32.5`. */
export function runLogged(command: string, args: string[], o: { what?: string; env?: NodeJS.ProcessEnv } = {}): void {
  fs.mkdirSync(path.dirname(SETUP_LOG), { recursive: true });
  fs.appendFileSync(SETUP_LOG, `\n=== ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  const start = fs.statSync(SETUP_LOG).size;
  const fd = fs.openSync(SETUP_LOG, 'a');
  try {
    execFileSync(command, args, { stdio: ['ignore', fd, fd], ...(o.env ? { env: o.env } : {}) });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { status?: number | null; signal?: string | null };
    const what = o.what ?? command;
    const why = e.code === 'ENOENT' ? `${command} not found` : e.status != null ? `${what} failed (exit ${e.status})` : `${what} ended by ${e.signal ?? e.message}`;
    throw new InstallError(why, logTail(start, 15));
  } finally {
    fs.closeSync(fd);
  }
}

/** The last `lines` non-empty lines written to the log since byte `from`. */
function logTail(from: number, lines: number): string[] {
  const text = fs.readFileSync(SETUP_LOG).subarray(from).toString('utf8');
  return text.split('\n').filter((l) => l.trim() !== '').slice(-lines);
}
