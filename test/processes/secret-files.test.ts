// The embedded stack's secrets under DATA_DIR/secrets are created by whichever process starts first
// (API replicas, the worker): processes starting at the same instant all get the same, whole value.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PROCESSES = 12;
const ROUNDS = 6;

/** Start PROCESSES node processes that each read-or-create the same secret at the same moment (a shared start time). */
async function race(dataDir: string): Promise<string[]> {
  const startAt = Date.now() + 1500; // every process waits for this instant, so their calls overlap
  const code = `
    const { loadOrCreateSecret } = await import(${JSON.stringify(path.resolve('lib/secrets.ts'))});
    while (Date.now() < ${startAt}) {}
    process.stdout.write(JSON.stringify(loadOrCreateSecret(${JSON.stringify(dataDir)}, 'race-key', 32)));`;
  const outs = await Promise.all(
    Array.from({ length: PROCESSES }, () => new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (c) => (c === 0 ? resolve(JSON.parse(out) as string) : reject(new Error(`exit ${c}: ${err}`))));
    })),
  );
  return outs;
}

describe('secrets created by processes starting at once', () => {
  it(`${PROCESSES} processes, ${ROUNDS} rounds: every one gets the same whole secret, and no temporary file stays`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-race-'));
      try {
        const values = await race(dataDir);
        // 32 random bytes in base64url: 43 characters, in every process.
        for (const v of values) expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(new Set(values).size).toBe(1);
        expect(fs.readdirSync(path.join(dataDir, 'secrets'))).toEqual(['race-key']);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }, 120_000);
});
