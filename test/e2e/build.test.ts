// Production runs what `npm run build` wrote (issue 23 item 1): the API and the worker from dist/
// with plain node (no tsx), NODE_ENV=production, against the run's PostgreSQL and Temporal; the
// worker loads dist/workflow-bundle.js and refuses to bundle at start. `npm test` builds right
// before vitest; when dist/ is missing (vitest run alone) this file builds it first.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { createSql, type Sql } from '../../lib/db';
import { freePort } from '../../lib/net/free-port';
import { apiKeyActor } from '../helpers/auth';
import { call, INTAKE, jpegBytes, putUpload, submissionBody } from '../helpers/intake';
import { createTestDatabase, eventually, uid } from '../helpers/stack';

const DIST = path.join(PROJECT_ROOT, 'dist');
const ENTRIES = ['api/main.js', 'worker/main.js', 'scripts/migrate.js', 'scripts/iam.js', 'workflow-bundle.js', 'build-info.json', 'portal/app.js'];

interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `node dist/<entry>` with only the environment given (and PATH, HOME), from a folder outside the project. */
function runDist(entry: string, env: Record<string, string>): Child {
  let out = '';
  const child = spawn(process.execPath, [path.join(DIST, entry)], { cwd: os.tmpdir(), env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (c: Buffer) => void (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { process: child, output: () => out, exited };
}

async function stop(c: Child | undefined): Promise<number | null | undefined> {
  if (!c || c.process.exitCode !== null) return c?.process.exitCode;
  c.process.kill('SIGTERM');
  const timer = setTimeout(() => c.process.kill('SIGKILL'), 20_000);
  const code = await c.exited;
  clearTimeout(timer);
  return code;
}

describe('the build, run with plain node', () => {
  let db: { url: string; drop(): Promise<void> };
  let sql: Sql;
  let api: Child | undefined;
  let worker: Child | undefined;
  let url: string;
  let env: Record<string, string>;
  const dataDir = path.join(inject('tmpRoot'), uid('dist-data-'));

  beforeAll(async () => {
    if (!ENTRIES.every((e) => fs.existsSync(path.join(DIST, e)))) {
      const built = spawnSync(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/build.ts')], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 240_000 });
      expect(built.status, built.stdout + built.stderr).toBe(0);
    }
    db = await createTestDatabase();
    sql = createSql(db.url, { max: 2 });
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
    env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: uid('tq-dist-'),
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      RATE_LIMITS_ENABLED: 'false',
      UPLOAD_SIGNING_SECRET: crypto.randomBytes(32).toString('hex'),
      DECISION_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      DECISION_VERIFY_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      WEBHOOK_SECRET_KEY: crypto.randomBytes(32).toString('base64'),
      PORTAL_HANDOFF_KEY: crypto.randomBytes(32).toString('base64'),
      TEMPORAL_PAYLOAD_KEYS: `test:${crypto.randomBytes(32).toString('base64')}`,
    };
  }, 300_000);
  afterAll(async () => {
    await stop(api);
    await stop(worker);
    await sql?.end({ timeout: 5 });
    await db?.drop();
  });

  it('a production worker without a prebuilt bundle exits 78 and says to build, rather than bundling', async () => {
    const c = runDist('worker/main.js', { ...env, WORKFLOW_BUNDLE_PATH: path.join(dataDir, 'no-such-bundle.js') });
    expect(await c.exited).toBe(78);
    expect(c.output()).toMatch(/WORKFLOW_BUNDLE_PATH: no workflow bundle at .*npm run build.*never bundles at start/);
  }, 60_000);

  it('the API serves live, the worker polls from dist/workflow-bundle.js, readiness turns ready, and an intake reaches awaiting_review', async () => {
    api = runDist('api/main.js', env);
    worker = runDist('worker/main.js', env);
    await eventually(async () => (await fetch(`${url}/api/v1/health/live`)).status === 200, 60_000, 200);
    // 200 only when PostgreSQL and Temporal answer and a worker polls the intake queue.
    await eventually(async () => (await fetch(`${url}/api/v1/health/ready`)).status === 200, 60_000, 250);
    // Its pollers can reach the server (and readiness turn ready) a moment before it logs that it polls.
    await eventually(async () => worker!.output().includes('worker polling'), 10_000, 100);
    // Files read by path at run time are found from dist/ (PROJECT_ROOT): the console's stylesheet.
    const css = await fetch(`${url}/console/assets/console.css`);
    expect(css.status).toBe(200);
    expect(await css.text()).toBe(fs.readFileSync(path.join(PROJECT_ROOT, 'api/console/web/console.css'), 'utf8'));
    // The console's page names the build's hashed bundle, served for good (its name changes with it).
    const { file } = JSON.parse(fs.readFileSync(path.join(DIST, 'console', 'manifest.json'), 'utf8')) as { file: string };
    expect(file).toMatch(/^app-[0-9a-f]{12}\.js$/);
    expect(await (await fetch(`${url}/console/submissions/sub_x`)).text()).toContain(`/console/assets/${file}`);
    const script = await fetch(`${url}/console/assets/${file}`);
    expect([script.status, script.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect(await script.text()).toBe(fs.readFileSync(path.join(DIST, 'console', file), 'utf8'));
    expect(worker.output()).not.toContain('bundling the workflows at start');
    // The partner portal's page is the build's bundle.
    const portal = await fetch(`${url}/portal/assets/app.js`);
    expect(portal.status).toBe(200);
    expect(await portal.text()).toBe(fs.readFileSync(path.join(DIST, 'portal', 'app.js'), 'utf8'));

    const stack = { sql, url };
    const organizationId = uid('org-');
    const partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'], organizationId });
    // A webhook endpoint for the organization (written here: production refuses loopback targets at
    // registration, and refuses this one at delivery too): its deliverer runs when the events come.
    const endpointId = uid('whe_');
    await sql`insert into webhook_endpoints (endpoint_id, organization_id, url, created_by, created_at)
      values (${endpointId}, ${organizationId}, 'http://127.0.0.1:9/hook', 'build-test', now() - interval '1 minute')`;
    const bytes = jpegBytes(2048);
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: bytes.length }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.submission.submissionId as string;
    expect((await putUpload(created.body.data.upload.url, bytes)).status).toBe(200);
    const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect([200, 202]).toContain(done.status);
    await eventually(async () => (await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: partner.headers })).body.data.intakeStatus === 'awaiting_review', 30_000, 200).catch((err: Error) => {
      throw new Error(`${err.message}; worker said: ${worker!.output().replace(/\n/g, ' | ').slice(-6000)}`);
    });

    // SIGTERM: both drain and exit 0. The endpoint's deliverer is running (its two deliveries were
    // refused, and it waits a quiet spell before it ends): it hands over on the signal, so the
    // worker does not wait out its 10 s shutdown grace for it.
    await eventually(async () => (await sql`select 1 from webhook_deliveries where endpoint_id = ${endpointId} and status = 'failed'`).length === 2, 30_000, 200);
    const [running] = await sql<{ until: Date | null }[]>`select deliverer_until as until from webhook_endpoints where endpoint_id = ${endpointId}`;
    expect(running!.until!.getTime()).toBeGreaterThan(Date.now());
    const t0 = performance.now();
    expect(await stop(worker)).toBe(0);
    expect(performance.now() - t0, worker.output().slice(-2000)).toBeLessThan(5000);
    expect(await stop(api)).toBe(0);
  }, 180_000);

  it('with WORKER_DEPLOYMENT_NAME, the dist worker polls as the deployment version whose build id the build wrote', async () => {
    const { buildId } = JSON.parse(fs.readFileSync(path.join(DIST, 'build-info.json'), 'utf8')) as { buildId: string };
    expect(buildId).toMatch(/^b-[0-9a-f]{16}$/);
    const deploymentName = uid('dist-');
    const versioned = runDist('worker/main.js', { ...env, TEMPORAL_TASK_QUEUE: uid('tq-versioned-'), WORKER_DEPLOYMENT_NAME: deploymentName });
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      await eventually(async () => {
        const d = await connection.workflowService.describeWorkerDeployment({ namespace: 'default', deploymentName });
        return (d.workerDeploymentInfo?.versionSummaries ?? []).some((v) => v.deploymentVersion?.buildId === buildId);
      }, 60_000, 500);
    } finally {
      await connection.close();
      expect(await stop(versioned)).toBe(0);
    }
  }, 120_000);
});
