// Health, as the contract's 2.11 and 4.2 describe: live, ready, and the legacy report.
// Only variable *names* appear here, never values.
import type { z } from 'zod';
import type { Response } from 'express';
import { defineRoute, reply, type Route } from '../routing/route';
import * as C from '../openapi/components';
import { PUBLIC_BASE } from '../routing/bases';
import type { AppDeps } from '../deps';
import { runProbes, type ProbeResults, probeDepsOf } from '../health/probes';
import { stageReport } from '../../lib/cutover/stage';
import { LEGACY_READ_ROUTES } from '../../lib/cutover/reads';

type DepStatus = 'ready' | 'blocked' | 'not_configured' | 'degraded';

interface DependencyGroup {
  id: string;
  group: string;
  env: readonly string[];
  required: boolean;
  ready: (p: ProbeResults, cfg: Cfg) => boolean;
}

const storageEnv = (bucket: string) => ['STORAGE_DRIVER', 'STORAGE_LOCAL_DIR', bucket] as const;

type Cfg = AppDeps['cfg'];
/**
 * What an unset variable means in this configuration. `default`: it has a working default (the
 * embedded stack's, or a value generated into DATA_DIR), so it is not missing. `unused`: the
 * selected driver does not read it. `optional`: nothing depends on it. Any other unset variable of
 * a group is missing, and keeps that group from `ready`.
 */
const WHEN_UNSET: Readonly<Record<string, (cfg: Cfg) => 'default' | 'unused' | 'optional' | 'missing'>> = {
  DATABASE_URL: () => 'default', // the embedded PostgreSQL (required when NODE_ENV=production)
  TEMPORAL_ADDRESS: () => 'default', // the embedded dev server (required when NODE_ENV=production)
  PUBLIC_BASE_URL: () => 'default', // the listen URL (required when NODE_ENV=production)
  // Local signed upload URLs: generated into DATA_DIR/secrets; GCS signs its own URLs.
  UPLOAD_SIGNING_SECRET: (cfg) => (cfg.STORAGE_DRIVER === 'local' ? 'default' : 'unused'),
  STORAGE_LOCAL_DIR: (cfg) => (cfg.STORAGE_DRIVER === 'local' ? 'default' : 'unused'), // DATA_DIR/objects
  GCS_STAGING_BUCKET: (cfg) => (cfg.STORAGE_DRIVER === 'gcs' ? 'missing' : 'unused'),
  GCS_MEDIA_BUCKET: (cfg) => (cfg.STORAGE_DRIVER === 'gcs' ? 'missing' : 'unused'),
  IDP_JWKS_URL: (cfg) => (cfg.IDP_DRIVER === 'external' ? 'missing' : 'unused'),
  IDP_ISSUER: (cfg) => (cfg.IDP_DRIVER === 'external' ? 'missing' : 'unused'),
  IDP_AUDIENCE: (cfg) => (cfg.IDP_DRIVER === 'external' ? 'missing' : 'unused'),
  IDP_KEY_VERIFY_URL: (cfg) => (cfg.IDP_DRIVER === 'external' ? 'missing' : 'unused'),
  OTEL_EXPORTER_OTLP_ENDPOINT: () => 'optional', // logs go to stdout either way
};

/**
 * Names only, never values. configuredEnv: set, or unset with a working default. missingEnv: what
 * this configuration needs and does not have. Unset variables the drivers do not read are in neither.
 */
export function envOf(cfg: Cfg, names: readonly string[]): { configuredEnv: string[]; missingEnv: string[] } {
  const values = cfg as unknown as Record<string, unknown>;
  const configuredEnv: string[] = [];
  const missingEnv: string[] = [];
  for (const name of names) {
    const unset = values[name] === undefined ? (WHEN_UNSET[name]?.(cfg) ?? 'missing') : 'set';
    if (unset === 'set' || unset === 'default') configuredEnv.push(name);
    else if (unset === 'missing') missingEnv.push(name);
  }
  return { configuredEnv, missingEnv };
}

export const DEPENDENCY_GROUPS: readonly DependencyGroup[] = [
  { id: 'hosting', group: 'hosting', env: ['PORT', 'PUBLIC_BASE_URL'], required: true, ready: () => true },
  {
    id: 'portfolio_intake_staging',
    group: 'media staging',
    env: [...storageEnv('GCS_STAGING_BUCKET'), 'UPLOAD_SIGNING_SECRET'],
    required: true,
    ready: (p, cfg) => p.database.ok && (cfg.STORAGE_DRIVER === 'local' || cfg.GCS_STAGING_BUCKET !== undefined),
  },
  {
    id: 'communications_intake',
    group: 'communications intake',
    env: ['COMMS_INTAKE_WEBHOOK_SECRET'],
    required: false,
    ready: (_p, cfg) => cfg.COMMS_INTAKE_WEBHOOK_SECRET !== undefined,
  },
  { id: 'identity_evidence_lookup', group: 'identity evidence', env: ['DATABASE_URL'], required: true, ready: (p) => p.database.ok },
  {
    id: 'private_worker',
    group: 'private workers',
    env: ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE'],
    required: true,
    ready: (p) => p.temporal.ok && p.worker.ok,
  },
  {
    id: 'approved_portfolio_storage',
    group: 'approved portfolio storage',
    env: [...storageEnv('GCS_MEDIA_BUCKET'), 'DATABASE_URL'],
    required: true,
    ready: (p, cfg) => p.database.ok && (cfg.STORAGE_DRIVER === 'local' || cfg.GCS_MEDIA_BUCKET !== undefined),
  },
  { id: 'runtime_mapping', group: 'runtime mapping', env: ['DATABASE_URL'], required: true, ready: (p) => p.database.ok },
  {
    id: 'partner_auth',
    group: 'partner auth',
    env: ['IDP_DRIVER', 'IDP_JWKS_URL', 'IDP_ISSUER', 'IDP_AUDIENCE', 'IDP_KEY_VERIFY_URL'],
    required: true,
    ready: (p, cfg) =>
      p.database.ok &&
      (cfg.IDP_DRIVER === 'local' || (cfg.IDP_JWKS_URL !== undefined && cfg.IDP_ISSUER !== undefined && cfg.IDP_AUDIENCE !== undefined)),
  },
  { id: 'observability', group: 'observability', env: ['LOG_LEVEL', 'OTEL_EXPORTER_OTLP_ENDPOINT'], required: false, ready: () => true },
];

export const FLOWS: readonly { id: string; needs: readonly string[] }[] = [
  { id: 'portfolio_intake', needs: ['partner_auth', 'portfolio_intake_staging', 'private_worker', 'identity_evidence_lookup'] },
  { id: 'private_worker_context', needs: ['private_worker', 'identity_evidence_lookup', 'partner_auth'] },
  { id: 'approved_portfolio_write', needs: ['approved_portfolio_storage', 'private_worker', 'partner_auth'] },
  { id: 'artist_identity_resolution', needs: ['identity_evidence_lookup', 'private_worker', 'partner_auth'] },
  { id: 'public_directory_read', needs: ['runtime_mapping'] },
  { id: 'beta_directory_read', needs: ['runtime_mapping', 'partner_auth'] },
];

/** Every flag false: these are the production posture, and nothing in this build can turn one on. */
export const SAFETY_POSTURE = Object.freeze({
  publicWritesAllowed: false,
  directPortfolioStorageWritesFromWorkersAllowed: false,
  directRuntimeMutationsFromWorkersAllowed: false,
  publicSurfaceActivationAllowedFromWorkers: false,
  crmCanPublishDirectly: false,
  objectBucketPublicAccessAllowed: false,
});

/** SEARCH_BACKEND=opensearch: the engine's own dependency, never required (PostgreSQL answers /search without it). */
function searchEngineDependency(deps: AppDeps, engineOk: boolean) {
  const env = envOf(deps.cfg, ['SEARCH_BACKEND', 'SEARCH_OPENSEARCH_URL']);
  return { id: 'search_engine', group: 'search engine', status: (engineOk ? 'ready' : 'degraded') as DepStatus, required: false, ...env };
}

export function readiness(deps: AppDeps, p: ProbeResults, engine?: { ok: boolean }): z.input<typeof C.Readiness> {
  const dependencies: ReturnType<typeof searchEngineDependency>[] = DEPENDENCY_GROUPS.map((g) => {
    const env = envOf(deps.cfg, g.env);
    // A group with a missing variable is never ready: blocked if required (and readiness with it),
    // not_configured if optional (readiness does not wait for it).
    const ok = g.ready(p, deps.cfg) && env.missingEnv.length === 0;
    const status: DepStatus = ok ? 'ready' : g.required ? 'blocked' : 'not_configured';
    return { id: g.id, group: g.group, status, required: g.required, ...env };
  });
  if (engine) dependencies.push(searchEngineDependency(deps, engine.ok));
  const blocked = new Set(dependencies.filter((d) => d.status === 'blocked').map((d) => d.id));
  const flows = FLOWS.map((f) => {
    const blockedBy = f.needs.filter((n) => blocked.has(n));
    return { id: f.id, status: blockedBy.length ? ('blocked' as const) : ('ready' as const), blockedBy };
  });
  return {
    status: blocked.size === 0 ? 'ready' : 'blocked',
    service: deps.cfg.SERVICE_NAME,
    publicApiBaseUrl: `${deps.publicBaseUrl}/api/v1`,
    timestamp: new Date().toISOString(),
    dependencies,
    flows,
    safetyPosture: SAFETY_POSTURE,
  };
}

const probe = (deps: AppDeps) => runProbes(probeDepsOf(deps, Math.min(deps.cfg.TEMPORAL_RPC_DEADLINE_MS, deps.cfg.READY_PROBE_DEADLINE_MS)));
const uptime = (deps: AppDeps) => Math.round((Date.now() - deps.startedAt) / 10) / 100;
const health = { doc: 'public', tag: 'health', auth: 'public' } as const;

export function healthRoutes(): Route[] {
  return [
    defineRoute({
      ...health, method: 'get', path: `${PUBLIC_BASE}/health/live`, operationId: 'live', summary: 'Liveness', ok: { 200: ['the process runs', C.Live] },
      handler({ deps }) {
        return { status: 'ok' as const, timestamp: new Date().toISOString(), uptime: uptime(deps), service: deps.cfg.SERVICE_NAME };
      },
    }),
    defineRoute({
      ...health, method: 'get', path: `${PUBLIC_BASE}/health/ready`, operationId: 'ready', summary: 'Readiness (503 when blocked)',
      ok: { 200: ['ready', C.Readiness], 503: ['blocked: `flows[].blockedBy` names what is missing', C.Readiness] },
      async handler({ deps }) {
        const [p, engine] = await Promise.all([probe(deps), deps.searchEngine?.probe()]);
        const body = readiness(deps, p, engine);
        return body.status === 'ready' ? reply(200, body) : reply(503, body);
      },
    }),
    defineRoute({
      ...health, method: 'get', path: `${PUBLIC_BASE}/health`, operationId: 'legacyHealth', summary: 'Legacy health report (503 when unhealthy)',
      ok: { 200: ['healthy or degraded', C.LegacyHealth], 503: ['unhealthy: PostgreSQL is down', C.LegacyHealth] },
      handler: legacyHealth,
    }),
  ];
}

/** SEARCH_BACKEND=opensearch: the engine's state and the indexer's lag (services.search in /health). */
async function searchReport(deps: AppDeps) {
  const se = deps.searchEngine;
  if (!se) return undefined;
  const [engine, lag] = await Promise.all([se.probe(), se.lag().catch(() => undefined)]);
  return {
    backend: 'opensearch',
    status: engine.ok ? 'connected' : 'fallback',
    cluster: engine.status ?? 'unreachable',
    ...(lag ? { pendingChanges: lag.pending, lagSeconds: Math.round(lag.lagSeconds * 1000) / 1000 } : {}),
    ...(se.lastError ? { lastError: se.lastError.slice(0, 300) } : {}),
  };
}

async function legacyHealth({ deps }: { deps: AppDeps; res: Response }) {
  const [p, search] = await Promise.all([probe(deps), searchReport(deps)]);
  const status = !p.database.ok ? ('unhealthy' as const) : p.temporal.ok && p.worker.ok ? ('healthy' as const) : ('degraded' as const);
  const cfg = deps.cfg;
  const base = deps.publicBaseUrl;
  const body = {
    status,
    timestamp: new Date().toISOString(),
    version: deps.version,
    uptime: uptime(deps),
    environment: cfg.NODE_ENV,
    services: {
      database: { status: p.database.ok ? 'connected' : 'disconnected', responseTime: p.database.ms },
      api: { status: 'operational', version: deps.version },
      temporal: { status: p.temporal.ok ? 'connected' : 'disconnected', workerPolling: p.worker.ok },
      ...(search ? { search } : {}),
      configuration: {
        legacyDataUrl: cfg.LEGACY_DATA_URL !== undefined,
        anonKey: cfg.LEGACY_ANON_KEY !== undefined,
        serviceKey: cfg.LEGACY_SERVICE_KEY !== undefined,
        ready: p.database.ok,
      },
    },
    runtime: { targetBackend: 'postgresql', ...(await runtimeReport(deps)) },
    system: {
      node: process.version,
      platform: process.platform,
      memoryRssBytes: process.memoryUsage().rss,
      pid: process.pid,
    },
    endpoints: {
      live: `${base}/api/v1/health/live`,
      ready: `${base}/api/v1/health/ready`,
      studios: `${base}/api/v1/studios`,
      intake: `${base}/api/private/portfolio-intake/v1`,
      docs: `${base}/docs`,
    },
    features: {
      portfolioIntake: true,
      publicWrites: false,
      storageDriver: cfg.STORAGE_DRIVER,
      identityProvider: cfg.IDP_DRIVER,
    },
  };
  return status === 'unhealthy' ? reply(503, body) : reply(200, body);
}

/** The cutover posture (contract 2.11, section 9): the stage every replica follows, read from the runtime store. */
async function runtimeReport(deps: AppDeps) {
  const legacyConfigured = deps.cutover.legacy !== undefined;
  try {
    const { effective, stored } = await deps.cutover.stage();
    return stageReport(effective, { legacyConfigured, stored, sampleRate: deps.cutover.sampleRate, legacyRoutes: LEGACY_READ_ROUTES });
  } catch {
    // PostgreSQL is away (the report is unhealthy anyway): say what is known, no guess at the stage
    return { currentPersistence: 'unknown', apiCutoverStage: 'unknown', publicReadSurface: 'unknown', notes: ['The stage is stored in PostgreSQL, which did not answer.'] };
  }
}
