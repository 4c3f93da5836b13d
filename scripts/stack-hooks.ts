// Work the run command does once the stack is ready: demo credentials on the embedded default,
// so a newcomer can call the API at once. The demo partner key is kept in .data/secrets (never in
// git) because only its hash is in the database.
import fs from 'node:fs';
import path from 'node:path';
import type { StackConfig } from '../lib/config';
import { createSql, type Sql } from '../lib/db';
import { seedDirectory } from './seed/directory';
import { upsertMapping } from '../lib/identity/actors';
import { createApiKey } from '../lib/identity/api-keys';
import { LOCAL_ISSUER } from '../lib/identity';
import { issueLocalToken, loadOrCreateSigningKey } from '../lib/identity/local-keys';
import { CONSOLE_SESSION_HOURS, createSigninCode } from '../lib/console/sessions';

export const DEMO_ORG = 'demo-tenant';
/** The artist the guides' examples stage for: the demo partner is scoped to it (lib/intake/artist-ties.ts). */
export const DEMO_ARTIST = 'artist-demo-1';

/** A small synthetic directory (200 studios, fixed seed) so the read API answers with data at once. */
async function seedDemoDirectory(sql: Sql): Promise<string[]> {
  const r = await seedDirectory(sql, { studios: 200, seed: 1, ifEmpty: true });
  if (r.skipped) return [];
  return [`Demo directory seeded: ${r.counts.studios} studios, ${r.counts.artists} artists (more: npm run seed -- --studios 100000 --reset)`];
}

export async function afterStackReady(o: { databaseUrl: string; apiUrl: string; cfg: StackConfig }): Promise<string[]> {
  if (!o.cfg.SEED_DEMO) return [];
  const sql = createSql(o.databaseUrl, { max: 4 }); // the seed runs three COPY streams at once
  try {
    const seeded = await seedDemoDirectory(sql);
    if (o.cfg.IDP_DRIVER !== 'local') return seeded;
    const keyFile = path.join(o.cfg.DATA_DIR, 'secrets', 'demo-partner-key');
    let key = fs.existsSync(keyFile) ? fs.readFileSync(keyFile, 'utf8').trim() : '';
    // A demo partner mapped before partners were tied to their artists gets a new key once.
    const [mapped] = await sql`select 1 from actor_mappings where actor_id = 'demo-partner' and active and ${DEMO_ARTIST} = any(artist_scope)`;
    if (!key || !mapped) {
      const created = await createApiKey(sql, { organizationId: DEMO_ORG, label: 'demo partner' });
      await upsertMapping(sql, {
        actorId: 'demo-partner',
        credentialKind: 'api_key',
        credentialSubject: created.keyId,
        role: 'partner',
        permissions: ['portfolio_intake:stage', 'studios:read', 'artists:read', 'search:read', 'portfolios:read', 'designs:read'],
        organizationId: DEMO_ORG,
        artistScope: [DEMO_ARTIST],
      });
      fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
      fs.writeFileSync(keyFile, created.key, { mode: 0o600 });
      key = created.key;
    }
    await upsertMapping(sql, {
      actorId: 'demo-operator',
      credentialKind: 'bearer',
      credentialSubject: 'demo-operator',
      credentialIssuer: LOCAL_ISSUER,
      role: 'operator',
      permissions: ['portfolio_intake:review', 'portfolios:publish', 'search:read', 'artists:read', 'portfolios:read', 'designs:read'],
      organizationId: 'platform',
      isHumanOperator: true,
      selfService: false,
    });
    // The demo partner organization's admin: manages its keys and webhooks in the partner portal.
    await upsertMapping(sql, {
      actorId: 'demo-partner-admin',
      credentialKind: 'bearer',
      credentialSubject: 'demo-partner-admin',
      credentialIssuer: LOCAL_ISSUER,
      role: 'partner_admin',
      permissions: ['partner_api_keys:manage'],
      organizationId: DEMO_ORG,
      selfService: false,
    });
    const portalCode = await createSigninCode(sql, {
      subject: 'demo-partner-admin',
      issuer: LOCAL_ISSUER,
      ttlSeconds: 600,
      sessionExpiresAt: new Date(Date.now() + CONSOLE_SESSION_HOURS * 3600 * 1000),
      surface: 'portal',
    });
    const token = await issueLocalToken(await loadOrCreateSigningKey(o.cfg.DATA_DIR), { subject: 'demo-operator', issuer: LOCAL_ISSUER, ttlSeconds: 12 * 3600 });
    // The review console: a one-time link (10 minutes to use it; the session it opens lasts as long as the token).
    const code = await createSigninCode(sql, { subject: 'demo-operator', issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + CONSOLE_SESSION_HOURS * 3600 * 1000) });
    return [
      ...seeded,
      `Demo partner key (tenant ${DEMO_ORG}): ${key}`,
      `Demo operator token (12 h):     ${token}`,
      `  (also: npm run iam -- token --subject demo-operator)`,
      `Review console (one-time sign-in link, 10 min): ${o.apiUrl}/console/signin?code=${code}`,
      `  (a new link, no restart: npm run iam -- console-link --subject demo-operator)`,
      `Partner portal, ${DEMO_ORG}'s keys and webhooks (one-time sign-in link, 10 min): ${o.apiUrl}/portal/signin?code=${portalCode}`,
      `  (a new link: npm run iam -- portal-link --subject demo-partner-admin)`,
    ];
  } finally {
    await sql.end({ timeout: 2 });
  }
}
