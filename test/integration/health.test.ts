import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPg } from '../../lib/db/embedded';
import { migrateUp } from '../../lib/db/migrate';
import { freePort } from '../../lib/net/free-port';
import { eventually, startTestStack, uid, type TestStack } from '../helpers/stack';
import { readiness } from '../../api/routes/health';
import { apiConfigSchema, parseConfig } from '../../lib/config';

const SECRET_ENV = {
  UPLOAD_SIGNING_SECRET: 'upload-secret-' + 'x'.repeat(40),
  LEGACY_SERVICE_KEY: 'legacy-service-key-value-123',
  LEGACY_ANON_KEY: 'legacy-anon-key-value-456',
  COMMS_INTAKE_WEBHOOK_SECRET: 'comms-webhook-secret-789',
  TEMPORAL_API_KEY: undefined as unknown as string,
};

async function get(stack: TestStack, p: string) {
  const res = await fetch(`${stack.url}/api/v1${p}`);
  return { status: res.status, body: (await res.json()) as Record<string, any>, text: '' };
}

describe('health, against the real stack', () => {
  let stack: TestStack;
  beforeAll(async () => {
    const { TEMPORAL_API_KEY: _, ...env } = SECRET_ENV;
    stack = await startTestStack({ env: { ...env, READY_POLLER_WINDOW_SECONDS: '90' } });
  });
  afterAll(async () => stack?.stop());

  it('live answers 200 with status, timestamp, uptime and service', async () => {
    const { status, body } = await get(stack, '/health/live');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', service: 'tattoo-portfolio-intake' });
    expect(typeof body.uptime).toBe('number');
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  });

  it('ready is `ready` while the worker polls, with nine dependency groups, flows and an all-false safety posture', async () => {
    const { status, body } = await eventually(async () => {
      const r = await get(stack, '/health/ready');
      return r.body.status === 'ready' && r;
    });
    expect(status).toBe(200);
    expect(body.dependencies.map((d: { id: string }) => d.id)).toEqual([
      'hosting', 'portfolio_intake_staging', 'communications_intake', 'identity_evidence_lookup', 'private_worker',
      'approved_portfolio_storage', 'runtime_mapping', 'partner_auth', 'observability',
    ]);
    for (const d of body.dependencies) {
      expect(Array.isArray(d.configuredEnv) && Array.isArray(d.missingEnv)).toBe(true);
    }
    expect(body.dependencies.find((d: any) => d.id === 'portfolio_intake_staging').configuredEnv).toContain('UPLOAD_SIGNING_SECRET');
    expect(body.flows.every((f: any) => f.status === 'ready' && f.blockedBy.length === 0)).toBe(true);
    expect(Object.keys(body.safetyPosture)).toHaveLength(6);
    expect(Object.values(body.safetyPosture).every((v) => v === false)).toBe(true);
    expect(body.publicApiBaseUrl).toBe(`${stack.url}/api/v1`);
  });

  it('ready turns `blocked` by private_worker when the worker stops, and `ready` again when it returns', async () => {
    await stack.stopWorker();
    const blocked = await eventually(async () => {
      const r = await get(stack, '/health/ready');
      return r.body.status === 'blocked' && r;
    }, 30_000);
    expect(blocked.status).toBe(503);
    expect(blocked.body.dependencies.find((d: any) => d.id === 'private_worker').status).toBe('blocked');
    const intake = blocked.body.flows.find((f: any) => f.id === 'portfolio_intake');
    expect(intake).toMatchObject({ status: 'blocked', blockedBy: ['private_worker'] });
    expect(blocked.body.flows.find((f: any) => f.id === 'public_directory_read').status).toBe('ready');
    // legacy report: degraded but operational
    const legacy = await get(stack, '/health');
    expect(legacy.status).toBe(200);
    expect(legacy.body.status).toBe('degraded');

    await stack.startWorker();
    await eventually(async () => (await get(stack, '/health/ready')).body.status === 'ready', 30_000);
  });

  it('no configured secret value appears in any health body', async () => {
    const bodies = await Promise.all(['/health/live', '/health/ready', '/health'].map(async (p) => (await fetch(`${stack.url}/api/v1${p}`)).text()));
    const secrets = [...Object.values(SECRET_ENV).filter(Boolean), stack.api.deps.uploadSigningSecret, 'postgres:postgres'];
    for (const body of bodies) for (const s of secrets) expect(body).not.toContain(s);
  });
});

describe('readiness names only what is really missing', () => {
  let stack: TestStack;
  // The embedded default: no PUBLIC_BASE_URL, UPLOAD_SIGNING_SECRET, STORAGE_LOCAL_DIR or COMMS_INTAKE_WEBHOOK_SECRET.
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.stop());
  const group = (body: Record<string, any>, id: string) => body.dependencies.find((d: { id: string }) => d.id === id);

  it('in the embedded default: variables with a working default count as configured, unused ones are in neither list', async () => {
    const { status, body } = await eventually(async () => {
      const r = await get(stack, '/health/ready');
      return r.body.status === 'ready' && r;
    });
    expect(status).toBe(200);
    expect(group(body, 'hosting')).toMatchObject({ status: 'ready', configuredEnv: ['PORT', 'PUBLIC_BASE_URL'], missingEnv: [] });
    expect(group(body, 'portfolio_intake_staging')).toMatchObject({
      status: 'ready',
      configuredEnv: ['STORAGE_DRIVER', 'STORAGE_LOCAL_DIR', 'UPLOAD_SIGNING_SECRET'],
      missingEnv: [],
    });
    expect(group(body, 'partner_auth')).toMatchObject({ status: 'ready', configuredEnv: ['IDP_DRIVER'], missingEnv: [] });
    expect(group(body, 'observability')).toMatchObject({ status: 'ready', missingEnv: [] });
    // A group that is ready lacks nothing; the only name left missing is the optional group's own.
    for (const d of body.dependencies) if (d.status === 'ready') expect(d.missingEnv, d.id).toEqual([]);
    expect(group(body, 'communications_intake')).toMatchObject({ status: 'not_configured', required: false, missingEnv: ['COMMS_INTAKE_WEBHOOK_SECRET'] });
  });

  it('with the GCS driver or an external identity provider, their unset variables are missing and block their groups', () => {
    const probes = { database: { ok: true, ms: 1 }, temporal: { ok: true }, worker: { ok: true, pollers: 1 } };
    const gcs = parseConfig(apiConfigSchema, { NODE_ENV: 'test', STORAGE_DRIVER: 'gcs', GCS_MEDIA_BUCKET: 'media' });
    const g = readiness({ ...stack.api.deps, cfg: gcs }, probes);
    expect(g.status).toBe('blocked');
    expect(group(g, 'portfolio_intake_staging')).toMatchObject({ status: 'blocked', configuredEnv: ['STORAGE_DRIVER'], missingEnv: ['GCS_STAGING_BUCKET'] });
    expect(group(g, 'approved_portfolio_storage')).toMatchObject({ status: 'ready', missingEnv: [] });
    expect(g.flows.find((f) => f.id === 'portfolio_intake')).toMatchObject({ status: 'blocked', blockedBy: ['portfolio_intake_staging'] });

    const ext = parseConfig(apiConfigSchema, { NODE_ENV: 'test', IDP_DRIVER: 'external', IDP_JWKS_URL: 'https://idp.example/jwks', IDP_ISSUER: 'https://idp.example/' });
    const e = readiness({ ...stack.api.deps, cfg: ext }, probes);
    expect(group(e, 'partner_auth')).toMatchObject({ status: 'blocked', missingEnv: ['IDP_AUDIENCE', 'IDP_KEY_VERIFY_URL'] });
    expect(group(e, 'portfolio_intake_staging').missingEnv).toEqual([]);
  });
});

describe('legacy /health follows PostgreSQL', () => {
  let pg: EmbeddedPg;
  let stack: TestStack;
  beforeAll(async () => {
    pg = await startEmbeddedPostgres({ dataDir: path.join(inject('tmpRoot'), uid('pg-')), port: await freePort() });
    await migrateUp(pg.url);
    stack = await startTestStack({ databaseUrl: pg.url, worker: false });
  });
  afterAll(async () => {
    await stack?.stop().catch(() => {});
    await pg?.stop();
  });

  it('is 200 with a measured database responseTime, 503 while PostgreSQL is stopped, 200 again after', async () => {
    const up = await get(stack, '/health');
    expect(up.status).toBe(200);
    expect(up.body.services.database.status).toBe('connected');
    expect(up.body.services.database.responseTime).toBeGreaterThan(0);
    expect(up.body.runtime.currentPersistence).toBe('postgresql');
    for (const k of ['status', 'timestamp', 'version', 'uptime', 'environment']) expect(up.body).toHaveProperty(k);
    expect(Object.keys(up.body.services.configuration).sort()).toEqual(['anonKey', 'legacyDataUrl', 'ready', 'serviceKey']);

    await pg.stop();
    const down = await get(stack, '/health');
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('unhealthy');
    expect(down.body.services.database.status).toBe('disconnected');
    expect((await get(stack, '/health/live')).status).toBe(200);

    pg = await startEmbeddedPostgres({ dataDir: pg.dataDir, port: pg.port });
    await eventually(async () => (await get(stack, '/health')).status === 200, 20_000);
  });
});

describe('request logging around the probes', () => {
  const lines: Record<string, any>[] = [];
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { LOG_LEVEL: 'info' }, logDestination: { write: (l) => void lines.push(JSON.parse(l)) } });
    // Ready first (the worker's pollers reach Temporal a moment after it starts; a clean-clone CI
    // once read 503 here), then the lines of that wait are dropped: the test counts its own requests.
    await eventually(async () => (await get(stack, '/health/ready')).status === 200, 30_000);
    lines.length = 0;
  });
  afterAll(async () => stack?.stop());

  const logged = (path: string) => lines.filter((l) => l.req?.path === path);

  it('logs no line for a successful probe, one for every other request, and a warning for a probe path that fails', async () => {
    expect((await get(stack, '/health/live')).status).toBe(200);
    expect((await get(stack, '/health/live?probe=1')).status).toBe(200);
    expect((await get(stack, '/health/ready')).status).toBe(200);
    expect((await get(stack, '/studios?limit=1')).status).toBe(200);
    expect((await fetch(`${stack.url}/api/v1/health/live`, { method: 'POST' })).status).toBe(405);
    await eventually(async () => logged('/api/v1/health/live').length === 1, 5_000);
    expect(logged('/api/v1/health/ready')).toEqual([]);
    expect(logged('/api/v1/health/live')[0]).toMatchObject({ level: 40, req: { method: 'POST' }, res: { statusCode: 405 } });
    expect(logged('/api/v1/studios')).toHaveLength(1);
    expect(logged('/api/v1/studios')[0]).toMatchObject({ level: 30, res: { statusCode: 200 } });
  });
});
