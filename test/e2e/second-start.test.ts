// A second `npm start` beside a running one (same DATA_DIR, same ports) refuses, and leaves the
// running stack's DATA_DIR/stack.json alone: the tools keep finding the stack that runs.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, PROJECT_ROOT } from '../../lib/config';
import { freePort } from '../../lib/net/free-port';
import { RUN_FILE } from '../../lib/stack-run';
import { tempStackDir } from '../../scripts/stack';
import { eventually } from '../helpers/eventually';

interface Launcher {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function npmStart(env: Record<string, string>): Launcher {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/start.ts')], { cwd: PROJECT_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => void (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** SIGINT (the launcher's Ctrl-C), SIGKILL after 60 s. */
async function stopLauncher(l: Launcher | undefined): Promise<void> {
  if (!l || l.child.exitCode !== null || l.child.signalCode !== null) return;
  l.child.kill('SIGINT');
  const timer = setTimeout(() => l.child.kill('SIGKILL'), 60_000);
  await l.exited;
  clearTimeout(timer);
}

describe('a second npm start on the same DATA_DIR', () => {
  const dir = tempStackDir('second-start-');
  const dataDir = path.join(dir, 'data');
  const runFile = path.join(dataDir, RUN_FILE);
  let env: Record<string, string>;
  let first: Launcher | undefined;
  let second: Launcher | undefined;

  beforeAll(async () => {
    const [port, pg, temporal, ui] = [await freePort(), await freePort(), await freePort(), await freePort()];
    env = { DATA_DIR: dataDir, PORT: String(port), POSTGRES_PORT: String(pg), TEMPORAL_PORT: String(temporal), TEMPORAL_UI_PORT: String(ui), WORKER_METRICS_PORT: '0', LOG_LEVEL: 'warn' };
    first = npmStart(env);
    const up = first;
    await Promise.race([
      eventually(async () => up.output().includes('Press Ctrl-C'), 240_000, 500),
      up.exited.then((code) => Promise.reject(new Error(`the first npm start exited (code ${code}): ${up.output().slice(-1500)}`))),
    ]);
  }, 300_000);
  afterAll(async () => {
    await stopLauncher(second);
    await stopLauncher(first);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it("refuses, exits non-zero, and leaves the running stack's stack.json as it was", async () => {
    const before = fs.readFileSync(runFile, 'utf8');
    expect(JSON.parse(before).launcherPid).toBe(first!.child.pid);
    second = npmStart(env);
    const timer = setTimeout(() => second!.child.kill('SIGKILL'), 120_000);
    const code = await second.exited;
    clearTimeout(timer);
    expect(code, second.output().slice(-1500)).not.toBe(0);
    expect(second.child.signalCode).toBeNull();
    expect(fs.existsSync(runFile)).toBe(true);
    expect(JSON.parse(fs.readFileSync(runFile, 'utf8')).launcherPid).toBe(first!.child.pid);
    // The first stack still runs and answers.
    expect(first!.child.exitCode).toBeNull();
    expect((await fetch(`http://127.0.0.1:${env.PORT}/api/v1/health/ready`)).status).toBe(200);
  }, 150_000);

  it('the running one, stopped with Ctrl-C, removes its own stack.json', async () => {
    await stopLauncher(first);
    expect(first!.child.exitCode).toBe(0);
    expect(fs.existsSync(runFile)).toBe(false);
  }, 90_000);
});
