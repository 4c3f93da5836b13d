// The field groups the process schemas share, and the rules a production process must meet.
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { parsePayloadKeys } from '../payload-keys';
import { parseSecretKey, parseSecretKeys } from '../secrets';
import { DATA_DIR_DEFAULT } from './root';

const nodeEnv = z.enum(['development', 'test', 'production']).default('development');
export const port = z.coerce.number().int().min(0).max(65535);
/** A port the stack launcher listens on and announces (0 would be a port the system picks, which nothing could be told). */
export const listenPort = z.coerce.number().int().min(1, 'must be a port from 1 to 65535 (0 is not one the stack can announce: pick a free one)').max(65535);
export const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');
export const optionalString = z.string().min(1).optional();

export const shared = {
  NODE_ENV: nodeEnv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** auto: human-readable lines when stdout is a terminal outside production, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  SERVICE_NAME: z.string().min(1).default('tattoo-portfolio-intake'),
  DATA_DIR: z.string().min(1).default(DATA_DIR_DEFAULT),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /**
   * Set when DATABASE_URL is a pooler in transaction mode (PgBouncer; `npm start -- --pooler`): the
   * same database without the pooler. Queries then go through DATABASE_URL without prepared
   * statements; LISTEN and the migrations (session state across statements) connect here.
   */
  DATABASE_DIRECT_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  TEMPORAL_ADDRESS: z.string().regex(/^[^\s:]+:\d+$/, 'expected host:port').optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('portfolio-intake'),
  TEMPORAL_API_KEY: optionalString,
  TEMPORAL_TLS: bool.default(false),
  /**
   * mTLS to a frontend that requires a client certificate (the launcher's real server, a cluster as
   * docs/deploy.md says): the CA that signed the frontend's certificate, this process's certificate
   * and key (PEM files, read at connect), and the name in the frontend's certificate. Any of them
   * turns TLS on.
   */
  TEMPORAL_TLS_CA_FILE: optionalString,
  TEMPORAL_TLS_CERT_FILE: optionalString,
  TEMPORAL_TLS_KEY_FILE: optionalString,
  TEMPORAL_TLS_SERVER_NAME: optionalString,
  /**
   * jwt: the Temporal frontend runs the server's JWT authorizer (the launcher's real server, a cluster
   * as docs/deploy.md says); the process presents tokens it signs itself with TEMPORAL_JWT_KEY_FILE,
   * `<namespace>:write`, each living TEMPORAL_TOKEN_TTL_SECONDS and replaced after two thirds of it.
   */
  TEMPORAL_AUTH: z.enum(['none', 'jwt']).default('none'),
  /** The token signing key (a JSON file: kid, private and public JWK, ES256); default DATA_DIR/secrets/temporal-jwt-key.json. */
  TEMPORAL_JWT_KEY_FILE: optionalString,
  TEMPORAL_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(900),
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
   * (terminated, failed, timed out, or unknown to this Temporal) and resumes them from the row
   * (0: never). The API's Retry-After for a decision on such a submission.
   */
  RECONCILE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** Open submissions the reconciler looks at per pass, oldest first; the next pass carries on after them. */
  RECONCILE_ROWS_PER_PASS: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** Largest image accepted, in pixels (width x height of one frame), read from the header before decoding (worker, projection). */
  MAX_IMAGE_PIXELS: z.coerce.number().int().min(1).max(1_000_000_000).default(50_000_000),
};

/**
 * Webhook targets: loopback receivers are allowed outside production unless set false; production
 * allows only https:// URLs resolving to public addresses and refuses true here.
 */
export const webhookTargets = {
  WEBHOOK_ALLOW_LOOPBACK: bool.optional(),
};

/**
 * The key webhook signing secrets are sealed with at rest (AES-256-GCM, lib/webhooks/secret-box.ts):
 * the API seals, the worker opens. Kept as text here (config is never a place for key bytes).
 */
export const webhookSecretKeys = {
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

export function webhookSecretKeyInProduction(cfg: { NODE_ENV: string; WEBHOOK_SECRET_KEY?: string | undefined }, ctx: z.RefinementCtx) {
  if (cfg.NODE_ENV === 'production' && cfg.WEBHOOK_SECRET_KEY === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_SECRET_KEY'],
      message: 'required when NODE_ENV=production: the key webhook signing secrets are encrypted with at rest, 32 random bytes (openssl rand -base64 32), the same for the API and the worker',
    });
}

/**
 * The keys every Temporal client and worker encrypts payloads with (temporal/payload-codec.ts): a
 * comma list of `id:key` (32 random bytes each, base64 or hex), the first one encrypting, every one
 * decrypting (a rotation puts the new key first and keeps the old ones while histories they sealed
 * live). The same list for the API and the worker. Unset outside production: one key generated
 * into DATA_DIR/secrets/temporal-payload.key.
 */
export const temporalPayloadKeys = {
  TEMPORAL_PAYLOAD_KEYS: z
    .string()
    .refine((v) => parsePayloadKeys(v) !== undefined, 'expected a comma list of id:key (id: letters, digits, . _ -; key: 32 bytes, base64 or hex: openssl rand -base64 32), ids unique')
    .optional(),
};

export function payloadKeysInProduction(cfg: { NODE_ENV: string; TEMPORAL_PAYLOAD_KEYS?: string | undefined }, ctx: z.RefinementCtx) {
  if (cfg.NODE_ENV === 'production' && cfg.TEMPORAL_PAYLOAD_KEYS === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['TEMPORAL_PAYLOAD_KEYS'],
      message: 'required when NODE_ENV=production: the keys Temporal payloads are encrypted with, id:key with 32 random bytes (e.g. k1:$(openssl rand -base64 32)), the same for the API and the worker',
    });
}

export function noLoopbackWebhooksInProduction(cfg: { NODE_ENV: string; WEBHOOK_ALLOW_LOOPBACK?: boolean | undefined }, ctx: z.RefinementCtx) {
  if (cfg.NODE_ENV === 'production' && cfg.WEBHOOK_ALLOW_LOOPBACK === true)
    ctx.addIssue({ code: 'custom', path: ['WEBHOOK_ALLOW_LOOPBACK'], message: 'loopback webhook targets are refused when NODE_ENV=production' });
}

/** A client certificate comes with its key, and the other way round. */
export function temporalTlsRules(cfg: { TEMPORAL_TLS_CERT_FILE?: string | undefined; TEMPORAL_TLS_KEY_FILE?: string | undefined }, ctx: z.RefinementCtx) {
  if ((cfg.TEMPORAL_TLS_CERT_FILE === undefined) !== (cfg.TEMPORAL_TLS_KEY_FILE === undefined))
    ctx.addIssue({ code: 'custom', path: [cfg.TEMPORAL_TLS_CERT_FILE === undefined ? 'TEMPORAL_TLS_CERT_FILE' : 'TEMPORAL_TLS_KEY_FILE'], message: 'TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE go together (the client certificate and its key)' });
}

/** TEMPORAL_AUTH=jwt is a self-hosted frontend's: never beside Temporal Cloud's API key; in production its key is named, not generated. */
export function temporalAuthRules(cfg: { NODE_ENV: string; TEMPORAL_AUTH: string; TEMPORAL_API_KEY?: string | undefined; TEMPORAL_JWT_KEY_FILE?: string | undefined }, ctx: z.RefinementCtx) {
  if (cfg.TEMPORAL_AUTH !== 'jwt') return;
  if (cfg.TEMPORAL_API_KEY !== undefined) ctx.addIssue({ code: 'custom', path: ['TEMPORAL_API_KEY'], message: 'TEMPORAL_AUTH=jwt mints its own tokens: unset TEMPORAL_API_KEY (or TEMPORAL_AUTH)' });
  if (cfg.NODE_ENV === 'production' && cfg.TEMPORAL_JWT_KEY_FILE === undefined)
    ctx.addIssue({ code: 'custom', path: ['TEMPORAL_JWT_KEY_FILE'], message: 'required when NODE_ENV=production with TEMPORAL_AUTH=jwt (the token signing key, mounted as a secret)' });
}

/** Variables a production process may not leave to embedded defaults. */
const productionRequired = ['DATABASE_URL', 'TEMPORAL_ADDRESS'] as const;

export function requireInProduction<T extends { NODE_ENV: string }>(extra: readonly (keyof T & string)[] = []) {
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
export function noFaultsInProduction(keys: readonly string[]) {
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
