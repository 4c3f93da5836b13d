// Every guide runs verbatim on any stack, twice (issue 46). A copy of the project (as a fresh clone
// is: its files, node_modules and .tools beside) runs `npm start` on free, non-default ports; the
// README walk-through's and each guide's marked command blocks (test/helpers/guide-blocks.ts) run in
// it with bash, as pasted into a fresh shell (no DATA_DIR, DATABASE_URL, PORT, ... set, and the
// machine's own `node` on PATH, not the project's), twice in a
// row, and must exit 0 (curl answering an HTTP error counts as failing: --fail-with-body).
//
// Beside it, on this machine's default ports (3000, 7233, 8233, 54329, 9464), sits a second stack:
// each default port holds a relay that records every connection and passes it on to a real stack
// (the bench stack, scripts/stack.ts, on ports of its own). A command that reaches the default
// ports so gets a real answer from the wrong stack, as it would on a shared machine, and the relay
// says so; a stack started straight on the default ports could not tell us who connected. A
// default port already taken on the machine (another stack of someone else's) cannot be watched:
// the test says which, watches the others, and the static check below still refuses any block that
// writes a default address.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBenchStack, type BenchStack } from '../../bench/lib/stack';
import { childEnv, EMBEDDED_DEFAULTS, PROJECT_ROOT } from '../../lib/config';
import { freePort } from '../../lib/net/free-port';
import { tempStackDir } from '../../scripts/stack';
import { eventually } from '../helpers/eventually';
import { blocksOf, defaultPortLines, GUIDES } from '../helpers/guide-blocks';

const DEFAULT_PORTS = [EMBEDDED_DEFAULTS.apiPort, EMBEDDED_DEFAULTS.temporalAddress.split(':').map(Number)[1]!, EMBEDDED_DEFAULTS.temporalUiPort, EMBEDDED_DEFAULTS.postgresPort, 9464];
/** What a newcomer's fresh shell does not have: every variable that would point a tool somewhere. */
const UNSET = ['API', 'KEY', 'TOKEN', 'B', 'RECV', 'DATA_DIR', 'DATABASE_URL', 'DATABASE_DIRECT_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'PUBLIC_BASE_URL', 'LEGACY_DATA_URL', 'NODE_ENV', 'OPERATOR_TOKEN', 'CLASSIFIER_API_URL', 'CLASSIFIER_API_KEY'];
/** Before each run: curl fails on an HTTP error answer (the guides' curl -s would print it and carry on). */
const PRELUDE = 'set -e -o pipefail\ncurl() { command curl --fail-with-body "$@"; }\n';

interface Relay {
  server: net.Server;
  port: number;
  touches: string[];
}

/** A relay on `port`, or undefined when the port is taken on this machine (it cannot be watched). */
function relay(port: number, target: () => number | undefined, label: string): Promise<Relay | undefined> {
  const r: Relay = { server: net.createServer(), port, touches: [] };
  r.server.on('connection', (socket) => {
    r.touches.push(`${new Date().toISOString()} ${label} (:${port})`);
    const to = target();
    if (!to) return void socket.destroy();
    const upstream = net.connect(to, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
  });
  return new Promise((resolve, reject) => {
    r.server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') return reject(err);
      console.warn(`default port ${port} (${label}) is taken on this machine: a command reaching it cannot be seen here (the static check still applies)`);
      resolve(undefined);
    });
    r.server.listen(port, '127.0.0.1', () => resolve(r));
  });
}

/** The project as a clone has it: its files (tracked and new, not ignored), node_modules and .tools linked. */
function copyProject(to: string): void {
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  for (const f of files) {
    if (/^(\.data|\.tools|node_modules|dist)(\/|$)/.test(f)) continue; // never another stack's state, whatever .gitignore says
    const from = path.join(PROJECT_ROOT, f);
    if (!fs.existsSync(from) || fs.lstatSync(from).isSymbolicLink() || fs.statSync(from).isDirectory()) continue;
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(from, path.join(to, f));
  }
  for (const link of ['node_modules', '.tools']) fs.symlinkSync(fs.realpathSync(path.join(PROJECT_ROOT, link)), path.join(to, link));
}

function freshShellEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = childEnv(extra) as Record<string, string>;
  for (const name of UNSET) delete env[name];
  return env;
}

/**
 * A newcomer's shell: no node_modules/.bin on PATH (vitest's npx put the project's Node 24 there),
 * so `node` in a guide is the machine's own, whichever it is; `npm run` puts the pinned one first itself.
 */
function newcomerShellEnv(): Record<string, string> {
  const env = freshShellEnv();
  env.PATH = (env.PATH ?? '')
    .split(':')
    .filter((dir) => dir && !/node_modules[\\/]\.bin$/.test(dir) && !/node-gyp-bin$/.test(dir))
    .join(':');
  return env;
}

function runBash(script: string, cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', PRELUDE + script], { cwd, env: newcomerShellEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d: Buffer) => void (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (output += d.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('every guide, verbatim, twice, on a stack on non-default ports beside one on the default ports', () => {
  const dir = tempStackDir('guides-run-');
  const clone = path.join(dir, 'clone');
  /** Per default port (DEFAULT_PORTS order): its relay, or undefined where the port was taken. */
  const held: (Relay | undefined)[] = [];
  const relays: Relay[] = [];
  let other: BenchStack | undefined;
  let launcher: ChildProcess | undefined;
  let launcherOut = '';
  /** The project root's entries once the stack is up: what a guide must leave as it found. */
  let rootEntries: string[] = [];
  let launcherExited: Promise<number | null> | undefined;

  beforeAll(async () => {
    // The default ports first: nothing of ours may start on them.
    const targets: Record<number, () => number | undefined> = {
      [DEFAULT_PORTS[0]!]: () => (other ? Number(new URL(other.apiUrl).port) : undefined),
      [DEFAULT_PORTS[1]!]: () => (other ? Number(other.temporalAddress.split(':')[1]) : undefined),
      [DEFAULT_PORTS[3]!]: () => (other ? Number(new URL(other.databaseUrl).port) : undefined),
    };
    const labels = ['API', 'Temporal', 'Temporal Web UI', 'PostgreSQL', 'worker metrics'];
    for (const [i, port] of DEFAULT_PORTS.entries()) held.push(await relay(port, targets[port] ?? (() => undefined), `the default-port stack's ${labels[i]}`));
    relays.push(...held.filter((r): r is Relay => r !== undefined));

    copyProject(clone);
    const [api, pg, temporal, ui, metrics] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    const env = freshShellEnv({ PORT: String(api), POSTGRES_PORT: String(pg), TEMPORAL_PORT: String(temporal), TEMPORAL_UI_PORT: String(ui), WORKER_METRICS_PORT: String(metrics), LOG_LEVEL: 'warn' });
    const started = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'] });
    launcher = started;
    started.stdout!.on('data', (d: Buffer) => void (launcherOut += d.toString()));
    started.stderr!.on('data', (d: Buffer) => void (launcherOut += d.toString()));
    launcherExited = new Promise((resolve) => started.once('exit', (code) => resolve(code)));
    const [bench] = await Promise.all([
      startBenchStack(),
      Promise.race([
        eventually(async () => launcherOut.includes('Press Ctrl-C'), 240_000, 500),
        launcherExited.then((code) => Promise.reject(new Error(`npm start exited (code ${code}): ${launcherOut.slice(-2000)}`))),
      ]),
    ]);
    other = bench;
    // Starting touched none of the default ports.
    expect(relays.flatMap((r) => r.touches)).toEqual([]);
    rootEntries = fs.readdirSync(clone).sort();
  }, 300_000);

  afterAll(async () => {
    if (launcher && launcher.exitCode === null && launcher.signalCode === null) {
      launcher.kill('SIGINT');
      const timer = setTimeout(() => launcher!.kill('SIGKILL'), 60_000);
      await launcherExited;
      clearTimeout(timer);
    }
    await other?.stop();
    await Promise.all(relays.map((r) => new Promise((resolve) => r.server.close(resolve))));
    fs.rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('the watch works: a command that reaches a default port is answered by the stack beside, and seen', async () => {
    const before = held.map((r) => r?.touches.length ?? 0);
    const apiHeld = held[0] !== undefined;
    const probe = [
      ...(apiHeld ? [`curl -s http://127.0.0.1:${EMBEDDED_DEFAULTS.apiPort}/api/v1/health/ready | grep -q '"ready"'`] : []),
      ...DEFAULT_PORTS.filter((_, i) => held[i]).map((p) => `(exec 3<>/dev/tcp/127.0.0.1/${p}) 2>/dev/null || true`),
    ].join('\n');
    const r = await runBash(probe || 'true', clone, 30_000);
    expect(r.code, r.output).toBe(0);
    const seen = held.map((relay, i) => (relay ? relay.touches.length - before[i]! : null));
    // The API twice (curl, then the bare connection), every other default port once; a port taken by someone else: not watched.
    expect(seen).toEqual([apiHeld ? 2 : null, ...held.slice(1).map((x) => (x ? 1 : null))]);
    for (const relay of relays) relay.touches.length = 0;
  });

  it('no shell block of a guide writes a default port or calls the Temporal CLI without --address', () => {
    const offending = GUIDES.flatMap((f) => blocksOf(PROJECT_ROOT, f))
      .filter((b) => ['bash', 'sh', 'shell'].includes(b.lang))
      .flatMap((b) => defaultPortLines(b).map((l) => `${b.file}:${b.line}: ${l.trim()}`));
    expect(offending).toEqual([]);
  });

  it.each(GUIDES)('%s: its marked blocks run twice against the stack beside, and reach nothing on the default ports', async (file) => {
    const blocks = blocksOf(PROJECT_ROOT, file).filter((b) => b.runnable);
    expect(blocks.length, `${file} marks no runnable block`).toBeGreaterThan(0);
    for (const b of blocks) expect(b.lang, `${file}:${b.line}`).toBe('bash');
    // One shell per run, the blocks in order (a later block uses what an earlier one set, as in a terminal).
    const script = blocks.map((b) => `# ${b.file}:${b.line}\n${b.text}`).join('\n');
    for (const run of [1, 2]) {
      const before = relays.map((r) => r.touches.length);
      const r = await runBash(script, clone, 240_000);
      const touches = relays.flatMap((relay, i) => relay.touches.slice(before[i]));
      expect(touches, `${file}, run ${run} reached the default ports:\n${r.output.slice(-2000)}`).toEqual([]);
      expect(r.code, `${file}, run ${run}, exited ${r.code}:\n${r.output.slice(-4000)}`).toBe(0);
    }
    expect(launcher!.exitCode).toBeNull();
    // Its scratch files went to .data/guide: nothing new in the project root.
    expect(fs.readdirSync(clone).sort(), `${file} left files in the project root`).toEqual(rootEntries);
  }, 600_000);

  it("README.md once more after the cutover guide filled the directory: its publish step keeps the walk-through's own artist", async () => {
    // The backfill puts legacy artists first in /artists; a walk-through that named "the first
    // artist" again would now name another profile than artist-demo-1's (409 artist_profile_conflict).
    const script = blocksOf(PROJECT_ROOT, 'README.md')
      .filter((b) => b.runnable)
      .map((b) => b.text)
      .join('\n');
    const r = await runBash(script, clone, 240_000);
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(relays.flatMap((x) => x.touches)).toEqual([]);
  }, 300_000);
});
