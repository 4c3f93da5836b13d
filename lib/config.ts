// The only module that reads process.env. Each process parses its own schema once at start.
import fs from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { parseSecretKey, parseSecretKeys } from './webhooks/secret-box';
import { readRunFile, RUN_FILE } from './stack-run';

/**
 * The folder holding package.json: files read at run time by path (migrations/, api/docs,
 * api/console/web/console.css, lib/media/heic-decode-worker.mjs) are found from here, whether this module runs
 * from source (lib/config.ts under tsx) or bundled into dist/<entry>.js by `npm run build`.
 */
export const PROJECT_ROOT = projectRoot(import.meta.dirname);
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}
export const DATA_DIR_DEFAULT = path.join(PROJECT_ROOT, '.data');

const nodeEnv = z.enum(['development', 'test', 'production']).default('development');
const port = z.coerce.number().int().min(0).max(65535);
const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');
const optionalString = z.string().min(1).optional();

/** Embedded defaults (what `npm start` launches) so a process started alone on a dev machine finds them. */
export const EMBEDDED_DEFAULTS = {
  apiPort: 3000,
  postgresPort: 54329,
  databaseUrl: 'postgres://postgres:postgres@127.0.0.1:54329/intake',
  temporalAddress: '127.0.0.1:7233',
  temporalUiPort: 8233,
} as const;

const shared = {
  NODE_ENV: nodeEnv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** auto: human-readable lines when stdout is a terminal outside production, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  SERVICE_NAME: z.string().min(1).default('tattoo-portfolio-intake'),
  DATA_DIR: z.string().min(1).default(DATA_DIR_DEFAULT),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  TEMPORAL_ADDRESS: z.string().regex(/^[^\s:]+:\d+$/, 'expected host:port').optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('portfolio-intake'),
  TEMPORAL_API_KEY: optionalString,
  TEMPORAL_TLS: bool.default(false),
  STORAGE_DRIVER: z.enum(['local', 'gcs']).default('local'),
  STORAGE_LOCAL_DIR: optionalString,
  GCS_STAGING_BUCKET: optionalString,
  GCS_MEDIA_BUCKET: optionalString,
  GCS_PROJECT_ID: optionalString,
  GOOGLE_APPLICATION_CREDENTIALS: optionalString,
  STORAGE_EMULATOR_HOST: optionalString,
  UPLOAD_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  IDP_DRIVER: z.enum(['local', 'external']).default('local'),
  IDP_JWKS_URL: z.url().optional(),
  IDP_ISSUER: optionalString,
  IDP_AUDIENCE: optionalString,
  IDP_KEY_VERIFY_URL: z.url().optional(),
  IDP_KEY_VERIFY_TOKEN: optionalString,
  IDP_ALGORITHMS: z.string().default('RS256,ES256,EdDSA'),
  IDP_CLOCK_TOLERANCE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString,
  LEGACY_DATA_URL: optionalString,
  LEGACY_ANON_KEY: optionalString,
  LEGACY_SERVICE_KEY: optionalString,
  COMMS_INTAKE_WEBHOOK_SECRET: optionalString,
  /**
   * How often the worker's reconciler looks for open submissions whose workflow run is gone
   * (terminated, failed, timed out) and resumes them from the row (0: never). The API's Retry-After
   * for a decision on such a submission.
   */
  RECONCILE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** How far back the reconciler looks at closed runs. */
  RECONCILE_LOOKBACK_SECONDS: z.coerce.number().int().min(60).max(90 * 86400).default(7 * 86400),
  /** Largest image accepted, in pixels (width x height of one frame), read from the header before decoding (worker, projection). */
  MAX_IMAGE_PIXELS: z.coerce.number().int().min(1).max(1_000_000_000).default(50_000_000),
};

/**
 * Webhook targets: loopback receivers are allowed outside production unless set false; production
 * allows only https:// URLs resolving to public addresses and refuses true here.
 */
const webhookTargets = {
  WEBHOOK_ALLOW_LOOPBACK: bool.optional(),
};

/**
 * The key webhook signing secrets are sealed with at rest (AES-256-GCM, lib/webhooks/secret-box.ts):
 * the API seals, the worker opens. Kept as text here (config is never a place for key bytes).
 */
const webhookSecretKeys = {
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine((v) => parseSecretKey(v) !== undefined, 'expected 32 random bytes, base64 or 64 hex digits (openssl rand -base64 32)')
    .optional(),
  /** Keys retired by a rotation that may still have sealed rows (comma list): they open, never seal. */
  WEBHOOK_SECRET_PREVIOUS_KEYS: z
    .string()
    .refine((v) => parseSecretKeys(v) !== undefined, 'expected a comma list of 32-byte keys, base64 or hex')
    .optional(),
};

function webhookSecretKeyInProduction(cfg: { NODE_ENV: string; WEBHOOK_SECRET_KEY?: string | undefined }, ctx: z.RefinementCtx) {
  if (cfg.NODE_ENV === 'production' && cfg.WEBHOOK_SECRET_KEY === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_SECRET_KEY'],
      message: 'required when NODE_ENV=production: the key webhook signing secrets are encrypted with at rest, 32 random bytes (openssl rand -base64 32), the same for the API and the worker',
    });
}

/** The target policy both the registration (API) and the delivery (worker) apply. */
export function webhookPolicyOf(cfg: { NODE_ENV: string; WEBHOOK_ALLOW_LOOPBACK?: boolean | undefined }) {
  const production = cfg.NODE_ENV === 'production';
  return { production, allowLoopback: !production && cfg.WEBHOOK_ALLOW_LOOPBACK !== false };
}

function noLoopbackWebhooksInProduction(cfg: { NODE_ENV: string; WEBHOOK_ALLOW_LOOPBACK?: boolean | undefined }, ctx: z.RefinementCtx) {
  if (cfg.NODE_ENV === 'production' && cfg.WEBHOOK_ALLOW_LOOPBACK === true)
    ctx.addIssue({ code: 'custom', path: ['WEBHOOK_ALLOW_LOOPBACK'], message: 'loopback webhook targets are refused when NODE_ENV=production' });
}

/** Variables a production process may not leave to embedded defaults. */
const productionRequired = ['DATABASE_URL', 'TEMPORAL_ADDRESS'] as const;

function requireInProduction<T extends { NODE_ENV: string }>(extra: readonly (keyof T & string)[] = []) {
  return (cfg: T, ctx: z.RefinementCtx) => {
    if (cfg.NODE_ENV !== 'production') return;
    for (const key of [...productionRequired, ...extra] as string[]) {
      if ((cfg as Record<string, unknown>)[key] === undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'required when NODE_ENV=production' });
      }
    }
  };
}

/** Fault-injection switches exist for the fault suite; a production process refuses to start with one on. */
function noFaultsInProduction(keys: readonly string[]) {
  return (cfg: { NODE_ENV: string }, ctx: z.RefinementCtx) => {
    if (cfg.NODE_ENV !== 'production') return;
    for (const key of keys) if ((cfg as Record<string, unknown>)[key] === true) ctx.addIssue({ code: 'custom', path: [key], message: 'fault injection is refused when NODE_ENV=production' });
  };
}

/** Express's names for address ranges, accepted in a TRUST_PROXY list beside addresses and CIDRs. */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isAddressOrCidr = (v: string) => TRUST_PROXY_NAMES.has(v) || ipaddr.isValid(v) || (v.includes('/') && isCidr(v));
function isCidr(v: string): boolean {
  try {
    ipaddr.parseCIDR(v);
    return true;
  } catch {
    return false;
  }
}

/**
 * Which proxies in front of the API are trusted to name the client (X-Forwarded-For), as Express's
 * `trust proxy` setting: off (default: forwarded headers are ignored), a hop count (1: the load
 * balancer right in front), or a comma list of addresses / CIDRs / `loopback`, `linklocal`,
 * `uniquelocal`. `true` (trust any sender) is refused: any client could then pick its address.
 */
export const trustProxySchema = z
  .string()
  .trim()
  .transform((v, ctx): false | number | string[] => {
    if (v === 'false' || v === '0') return false;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 100) return hops;
    } else {
      const list = v.split(',').map((s) => s.trim()).filter(Boolean);
      if (list.length > 0 && list.every(isAddressOrCidr)) return list;
    }
    ctx.addIssue({ code: 'custom', message: 'expected false, a hop count (1-100) or a comma list of addresses / CIDRs (e.g. 10.0.0.0/8,loopback)' });
    return z.NEVER;
  })
  .default(false);

export const apiConfigSchema = z
  .object({
    ...shared,
    PORT: port.default(EMBEDDED_DEFAULTS.apiPort),
    HOST: z.string().min(1).default('127.0.0.1'),
    TRUST_PROXY: trustProxySchema,
    PUBLIC_BASE_URL: z.url().optional(),
    /** Production: further Host values the API answers besides PUBLIC_BASE_URL's (comma list, e.g. an internal name). */
    ALLOWED_HOSTS: z
      .string()
      .transform((v) => v.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean))
      .optional(),
    TEMPORAL_UI_URL: z.url().optional(),
    UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(7 * 24 * 3600).default(900),
    MAX_MEDIA_BYTES: z.coerce.number().int().min(1).default(50 * 1024 * 1024),
    UPLOAD_GRACE_SECONDS: z.coerce.number().int().min(0).max(86400).default(300),
    TEMPORAL_RPC_DEADLINE_MS: z.coerce.number().int().min(100).max(60000).default(5000),
    TRANSITION_WAIT_MS: z.coerce.number().int().min(0).max(60000).default(10000),
    READY_POLLER_WINDOW_SECONDS: z.coerce.number().int().min(1).max(600).default(90),
    /** A worker counts as alive while its last heartbeat to the Temporal server is at most this old (workers beat every WORKER_HEARTBEAT_SECONDS). */
    READY_WORKER_LIVENESS_SECONDS: z.coerce.number().int().min(2).max(600).default(10),
    /**
     * The partner portal's docs handoff (lib/portal/handoff.ts): the 32-byte key (base64) that seals
     * it, generated into DATA_DIR/secrets outside production; and how long a handoff lasts.
     */
    PORTAL_HANDOFF_KEY: z
      .string()
      .refine((v) => Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64').length === 32, 'must be 32 bytes, base64 (openssl rand -base64 32)')
      .optional(),
    PORTAL_HANDOFF_TTL_SECONDS: z.coerce.number().int().min(10).max(86400).default(86400),
    /** With IDP_DRIVER=external: where partners manage their keys (the local portal is not served then). */
    PARTNER_PORTAL_URL: z.url().optional(),
    /** The docs page offers the embedded stack's demo partner key (never in production). */
    DOCS_PREFILL_DEMO_KEY: bool.default(true),
    /** Apply the migrations when the API starts (off when the stack launcher applied them as the owner). */
    MIGRATE_ON_START: bool.default(true),
    /** Rate limits per credential (per client address on public routes), requests per minute per route family; shared through PostgreSQL. */
    RATE_LIMITS_ENABLED: bool.default(true),
    RATE_LIMIT_CREATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
    RATE_LIMIT_UPLOAD_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
    RATE_LIMIT_SIGNAL_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(240),
    RATE_LIMIT_READ_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
    RATE_LIMIT_PUBLIC_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    /** Per organization: submissions open at once (staged, verifying, awaiting_review), and the bytes they declare. The names are kept from when only `staged` counted. */
    QUOTA_STAGED_SUBMISSIONS: z.coerce.number().int().min(1).max(1_000_000).default(100),
    QUOTA_STAGED_BYTES: z.coerce.number().int().min(1).default(2 * 1024 * 1024 * 1024),
    /** /search and /studios count totals exactly up to this many matches; beyond it `total` is this cap with total_relation "gte" (as Lucene's track_total_hits). */
    /** Stage shadow_reads: the share of legacy-readable directory reads also read from the legacy store and compared (0..1). */
    CUTOVER_SHADOW_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.05),
    SEARCH_TOTAL_CAP: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    /** Bearer token for GET /metrics; without it /metrics answers only outside production. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    ...webhookTargets,
    ...webhookSecretKeys,
    /** Fault suite only (F4): the API kills itself after committing a new submission row. */
    FAULT_KILL_AFTER_SUBMISSION_COMMIT: bool.default(false),
    /**
     * Ed25519 private key (PKCS#8 PEM; `\n` escapes allowed) the API signs operators' decisions
     * with (lib/intake/decision-proof.ts). Embedded default: generated into DATA_DIR/secrets.
     */
    DECISION_SIGNING_KEY: z.string().includes('PRIVATE KEY', { message: 'expected a PKCS#8 PEM private key' }).optional(),
  })
  .superRefine(requireInProduction(['PUBLIC_BASE_URL', 'UPLOAD_SIGNING_SECRET', 'DECISION_SIGNING_KEY']))
  .superRefine(noFaultsInProduction(['FAULT_KILL_AFTER_SUBMISSION_COMMIT']))
  .superRefine(noLoopbackWebhooksInProduction)
  .superRefine(webhookSecretKeyInProduction)
  .superRefine((cfg, ctx) => {
    // The portal is the local identity provider's: in production it needs its own handoff key.
    if (cfg.NODE_ENV === 'production' && cfg.IDP_DRIVER === 'local' && cfg.PORTAL_HANDOFF_KEY === undefined)
      ctx.addIssue({ code: 'custom', path: ['PORTAL_HANDOFF_KEY'], message: 'required when NODE_ENV=production with IDP_DRIVER=local (the partner portal\'s docs handoff)' });
  });

export const workerConfigSchema = z
  .object({
    ...shared,
    WORKER_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).max(1000).default(50),
    WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: z.coerce.number().int().min(1).max(1000).default(50),
    WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600000).default(10000),
    /** How often the worker heartbeats to the Temporal server (1-60 s): readiness sees a killed worker within READY_WORKER_LIVENESS_SECONDS. */
    WORKER_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(60).default(2),
    /** Sticky cache: open workflows kept in memory; beyond it they are replayed from history. */
    WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(0).max(100000).default(500),
    /**
     * How long one workflow activation may run before the SDK calls it a deadlock (its
     * isolateExecutionTimeout, 5 s by default). Longer here: when that timeout fires inside an
     * activation, Node.js (vm microtaskMode 'afterEvaluate' + timeout) can abort the whole process
     * with "async hook stack has become corrupted" (docs/on-call.md, E4). Workflow code never
     * blocks; an activation only runs long when the worker is starved of CPU.
     */
    WORKER_ISOLATE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
    WORKFLOW_BUNDLE_PATH: optionalString,
    /**
     * Worker Deployment Versions (worker/versioning.ts): set, the worker polls as version
     * (WORKER_DEPLOYMENT_NAME, build id) and the server routes by the deployment's current version;
     * unset, it polls unversioned (the embedded stack, the tests).
     */
    WORKER_DEPLOYMENT_NAME: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'letters, digits, - and _ (at most 100)').optional(),
    /** The version's build id; default: the one `npm run build` wrote beside the workflow bundle (dist/build-info.json). */
    WORKER_BUILD_ID: z.string().regex(/^[A-Za-z0-9._+-]{1,100}$/, 'letters, digits, ., _, + and - (at most 100)').optional(),
    /** Staged bytes and previews of a submission in a final state are deleted after this many seconds. */
    STAGING_RETENTION_SECONDS: z.coerce.number().int().min(0).max(30 * 86400).default(3600),
    /** How often the worker looks for staged bytes past their retention (0: never). */
    RETENTION_SWEEP_SECONDS: z.coerce.number().int().min(0).max(86400).default(60),
    /** Port of the worker's /metrics (Prometheus text; 0: none). Listens on WORKER_METRICS_HOST. */
    WORKER_METRICS_PORT: port.default(0),
    WORKER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** Bearer token for the worker's /metrics (as METRICS_TOKEN for the API). */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    ...webhookTargets,
    ...webhookSecretKeys,
    /** Webhook retries: first backoff, its cap, and how long a delivery is retried before it is marked failed. */
    WEBHOOK_RETRY_INITIAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
    WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86400).default(3600),
    WEBHOOK_RETRY_WINDOW_SECONDS: z.coerce.number().int().min(10).max(30 * 86400).default(86400),
    /**
     * What this worker process runs: `all` (the default: intake and webhook delivery), `intake` (the
     * intake worker, the retention sweeps) or `webhooks` (the webhook worker and its dispatcher), so
     * webhook delivery can run in processes of its own (scaled, placed and prioritised apart from intake).
     */
    WORKER_ROLE: z.enum(['all', 'intake', 'webhooks']).default('all'),
    /** The webhook lane's own task queue (default: TEMPORAL_TASK_QUEUE + `-webhooks`), polled by a second worker in the worker process. */
    WEBHOOK_TASK_QUEUE: optionalString,
    /**
     * Slots of that webhook worker, apart from the intake worker's: slow receivers use these, never
     * intake's. One slot is one endpoint being delivered to (its deliverer); an endpoint with nothing
     * due soon gives its slot back.
     */
    WEBHOOK_WORKER_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).max(1000).default(50),
    /** Submissions of one endpoint delivered at once (one delivery in flight per submission, so each submission's order holds). */
    WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
    WEBHOOK_WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: z.coerce.number().int().min(1).max(1000).default(20),
    /** How often the dispatcher sweeps for events and deliveries besides being woken (LISTEN). */
    WEBHOOK_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
    /** Public base URL of the API, for the asset URLs in webhook payloads (as the API's PUBLIC_BASE_URL); else http://127.0.0.1:PORT. */
    PUBLIC_BASE_URL: z.url().optional(),
    /** The API's port (the stack launcher passes it), for that fallback. */
    PORT: port.default(EMBEDDED_DEFAULTS.apiPort),
    /** Fault suite only (F2): the worker kills itself once per submission between copy and row insert. */
    FAULT_KILL_AFTER_MEDIA_COPY: bool.default(false),
    /**
     * The public half of DECISION_SIGNING_KEY (SPKI PEM; several blocks during a rotation): the
     * worker verifies decisions with it and cannot mint them. Embedded default: derived from the
     * key generated into DATA_DIR/secrets.
     */
    DECISION_VERIFY_KEY: z.string().includes('PUBLIC KEY', { message: 'expected an SPKI PEM public key' }).optional(),
  })
  .superRefine(requireInProduction(['DECISION_VERIFY_KEY']))
  .superRefine(noFaultsInProduction(['FAULT_KILL_AFTER_MEDIA_COPY']))
  .superRefine(noLoopbackWebhooksInProduction)
  .superRefine(webhookSecretKeyInProduction);

export const stackConfigSchema = z.object({
  ...shared,
  PORT: port.default(EMBEDDED_DEFAULTS.apiPort),
  POSTGRES_PORT: port.default(EMBEDDED_DEFAULTS.postgresPort),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(EMBEDDED_DEFAULTS.temporalUiPort),
  /** `npm start` serves the worker's /metrics here (0: not at all). */
  WORKER_METRICS_PORT: port.default(9464),
  TEMPORAL_CLI_PATH: optionalString,
  TEMPORAL_SQLITE_FILE: optionalString,
  SEED_DEMO: bool.default(true),
});

/** The tools (migrate, iam, seed, import, cutover): in production DATABASE_URL, never the embedded default. */
export const toolConfigSchema = z
  .object({
    ...shared,
    ...webhookSecretKeys,
    /** The embedded PostgreSQL's port when no stack.json of a running stack says it (tools only). */
    POSTGRES_PORT: port.optional(),
    /** Where a tool's links point (iam console-link), when no --api and no stack.json says it. */
    PUBLIC_BASE_URL: z.url().optional(),
    PORT: port.optional(),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.NODE_ENV === 'production' && cfg.DATABASE_URL === undefined)
      ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'required when NODE_ENV=production (a tool never falls back to the embedded database there)' });
  });

export type ApiConfig = z.infer<typeof apiConfigSchema>;
export type WorkerConfig = z.infer<typeof workerConfigSchema>;
export type StackConfig = z.infer<typeof stackConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      'Invalid configuration:\n' +
        problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Parse an env map (process.env by default). Empty strings count as unset. */
export function parseConfig<S extends z.ZodType>(schema: S, env: Env = process.env): z.infer<S> {
  const cleaned: Env = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') cleaned[k] = v;
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((i) => ({
      variable: String(i.path[0] ?? '(env)'),
      // never echo the received value: it may be a secret
      message: i.message,
    })),
  );
}

/** For process entry points: parse or print the problems and exit non-zero. */
export function loadConfigOrExit<S extends z.ZodType>(schema: S, env: Env = process.env): z.infer<S> {
  try {
    return parseConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.message + '\n');
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}

/**
 * The ports of a stack's pieces. Whoever launches a stack (npm start, a test, a bench) picks them
 * and hands them down; no child inherits the caller's (set for a stack of their own).
 */
export const STACK_PORT_VARIABLES = ['PORT', 'POSTGRES_PORT', 'TEMPORAL_PORT', 'TEMPORAL_UI_PORT', 'WORKER_METRICS_PORT'] as const;

/**
 * A copy of the current environment for child processes, without the caller's
 * STACK_PORT_VARIABLES, with overrides (where a launcher names the ports it picked).
 */
export function childEnv(overrides: Env): Env {
  const env: Env = { ...process.env };
  for (const name of STACK_PORT_VARIABLES) delete env[name];
  return { ...env, ...overrides };
}

/** Where the embedded stack keeps its PostgreSQL superuser password (under DATA_DIR/secrets). */
export const POSTGRES_PASSWORD_SECRET = 'postgres-password';
/** ... and the password of the least-privilege role its API and worker connect as (lib/db/app-role.ts). */
export const POSTGRES_APP_PASSWORD_SECRET = 'postgres-app-password';

/**
 * DATABASE_URL, else the embedded stack's database with the password `npm start` generated into
 * DATA_DIR/secrets (the legacy fixed one before the stack has run).
 */
export function databaseUrlOf(cfg: { DATABASE_URL?: string | undefined; DATA_DIR?: string; POSTGRES_PORT?: number | undefined }): string {
  return databaseOf(cfg).url;
}

/**
 * The database a tool connects to, and how it was chosen: DATABASE_URL; else the embedded stack
 * running on DATA_DIR, at the port its run file (DATA_DIR/stack.json) names; else POSTGRES_PORT
 * (default 54329). `source` says which, for the tool's one line of where it connected.
 */
export function databaseOf(cfg: { DATABASE_URL?: string | undefined; DATA_DIR?: string; POSTGRES_PORT?: number | undefined }): { url: string; source: string } {
  if (cfg.DATABASE_URL) return { url: cfg.DATABASE_URL, source: 'DATABASE_URL' };
  const dataDir = cfg.DATA_DIR ?? DATA_DIR_DEFAULT;
  const run = readRunFile(dataDir);
  const port = run?.databasePort ?? cfg.POSTGRES_PORT ?? EMBEDDED_DEFAULTS.postgresPort;
  const source = run?.databasePort ? `the running stack's ${path.join(dataDir, RUN_FILE)}` : cfg.POSTGRES_PORT ? 'POSTGRES_PORT' : 'the embedded default port (no stack.json of a running stack)';
  const url = new URL(embeddedUrlOf(dataDir));
  url.port = String(port);
  return { url: url.toString(), source };
}

function embeddedUrlOf(dataDir: string): string {
  const file = path.join(dataDir, 'secrets', POSTGRES_PASSWORD_SECRET);
  let password: string;
  try {
    password = fs.readFileSync(file, 'utf8').trim();
  } catch {
    return EMBEDDED_DEFAULTS.databaseUrl;
  }
  const url = new URL(EMBEDDED_DEFAULTS.databaseUrl);
  url.password = password; // base64url: nothing to escape
  return url.toString();
}

export function temporalAddressOf(cfg: { TEMPORAL_ADDRESS?: string | undefined }): string {
  return cfg.TEMPORAL_ADDRESS ?? EMBEDDED_DEFAULTS.temporalAddress;
}

/** PATH, for locating tools. */
export function pathVariable(): string | undefined {
  return process.env.PATH;
}

/** `--help` of a process configured by environment only: each variable it reads, with its default. */
export function environmentHelp(about: string, command: string, schema: z.ZodObject): string {
  const lines = Object.entries(schema.shape).map(([name, field]) => {
    const def = (field as z.ZodType).def as { type: string; defaultValue?: unknown };
    const value = def.type === 'default' ? def.defaultValue : undefined;
    const shown = value === undefined ? '' : ` (default ${Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value)})`;
    return `  ${name}${name.match(/SECRET|KEY|TOKEN|PASSWORD/) ? '' : shown}`;
  });
  return [about, '', `usage: ${command}`, '', 'It takes no options. It reads these environment variables (the README and docs/deploy.md say what each does):', ...lines, '', 'options:', '  -h, --help  this text'].join('\n');
}

/**
 * A process that cannot reach PostgreSQL or Temporal at start says which, at which host:port, in
 * one line (exit 69, EX_UNAVAILABLE: the supervisor retries it); undefined for any other error.
 */
export function unreachableAt(err: unknown, cfg: { DATABASE_URL?: string | undefined; DATA_DIR?: string; POSTGRES_PORT?: number | undefined; TEMPORAL_ADDRESS?: string | undefined }): string | undefined {
  const e = err as { code?: string; message?: string; name?: string };
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ETIMEDOUT' || e?.code === 'EHOSTUNREACH' || e?.code === 'ENOTFOUND') {
    const u = new URL(databaseUrlOf(cfg));
    return `cannot reach PostgreSQL at ${u.hostname}:${u.port || '5432'}${u.pathname} (${e.code}); is the stack running (npm start), or is DATABASE_URL right?`;
  }
  if (e?.name === 'TransportError' || /tcp connect error|Connection refused/.test(e?.message ?? '')) {
    return `cannot reach Temporal at ${temporalAddressOf(cfg)} (connection refused); is the stack running (npm start), or is TEMPORAL_ADDRESS right?`;
  }
  return undefined;
}
