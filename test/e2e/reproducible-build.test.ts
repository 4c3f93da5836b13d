// The build id means the code (issue 46 item 1): the same commit built in two folders (another name,
// another depth) gives the same dist/, byte for byte, and so the same build id; with worker
// versioning, the same code built on another machine is the same version. Each folder holds the
// project's tracked files and a hard-linked node_modules, as a clone after `npm install` would.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { withoutInlineSourceMap } from '../../worker/workflow-bundle';

const scratch = path.join(PROJECT_ROOT, `.dist-repro-${crypto.randomBytes(4).toString('hex')}`);
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A copy of the checkout's tracked files at `dir`, with node_modules hard-linked (same file system: under the project). */
function checkout(dir: string): void {
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  expect(files.length).toBeGreaterThan(100);
  for (const f of files) {
    const from = path.join(PROJECT_ROOT, f);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, f));
  }
  const cp = spawnSync('cp', ['-al', path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules')]);
  expect(cp.status, cp.stderr?.toString()).toBe(0);
}

function build(dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'scripts', 'build.ts'), '--skip-typecheck'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`build in ${dir} exited ${code}: ${out.slice(-2000)}`));
    });
  });
}

/** Every file of dist/ but the source maps (the workflow bundle's inline one too), by path, with build-info.json's build time left out. */
function distOf(dir: string): Map<string, string> {
  const dist = path.join(dir, 'dist');
  const files = (fs.readdirSync(dist, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dist, f)).isFile() && !f.endsWith('.map')).sort();
  return new Map(
    files.map((f) => {
      const text = fs.readFileSync(path.join(dist, f), 'utf8');
      const body = f === 'build-info.json' ? JSON.stringify({ ...JSON.parse(text), builtAt: undefined }) : f === 'workflow-bundle.js' ? withoutInlineSourceMap(text) : text;
      return [f, crypto.createHash('sha256').update(body).digest('hex')];
    }),
  );
}

describe('a reproducible build', () => {
  it('the same commit built in two folders gives the same files and the same build id', async () => {
    const a = path.join(scratch, 'one');
    const b = path.join(scratch, 'second', 'clone', 'deeper');
    checkout(a);
    checkout(b);
    const [outA, outB] = await Promise.all([build(a), build(b)]);
    const idOf = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, 'dist', 'build-info.json'), 'utf8')) as { buildId: string }).buildId;
    expect(outA).toContain(`build id ${idOf(a)}`);
    expect(outB).toContain(`build id ${idOf(b)}`);
    const [distA, distB] = [distOf(a), distOf(b)];
    expect([...distB.keys()]).toEqual([...distA.keys()]);
    expect([...distA].filter(([f, h]) => distB.get(f) !== h).map(([f]) => f)).toEqual([]);
    expect(idOf(b)).toBe(idOf(a));
    // Nothing built names either folder, the source map neither.
    for (const [dir, other] of [[a, 'one'], [b, 'deeper']] as const) {
      const bundle = fs.readFileSync(path.join(dir, 'dist', 'workflow-bundle.js'), 'utf8');
      const map = bundle.slice(bundle.lastIndexOf('base64,') + 7);
      expect(Buffer.from(map, 'base64').toString('utf8')).not.toContain(dir);
      expect(bundle).not.toContain(`${path.sep}${other}${path.sep}`);
    }
  }, 600_000);
});
