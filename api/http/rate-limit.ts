// Rate limits per credential (per client address on public routes), one limit per route family,
// creates also per organization (every key of an organization shares its window),
// counted in PostgreSQL so every API replica shares them (rate-limiter-flexible's
// RateLimiterPostgres on a small pg pool of its own). Every limited answer carries the IETF
// RateLimit-Policy and RateLimit headers; a refusal is 429 `rate_limited` with Retry-After. Should
// PostgreSQL not answer, each replica falls back to counting in memory (the insurance limiter)
// rather than refusing or failing requests.
import type { Response } from 'express';
import pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { ApiConfig } from '../../lib/config';
import { AppError } from './errors';

export const RATE_FAMILIES = ['create', 'upload', 'signal', 'read', 'public'] as const;
export type RateFamily = (typeof RATE_FAMILIES)[number];

const WINDOW_SECONDS = 60;

export interface RateLimits {
  /**
   * One request counted against each of `keys` (rateKeysOf) in `family`: sets the RateLimit
   * headers of the tightest window; throws 429 `rate_limited` when one is used up.
   */
  consume(family: RateFamily, keys: readonly string[], res: Response): Promise<void>;
  close(): Promise<void>;
}

/** Families whose window is also shared by the whole organization, so a second key is no fresh window. */
const PER_ORGANIZATION: readonly RateFamily[] = ['create'];

/** The windows a request counts against: its credential (and organization), or its client address. */
export function rateKeysOf(family: RateFamily, actor: { credential: { id: string }; organizationId?: string | undefined } | undefined, ip: string | undefined): string[] {
  if (!actor) return [`ip:${ip}`];
  const keys = [`cred:${actor.credential.id}`];
  if (actor.organizationId && PER_ORGANIZATION.includes(family)) keys.push(`org:${actor.organizationId}`);
  return keys;
}

export type RateLimitConfig = Pick<
  ApiConfig,
  'RATE_LIMIT_CREATE_PER_MINUTE' | 'RATE_LIMIT_UPLOAD_PER_MINUTE' | 'RATE_LIMIT_SIGNAL_PER_MINUTE' | 'RATE_LIMIT_READ_PER_MINUTE' | 'RATE_LIMIT_PUBLIC_PER_MINUTE'
>;

export function perMinuteOf(cfg: RateLimitConfig): Record<RateFamily, number> {
  return {
    create: cfg.RATE_LIMIT_CREATE_PER_MINUTE,
    upload: cfg.RATE_LIMIT_UPLOAD_PER_MINUTE,
    signal: cfg.RATE_LIMIT_SIGNAL_PER_MINUTE,
    read: cfg.RATE_LIMIT_READ_PER_MINUTE,
    public: cfg.RATE_LIMIT_PUBLIC_PER_MINUTE,
  };
}

/** draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "create";q=60;w=60` and `RateLimit: "create";r=59;t=42`. */
function setHeaders(res: Response, family: RateFamily, quota: number, r: RateLimiterRes): void {
  const reset = Math.max(0, Math.ceil(r.msBeforeNext / 1000));
  res.setHeader('RateLimit-Policy', `"${family}";q=${quota};w=${WINDOW_SECONDS}`);
  res.setHeader('RateLimit', `"${family}";r=${Math.max(0, r.remainingPoints)};t=${reset}`);
}

/**
 * `pooled`: the database is a pooler in transaction mode (DATABASE_DIRECT_URL set), where a named
 * statement prepared on one server connection is unknown on the next: the limiter's statements
 * (it names each one) are then sent unnamed.
 */
export function createRateLimits(cfg: RateLimitConfig, db: { url: string; pooled: boolean }, onRefused: (family: RateFamily) => void): RateLimits {
  const pool = new pg.Pool({ connectionString: db.url, max: 4, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 2_000 });
  pool.on('error', () => {}); // an idle client dropped by a database restart: the next query reconnects
  const storeClient = db.pooled ? { query: (q: { text: string; values?: unknown[] }) => pool.query({ text: q.text, ...(q.values ? { values: q.values } : {}) }) } : pool;
  const quota = perMinuteOf(cfg);
  const limiters = Object.fromEntries(
    RATE_FAMILIES.map((family, i) => [
      family,
      new RateLimiterPostgres({
        storeClient,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true, // by the migrations
        clearExpiredByTimeout: i === 0, // one sweeper of expired rows for the shared table is enough
        keyPrefix: family,
        points: quota[family],
        duration: WINDOW_SECONDS,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: family, points: quota[family], duration: WINDOW_SECONDS }),
      }),
    ]),
  ) as Record<RateFamily, RateLimiterPostgres>;

  return {
    async consume(family, keys, res) {
      let tightest: RateLimiterRes | undefined;
      for (const key of keys) {
        try {
          const r = await limiters[family].consume(key);
          if (!tightest || r.remainingPoints < tightest.remainingPoints) tightest = r;
        } catch (err) {
          if (!(err instanceof RateLimiterRes)) throw err;
          setHeaders(res, family, quota[family], err);
          onRefused(family);
          const retryAfter = String(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
          const whose = key.startsWith('org:') ? 'your organization (all its keys together)' : key.startsWith('ip:') ? 'this client address' : 'this credential';
          throw new AppError('rate_limited', `Too many ${family} requests: ${quota[family]} per ${WINDOW_SECONDS} s for ${whose}; retry after ${retryAfter} s.`, {
            headers: { 'Retry-After': retryAfter },
          });
        }
      }
      if (tightest) setHeaders(res, family, quota[family], tightest);
    },
    async close() {
      await pool.end();
    },
  };
}
