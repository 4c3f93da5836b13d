// What a process derives from its parsed configuration: the webhook target policy and the
// addresses of PostgreSQL and Temporal (an explicit variable, else the embedded stack's).
import fs from 'node:fs';
import path from 'node:path';
import { readRunFile, RUN_FILE } from '../stack-run';
import { DATA_DIR_DEFAULT, EMBEDDED_DEFAULTS } from './root';

/** The target policy both the registration (API) and the delivery (worker) apply. */
export function webhookPolicyOf(cfg: { NODE_ENV: string; WEBHOOK_ALLOW_LOOPBACK?: boolean | undefined }) {
  const production = cfg.NODE_ENV === 'production';
  return { production, allowLoopback: !production && cfg.WEBHOOK_ALLOW_LOOPBACK !== false };
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

/** Where session state goes (LISTEN, the migrations' advisory lock): DATABASE_DIRECT_URL behind a pooler, else the database itself. */
export function directDatabaseUrlOf(cfg: { DATABASE_URL?: string | undefined; DATABASE_DIRECT_URL?: string | undefined; DATA_DIR?: string; POSTGRES_PORT?: number | undefined }): string {
  return cfg.DATABASE_DIRECT_URL ?? databaseUrlOf(cfg);
}

/** Where a process's database connections go, without credentials, for its start line: `host:port/db`, and the direct one behind a pooler. */
export function databaseWhereOf(cfg: { DATABASE_URL?: string | undefined; DATABASE_DIRECT_URL?: string | undefined; DATA_DIR?: string; POSTGRES_PORT?: number | undefined }): { database: string; databaseDirect?: string } {
  const where = (url: string) => {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  };
  return { database: where(databaseUrlOf(cfg)), ...(cfg.DATABASE_DIRECT_URL ? { databaseDirect: where(cfg.DATABASE_DIRECT_URL) } : {}) };
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
