// Builds the API's dependencies completely, then serves it; used by api/main.ts and by tests (port 0).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PROJECT_ROOT, databaseUrlOf, directDatabaseUrlOf, type ApiConfig } from '../lib/config';
import { createSql } from '../lib/db';
import { migrateUp } from '../lib/db/migrate';
import type { Logger } from '../lib/logger';
import { freePort } from '../lib/net/free-port';
import { handoffKeyOf } from '../lib/portal/handoff';
import { loadOrCreateSecret } from '../lib/secrets';
import { loadWebhookSecretBox } from '../lib/webhooks/secret-box';
import { resealSecrets } from '../lib/webhooks/secret-reseal';
import { createIdentityProvider, LOCAL_JWKS_PATH } from '../lib/identity';
import { createDecisionSigner } from '../lib/intake/decision-proof';
import { loadOrCreateSigningKey } from '../lib/identity/local-keys';
import { createObjectStore } from '../lib/storage';
import { createTemporalClient } from '../temporal/connection';
import type { Express } from 'express';
import { createApp } from './app';
import { authenticators } from './auth/authenticators';
import { consoleSurface } from './console/session';
import { portalSurface } from './portal/session';
import type { AppDeps } from './deps';
import { createApiMetrics } from './http/metrics';
import { createSearchEngineRuntime } from '../lib/search-engine/runtime';
import { createRateLimits } from './http/rate-limit';
import { createCutoverReads } from '../lib/cutover/reads';

export const VERSION: string = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).version;

export interface RunningApi {
  url: string;
  deps: AppDeps;
  app: Express;
  stop(): Promise<void>;
}

/** With PORT=0, how many free ports to try when another process takes the chosen one first. */
const PORT_ATTEMPTS = 5;
/** How long an idle kept-alive connection stays open: above the balancer's idle timeout (HAProxy 60 s). */
const KEEP_ALIVE_MS = 65_000;

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function startApi(cfg: ApiConfig, log: Logger, opts: { migrate?: boolean } = {}): Promise<RunningApi> {
  const databaseUrl = databaseUrlOf(cfg);
  // The migrations hold a session's advisory lock: never through a pooler.
  if (opts.migrate ?? true) await migrateUp(directDatabaseUrlOf(cfg), (m) => log.debug(m));
  const sql = createSql(databaseUrl, { max: cfg.DATABASE_POOL_MAX, directUrl: cfg.DATABASE_DIRECT_URL });
  // Lazy: the API starts (and reports `blocked`) even while Temporal is away.
  const temporal = createTemporalClient(cfg, 'api');
  const metrics = createApiMetrics(sql, { searchFeed: cfg.SEARCH_BACKEND === 'opensearch' });
  const rateLimits = cfg.RATE_LIMITS_ENABLED ? createRateLimits(cfg, { url: databaseUrl, pooled: cfg.DATABASE_DIRECT_URL !== undefined }, (family) => metrics.rateLimited(family)) : undefined;
  const cutover = createCutoverReads(sql, { legacyUrl: cfg.LEGACY_DATA_URL, sampleRate: cfg.CUTOVER_SHADOW_SAMPLE_RATE });
  const searchEngine = createSearchEngineRuntime(sql, cfg, log);
  const closeResources = async () => {
    await searchEngine?.stop().catch(() => {});
    await rateLimits?.close().catch(() => {});
    await cutover.close().catch(() => {});
    await temporal.connection.close().catch(() => {});
    await sql.end({ timeout: 5 });
  };

  let running: { url: string; deps: AppDeps; app: Express; server: http.Server };
  try {
    const uploadSigningSecret = cfg.UPLOAD_SIGNING_SECRET ?? loadOrCreateSecret(cfg.DATA_DIR, 'upload-signing.key');
    const portalHandoffKey = handoffKeyOf(cfg.PORTAL_HANDOFF_KEY ?? loadOrCreateSecret(cfg.DATA_DIR, 'portal-handoff.key', 32));
    const localSigningKey = cfg.IDP_DRIVER === 'local' ? await loadOrCreateSigningKey(cfg.DATA_DIR) : undefined;
    const decisionSigner = await createDecisionSigner(cfg);
    const webhookSecrets = loadWebhookSecretBox(cfg);
    const startedAt = Date.now();

    /** Everything that depends on our own URL, built completely before the server listens. */
    const build = (port: number) => {
      const url = `http://${cfg.HOST}:${port}`;
      const publicBaseUrl = (cfg.PUBLIC_BASE_URL ?? url).replace(/\/$/, '');
      const deps: AppDeps = {
        cfg,
        sql,
        temporal,
        store: createObjectStore(cfg, { baseUrl: publicBaseUrl, secret: uploadSigningSecret }),
        identity: createIdentityProvider(cfg, { sql, localJwksUrl: `${url}${LOCAL_JWKS_PATH}` }),
        localSigningKey,
        log,
        publicBaseUrl,
        uploadSigningSecret,
        portalHandoffKey,
        decisionSigner,
        webhookSecrets,
        version: VERSION,
        startedAt,
        metrics,
        rateLimits,
        cutover,
        searchEngine,
      };
      const app = createApp(deps, authenticators({ console: consoleSurface, portal: portalSurface }));
      const server = http.createServer(app);
      // An idle kept-alive connection is closed by the balancer first (HAProxy `timeout
      // http-keep-alive 60s`, scripts/tools/haproxy.ts and docs/deploy.md), never by us under a
      // request it is sending; headersTimeout must exceed keepAliveTimeout (Node's default, 60 s, does not).
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      server.headersTimeout = KEEP_ALIVE_MS + 1_000;
      return { url, deps, app, server };
    };

    // A fixed PORT is tried once. PORT=0 (tests) picks a free port first, so the URL is known
    // before anything is built; should another process take it in between, try another one.
    for (let attempt = 1; ; attempt++) {
      const port = cfg.PORT === 0 ? await freePort() : cfg.PORT;
      const candidate = build(port);
      try {
        await listen(candidate.server, port, cfg.HOST);
        running = candidate;
        break;
      } catch (err) {
        const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
        if (!(cfg.PORT === 0 && inUse && attempt < PORT_ATTEMPTS)) throw err;
        log.debug({ port, attempt }, 'free port taken before listen; trying another');
      }
    }
  } catch (err) {
    await closeResources();
    throw err;
  }

  const { url, deps, app, server } = running;
  // Webhook secrets still stored in plaintext are sealed now (SQL has no key
  // to do it in a migration). In the background: a database that is away delays nothing; the next
  // start retries, and the worker opens a plaintext one meanwhile.
  const sealing = resealSecrets(deps.sql, deps.webhookSecrets, 'plaintext').then(
    (r) => {
      if (r.resealed) log.info({ resealed: r.resealed }, 'webhook signing secrets stored in plaintext are now sealed');
    },
    (err: Error) => log.warn({ reason: err.message }, 'webhook signing secrets not sealed yet; the next start retries'),
  );
  return {
    url,
    deps,
    app,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      });
      await sealing;
      await closeResources();
    },
  };
}
