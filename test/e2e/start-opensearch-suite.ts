// `npm start -- --search opensearch`, the real command (npm, its script, the launcher), on free
// ports in a throwaway DATA_DIR, for test/e2e/start-opensearch*.test.ts (one stack per file): it
// gets ready, /search answers from the engine, /health names the backend; and stopped (Ctrl-C to
// its process group, or SIGTERM to the launcher) it leaves no OpenSearch JVM running, checked by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { childEnv, PROJECT_ROOT } from '../../lib/config';
import { freePort } from '../../lib/net/free-port';
import { readRunFile } from '../../lib/stack-run';
import { tempStackDir } from '../../scripts/stack';
import { eventually } from '../helpers/eventually';
import { OPENSEARCH_RUNS } from '../helpers/opensearch';

export interface NpmStart {
  child: ChildProcess;
  dir: string;
  dataDir: string;
  apiUrl: string;
  searchUrl: string;
  output: () => string;
  /** npm's exit. */
  exited: Promise<number | null>;
  /** The launcher (scripts/start.ts) under npm, from DATA_DIR/stack.json. */
  launcherPid: number;
  /** The demo partner's key (search:read), read from DATA_DIR/secrets. */
  key: string;
}

/** Running and not a zombie (a killed child its parent has not reaped yet has exited). */
export function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The pids of the JVMs running an OpenSearch node on this DATA_DIR's config (scripts/tools/opensearch-node.ts passes it). */
export function jvmPids(dataDir: string): number[] {
  const conf = `-Dopensearch.path.conf=${path.join(dataDir, 'opensearch', 'config')}`;
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (argv.includes(conf) && running(Number(entry))) out.push(Number(entry));
  }
  return out;
}

/** Starts the command in a process group of its own (as a terminal runs it); not waiting for anything. */
export async function spawnNpmStart(): Promise<Omit<NpmStart, 'launcherPid' | 'key'>> {
  const dir = tempStackDir('npm-start-opensearch-');
  const dataDir = path.join(dir, 'data');
  const [api, pg, temporal, ui, search] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
  const env = childEnv({
    DATA_DIR: dataDir, PORT: String(api), POSTGRES_PORT: String(pg), TEMPORAL_PORT: String(temporal), TEMPORAL_UI_PORT: String(ui),
    WORKER_METRICS_PORT: '0', SEARCH_OPENSEARCH_PORT: String(search), LOG_LEVEL: 'warn',
  });
  // npm's own variables from the runner (npm_config_*, npm_lifecycle_*) would leak into the inner npm
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  const child = spawn('npm', ['start', '--', '--search', 'opensearch'], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => void (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, dir, dataDir, apiUrl: `http://127.0.0.1:${api}`, searchUrl: `http://127.0.0.1:${search}`, output: () => out, exited };
}

/** The parent of a process (the launcher, for the JVM it spawned). */
export function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The command started and ready (its banner printed): the stack a file's tests use. */
export async function npmStartOpenSearch(): Promise<NpmStart> {
  const s = await spawnNpmStart();
  const { exited } = s;
  try {
    await Promise.race([
      eventually(async () => s.output().includes('Press Ctrl-C'), 300_000, 500),
      exited.then((code) => Promise.reject(new Error(`npm start exited (code ${code}): ${s.output().slice(-2000)}`))),
    ]);
  } catch (err) {
    await stopGroup({ ...s, launcherPid: 0 });
    throw err;
  }
  const launcherPid = readRunFile(s.dataDir)!.launcherPid;
  const key = fs.readFileSync(path.join(s.dataDir, 'secrets', 'demo-partner-key'), 'utf8').trim();
  return { ...s, launcherPid, key };
}

/** Waits (bounded) until none of `pids` runs; true when none does. */
export async function allGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!pids.some(running)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return !pids.some(running);
}

/** Clean-up whatever happened: SIGKILL to the group and to any JVM of the DATA_DIR left, then the folder. */
export async function stopGroup(s: Omit<NpmStart, 'key'>): Promise<void> {
  try {
    process.kill(-s.child.pid!, 'SIGKILL');
  } catch {
    /* gone */
  }
  for (const pid of jvmPids(s.dataDir)) process.kill(pid, 'SIGKILL');
  await allGone([s.launcherPid, ...jvmPids(s.dataDir)].filter(Boolean), 10_000);
  fs.rmSync(s.dir, { recursive: true, force: true });
}

export const search = (s: NpmStart, qs: string) => fetch(`${s.apiUrl}/api/v1/search?${qs}`, { headers: { 'x-api-key': s.key }, signal: AbortSignal.timeout(30_000) });

/** The file's one stack: started before its tests (when OpenSearch runs here), cleaned up after; the getter gives it. */
export function oneStackPerFile(): () => NpmStart {
  let s: NpmStart | undefined;
  beforeAll(async () => {
    if (OPENSEARCH_RUNS) s = await npmStartOpenSearch();
  }, 330_000);
  afterAll(async () => {
    if (s) await stopGroup(s);
  }, 60_000);
  return () => s!;
}
