// The real server's frontend behind Temporal's JWT authorizer (TEMPORAL_AUTH=jwt; issue 43 item 3),
// as the pinned server (1.32.2) takes it: the default authorizer and JWT claim mapper reading the
// claims temporal/tokens.ts mints, the keys from a JWKS file beside the config, and the internal
// frontend for the server's own worker service. docs/deploy.md gives a cluster the same block.
import fs from 'node:fs';
import path from 'node:path';
import { mintTemporalToken, SYSTEM_ADMIN_PERMISSION, TEMPORAL_PERMISSIONS_CLAIM, TEMPORAL_TOKEN_AUDIENCE, temporalJwks, type TemporalSigningKey } from './tokens';

export interface RealServerAuth {
  /** The key whose public half the frontend trusts (the API, the worker and `iam temporal-token` sign with it). */
  key: TemporalSigningKey;
}

/**
 * The JWKS, read through a `file://` key source URI (1.32.2's key provider opens those): no JWKS
 * listener to run, and none that depends on the API, which itself waits for Temporal.
 */
const JWKS_FILE = 'jwks.json';

export function writeJwks(dir: string, auth: RealServerAuth): void {
  fs.writeFileSync(path.join(dir, JWKS_FILE), JSON.stringify(temporalJwks(auth.key)), { mode: 0o600 });
}

/**
 * `global.authorization` (indented under `global:`): a token's `permissions` decide
 * (`<namespace>:read|write|admin`, `temporal-system:<role>`), its `aud` must be ours, and the keys
 * are re-read every minute, so a new key is taken without a restart.
 */
export function authorizationConfig(dir: string): string[] {
  return [
    'authorization:',
    '  authorizer: "default"',
    '  claimMapper: "default"',
    `  permissionsClaimName: ${JSON.stringify(TEMPORAL_PERMISSIONS_CLAIM)}`,
    `  audience: ${JSON.stringify(TEMPORAL_TOKEN_AUDIENCE)}`,
    '  jwtKeyProvider:',
    '    keySourceURIs:',
    `      - ${JSON.stringify(`file://${path.join(dir, JWKS_FILE)}`)}`,
    '    refreshInterval: "1m"',
  ];
}

/**
 * `temporal-server` arguments after the config. With the authorizer (or mTLS), the internal frontend
 * runs too: the server's own worker service (scanners, schedules, batches) calls it instead of the
 * public one, which would refuse it (no token, or no client certificate of the client CA), and the
 * server would stop at its start. It maps every caller to the internal admin principal, so it
 * listens on loopback only and, with mTLS, takes the internode certificate only.
 */
export function startArgs(auth: RealServerAuth | undefined, internalFrontend = auth !== undefined): string[] {
  const open = auth ? [] : ['--allow-no-auth'];
  if (!internalFrontend) return [...open, 'start'];
  return [...open, 'start', ...['frontend', 'internal-frontend', 'history', 'matching', 'worker'].flatMap((name) => ['--service', name])];
}

/** The launcher's own calls at start (register the namespace and its search attributes): cluster admin, five minutes. */
export function launcherAdminToken(auth: RealServerAuth): string {
  return mintTemporalToken(auth.key, { subject: 'tattoo-intake-launcher', permissions: [SYSTEM_ADMIN_PERMISSION], ttlSeconds: 300 });
}
