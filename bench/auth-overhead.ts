// Auth overhead per request: median latency of a protected route answered right after auth
// (404 for an unknown submission) with an API key and with a bearer token, against the same
// route family's unauthenticated baseline (/health/live), measured side by side in one run.
// Loopback only, bounded count. Run: npx tsx bench/auth-overhead.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApi } from '../api/server';
import { apiConfigSchema, parseConfig } from '../lib/config';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { migrateUp } from '../lib/db/migrate';
import { createSql } from '../lib/db';
import { upsertMapping } from '../lib/identity/actors';
import { createApiKey } from '../lib/identity/api-keys';
import { LOCAL_ISSUER } from '../lib/identity';
import { issueLocalToken } from '../lib/identity/local-keys';
import { createLogger } from '../lib/logger';
import { parseCli } from '../lib/cli';

parseCli('Authentication overhead: per-request cost of API-key and bearer authentication against an unauthenticated route.', 'npm run bench:auth --', { options: {} });
const N = 2000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-auth-'));
fs.chmodSync(dir, 0o755);
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: 55431 });
await migrateUp(pg.url);
const cfg = parseConfig(apiConfigSchema, { PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: pg.url, TEMPORAL_ADDRESS: '127.0.0.1:1', DATA_DIR: dir });
const api = await startApi(cfg, createLogger({ name: 'bench', level: 'silent' }), { migrate: false });
const sql = createSql(pg.url, { max: 2 });
const { keyId, key } = await createApiKey(sql, { organizationId: 'org' });
await upsertMapping(sql, { actorId: 'bench-key', credentialKind: 'api_key', credentialSubject: keyId, role: 'partner', permissions: ['portfolio_intake:stage'], organizationId: 'org' });
await upsertMapping(sql, { actorId: 'bench-user', credentialKind: 'bearer', credentialSubject: 'u1', credentialIssuer: LOCAL_ISSUER, role: 'member', permissions: ['portfolio_intake:stage'], organizationId: 'org' });
const token = await issueLocalToken(api.deps.localSigningKey!, { subject: 'u1', issuer: LOCAL_ISSUER });

async function median(url: string, headers: Record<string, string>, expect: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < N + 200; i++) {
    const t = performance.now();
    const r = await fetch(url, { headers });
    await r.arrayBuffer();
    if (r.status !== expect) throw new Error(`${url}: ${r.status}`);
    if (i >= 200) times.push(performance.now() - t); // first 200 warm the caches (JWKS, pool, JIT)
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
const route = `${api.url}/api/private/portfolio-intake/v1/submissions/sub_unknown`;
const base = await median(`${api.url}/api/v1/health/live`, {}, 200);
const noCred = await median(route, {}, 401);
const withKey = await median(route, { 'x-api-key': key }, 404);
const withBearer = await median(route, { authorization: `Bearer ${token}` }, 404);
const rows = {
  'baseline /health/live (ms)': base.toFixed(3),
  '401 without credential (ms)': noCred.toFixed(3),
  'API key, mapped, 404 (ms)': withKey.toFixed(3),
  'bearer, mapped, 404 (ms)': withBearer.toFixed(3),
  'auth overhead API key (ms)': (withKey - noCred).toFixed(3),
  'auth overhead bearer (ms)': (withBearer - noCred).toFixed(3),
};
console.table(rows);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/auth-overhead.json', JSON.stringify({ n: N, node: process.version, ...rows }, null, 2));
await api.stop();
await sql.end();
await pg.stop();
fs.rmSync(dir, { recursive: true, force: true });
