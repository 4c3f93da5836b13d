// Builds the API's dependencies and serves it; used by api/main.ts and by tests (port 0).
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { PROJECT_ROOT, databaseUrlOf, temporalAddressOf, type ApiConfig } from '../lib/config';
import { createSql } from '../lib/db';
import { migrateUp } from '../lib/db/migrate';
import type { Logger } from '../lib/logger';
import { loadOrCreateSecret } from '../lib/secrets';
import { createIdentityProvider, LOCAL_JWKS_PATH } from '../lib/identity';
import { loadOrCreateSigningKey } from '../lib/identity/local-keys';
import { createObjectStore } from '../lib/storage';
import type { Express } from 'express';
import { createApp } from './app';
import type { AppDeps } from './deps';

export const VERSION: string = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).version;

export interface RunningApi {
  url: string;
  deps: AppDeps;
  app: Express;
  stop(): Promise<void>;
}

export async function startApi(cfg: ApiConfig, log: Logger, opts: { migrate?: boolean } = {}): Promise<RunningApi> {
  const databaseUrl = databaseUrlOf(cfg);
  if (opts.migrate ?? true) await migrateUp(databaseUrl, (m) => log.debug(m));
  const sql = createSql(databaseUrl, { max: cfg.DATABASE_POOL_MAX });
  // Lazy: the API starts (and reports `blocked`) even while Temporal is away.
  const connection = Connection.lazy({
    address: temporalAddressOf(cfg),
    ...(cfg.TEMPORAL_API_KEY ? { apiKey: cfg.TEMPORAL_API_KEY, tls: true } : cfg.TEMPORAL_TLS ? { tls: true } : {}),
  });
  const client = new Client({ connection, namespace: cfg.TEMPORAL_NAMESPACE });
  const uploadSigningSecret = cfg.UPLOAD_SIGNING_SECRET ?? loadOrCreateSecret(cfg.DATA_DIR, 'upload-signing.key');

  const deps: AppDeps = {
    cfg,
    sql,
    temporal: { client, connection },
    store: undefined as never,
    identity: undefined as never,
    localSigningKey: cfg.IDP_DRIVER === 'local' ? await loadOrCreateSigningKey(cfg.DATA_DIR) : undefined,
    log,
    publicBaseUrl: '',
    uploadSigningSecret,
    version: VERSION,
    startedAt: Date.now(),
  };
  const app = createApp(deps);
  const server = app.listen(cfg.PORT, cfg.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${cfg.HOST}:${port}`;
  deps.publicBaseUrl = (cfg.PUBLIC_BASE_URL ?? url).replace(/\/$/, '');
  deps.store = createObjectStore(cfg, { baseUrl: deps.publicBaseUrl, secret: uploadSigningSecret });
  deps.identity = createIdentityProvider(cfg, { sql, localJwksUrl: `${url}${LOCAL_JWKS_PATH}` });
  server.keepAliveTimeout = 65_000;

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
      await connection.close().catch(() => {});
      await sql.end({ timeout: 5 });
    },
  };
}
