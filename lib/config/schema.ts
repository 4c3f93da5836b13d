// One schema per kind of process (API, worker, stack launcher, tools), each parsed once at start.
import { z } from 'zod';
import {
  bool,
  listenPort,
  noFaultsInProduction,
  noLoopbackWebhooksInProduction,
  optionalString,
  payloadKeysInProduction,
  port,
  requireInProduction,
  shared,
  temporalAuthRules,
  temporalTlsRules,
  temporalPayloadKeys,
  trustProxySchema,
  webhookSecretKeyInProduction,
  webhookSecretKeys,
  webhookTargets,
} from './fields';
import { EMBEDDED_DEFAULTS } from './root';

/** GET /search's backend (issue 45): PostgreSQL (the default), or OpenSearch fed from the change log with PostgreSQL behind it. */
export const searchEngineFields = {
  SEARCH_BACKEND: z.enum(['postgres', 'opensearch']).default('postgres'),
  /** One node's URL, or several comma-separated (the nodes of a cluster, tried in turn when one does not answer). */
  SEARCH_OPENSEARCH_URL: z
    .string()
    .refine((v) => v.split(',').every((u) => URL.canParse(u.trim()) && /^https?:$/.test(new URL(u.trim()).protocol)), 'one http(s) URL, or several separated by commas')
    .optional(),
  /** The read alias; its indices are named after it. */
  SEARCH_OPENSEARCH_ALIAS: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,100}$/, 'lowercase letters, digits, - and _').default('directory-search'),
  /** Per call to OpenSearch; past it /search answers from PostgreSQL. */
  SEARCH_OPENSEARCH_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /** After OpenSearch failed, /search goes straight to PostgreSQL for this long before trying it again. */
  SEARCH_OPENSEARCH_RETRY_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /** This API process also runs the indexer (any number may: one batch runs at a time). */
  SEARCH_INDEXER: bool.default(true),
  SEARCH_OPENSEARCH_SHARDS: z.coerce.number().int().min(1).max(1024).default(1),
  SEARCH_OPENSEARCH_REPLICAS: z.coerce.number().int().min(0).max(16).default(0),
};

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
    /**
     * The Temporal Web UI (the stack launcher sets it): the one origin allowed, with credentials,
     * to call the codec endpoint (TEMPORAL_CODEC_BASE/decode, /encode) from the browser.
     */
    TEMPORAL_UI_URL: z.url().optional(),
    UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(7 * 24 * 3600).default(900),
    MAX_MEDIA_BYTES: z.coerce.number().int().min(1).default(50 * 1024 * 1024),
    UPLOAD_GRACE_SECONDS: z.coerce.number().int().min(0).max(86400).default(300),
    TEMPORAL_RPC_DEADLINE_MS: z.coerce.number().int().min(100).max(60000).default(5000),
    TRANSITION_WAIT_MS: z.coerce.number().int().min(0).max(60000).default(10000),
    /** The second-review policy (lib/intake/second-review.ts): a flagged similar image asks for a second, different operator's approval. */
    SECOND_REVIEW_SIMILAR_MATCHES: bool.default(true),
    /** ... and so does a current classification's content flag at or above this confidence (0-1), or `off`. */
    SECOND_REVIEW_CONTENT_FLAG: z
      .union([z.literal('off'), z.coerce.number().min(0).max(1)])
      .default(0.5)
      .transform((v) => (v === 'off' ? null : v)),
    READY_POLLER_WINDOW_SECONDS: z.coerce.number().int().min(1).max(600).default(90),
    /** How long a signal route's "a worker is there" answer stands for the next ones (api/temporal/workflow-calls.ts sharedWorkerCheck; 0: every request asks). */
    WORKER_CHECK_REUSE_MS: z.coerce.number().int().min(0).max(10000).default(1000),
    /** How long /health/ready (and /health) waits for PostgreSQL and Temporal to answer before it counts one as down (never above TEMPORAL_RPC_DEADLINE_MS). */
    READY_PROBE_DEADLINE_MS: z.coerce.number().int().min(100).max(30000).default(3000),
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
    /** Per organization: undecided open submissions at once (lib/intake/lifecycle.ts UNDECIDED: staged, verifying, awaiting_review), and the bytes they declare. */
    QUOTA_STAGED_SUBMISSIONS: z.coerce.number().int().min(1).max(1_000_000).default(100),
    QUOTA_STAGED_BYTES: z.coerce.number().int().min(1).default(2 * 1024 * 1024 * 1024),
    /** Stage shadow_reads: the share of legacy-readable directory reads also read from the legacy store and compared (0..1). */
    CUTOVER_SHADOW_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.05),
    /** /search and /studios count totals exactly up to this many matches; beyond it `total` is this cap with total_relation "gte" (as Lucene's track_total_hits). */
    SEARCH_TOTAL_CAP: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    ...searchEngineFields,
    /** Bearer token for GET /metrics; without it /metrics answers only outside production. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    ...webhookTargets,
    ...webhookSecretKeys,
    ...temporalPayloadKeys,
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
  .superRefine(payloadKeysInProduction)
  .superRefine(temporalAuthRules)
  .superRefine(temporalTlsRules)
  .superRefine((cfg, ctx) => {
    if (cfg.SEARCH_BACKEND === 'opensearch' && cfg.SEARCH_OPENSEARCH_URL === undefined)
      ctx.addIssue({ code: 'custom', path: ['SEARCH_OPENSEARCH_URL'], message: 'required when SEARCH_BACKEND=opensearch (e.g. http://127.0.0.1:9200)' });
  })
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
    /**
     * A workflow activation still in flight this long after the worker took it means the workflow
     * thread is wedged past the SDK's own deadlock detector (worker/workflow-watchdog.ts): the worker
     * stops polling and exits 70 for its supervisor (the launcher, systemd) to start it again. Above
     * WORKER_ISOLATE_TIMEOUT_SECONDS, so one slow activation is the SDK's to end first.
     */
    WORKER_STALL_SECONDS: z.coerce.number().int().min(2).max(3600).default(45),
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
    ...temporalPayloadKeys,
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
  .superRefine((cfg, ctx) => {
    if (cfg.WORKER_STALL_SECONDS <= cfg.WORKER_ISOLATE_TIMEOUT_SECONDS)
      ctx.addIssue({ code: 'custom', path: ['WORKER_STALL_SECONDS'], message: `must be above WORKER_ISOLATE_TIMEOUT_SECONDS (${cfg.WORKER_ISOLATE_TIMEOUT_SECONDS}): one slow activation is the SDK's deadlock detector's to end first` });
  })
  .superRefine(requireInProduction(['DECISION_VERIFY_KEY']))
  .superRefine(noFaultsInProduction(['FAULT_KILL_AFTER_MEDIA_COPY']))
  .superRefine(noLoopbackWebhooksInProduction)
  .superRefine(webhookSecretKeyInProduction)
  .superRefine(payloadKeysInProduction)
  .superRefine(temporalAuthRules)
  .superRefine(temporalTlsRules);

export const stackConfigSchema = z.object({
  ...shared,
  PORT: listenPort.default(EMBEDDED_DEFAULTS.apiPort),
  POSTGRES_PORT: listenPort.default(EMBEDDED_DEFAULTS.postgresPort),
  TEMPORAL_PORT: listenPort.default(7233),
  TEMPORAL_UI_PORT: listenPort.default(EMBEDDED_DEFAULTS.temporalUiPort),
  /** `npm start` serves the worker's /metrics here (0: not at all). */
  WORKER_METRICS_PORT: port.default(9464),
  TEMPORAL_CLI_PATH: optionalString,
  TEMPORAL_SQLITE_FILE: optionalString,
  /** `--temporal server` runs the JWT authorizer unless this says none; the dev server has none (jwt is refused there). */
  TEMPORAL_AUTH: z.enum(['none', 'jwt']).optional(),
  /**
   * `--temporal server`: the cluster's own certificates (docs/deploy.md, "Certificates": cluster-ca.pem,
   * client-ca.pem, frontend and internode pairs, client-<who> pairs); none: no mTLS. Default: a local
   * CA under DATA_DIR/secrets/temporal-tls, made and renewed by the launcher.
   */
  TEMPORAL_SERVER_TLS_DIR: optionalString,
  SEED_DEMO: bool.default(true),
  /** `npm start -- --search opensearch`: the node's HTTP port (default 9200). */
  SEARCH_OPENSEARCH_PORT: listenPort.optional(),
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
