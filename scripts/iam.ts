// `npm run iam -- <command>`: operator tooling for the embedded (local) identity provider.
//   create-key --org ORG [--permissions a,b] [--artist-scope x,y] [--studio-scope x] [--label L]
//   revoke-key KEY_ID
//   map --actor ID --kind api_key|bearer --subject S --org ORG --role R [--permissions a,b]
//       [--operator] [--service] [--capabilities c] [--artist-scope x] [--studio-scope x] [--inactive]
//   token --subject S [--ttl SECONDS]          (local driver only; prints a bearer token)
//   list
import { parseArgs } from 'node:util';
import { databaseUrlOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { createSql, type Sql } from '../lib/db';
import { upsertMapping, MappingRefusedError } from '../lib/identity/actors';
import { createApiKey, revokeApiKey } from '../lib/identity/api-keys';
import { LOCAL_ISSUER } from '../lib/identity';
import { issueLocalToken, loadOrCreateSigningKey } from '../lib/identity/local-keys';
import type { Capability, Permission } from '../lib/identity/permissions';

const list = (v: string | undefined) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

async function main(sql: Sql, dataDir: string, argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      permissions: { type: 'string' },
      capabilities: { type: 'string' },
      'artist-scope': { type: 'string' },
      'studio-scope': { type: 'string' },
      label: { type: 'string' },
      actor: { type: 'string' },
      kind: { type: 'string' },
      subject: { type: 'string' },
      issuer: { type: 'string' },
      role: { type: 'string' },
      operator: { type: 'boolean' },
      service: { type: 'boolean' },
      inactive: { type: 'boolean' },
      ttl: { type: 'string' },
    },
  });
  switch (command) {
    case 'create-key': {
      if (!values.org) throw new Error('--org is required');
      const { keyId, key } = await createApiKey(sql, { organizationId: values.org, label: values.label ?? '' });
      const actorId = values.actor ?? `partner-${keyId}`;
      await upsertMapping(sql, {
        actorId,
        credentialKind: 'api_key',
        credentialSubject: keyId,
        role: values.role ?? 'partner',
        permissions: list(values.permissions ?? 'portfolio_intake:stage') as Permission[],
        organizationId: values.org,
        artistScope: list(values['artist-scope']),
        studioScope: list(values['studio-scope']),
        capabilities: list(values.capabilities) as Capability[],
        selfService: !values.service,
      });
      console.log(`key id:   ${keyId}\nactor id: ${actorId}\nAPI key (shown once, store it now):\n${key}`);
      return;
    }
    case 'revoke-key': {
      const keyId = positionals[0];
      if (!keyId) throw new Error('usage: revoke-key KEY_ID');
      console.log((await revokeApiKey(sql, keyId)) ? `revoked ${keyId}` : `no active key ${keyId}`);
      return;
    }
    case 'map': {
      if (!values.actor || !values.kind || !values.subject || !values.org || !values.role) throw new Error('map needs --actor --kind --subject --org --role');
      await upsertMapping(sql, {
        actorId: values.actor,
        credentialKind: values.kind as 'api_key' | 'bearer',
        credentialSubject: values.subject,
        credentialIssuer: values.kind === 'bearer' ? (values.issuer ?? LOCAL_ISSUER) : '',
        role: values.role,
        permissions: list(values.permissions) as Permission[],
        organizationId: values.org,
        artistScope: list(values['artist-scope']),
        studioScope: list(values['studio-scope']),
        capabilities: list(values.capabilities) as Capability[],
        isHumanOperator: Boolean(values.operator),
        selfService: !values.service && !values.operator,
        active: !values.inactive,
      });
      console.log(`mapping ${values.actor} saved`);
      return;
    }
    case 'token': {
      if (!values.subject) throw new Error('--subject is required');
      const key = await loadOrCreateSigningKey(dataDir);
      console.log(await issueLocalToken(key, { subject: values.subject, issuer: LOCAL_ISSUER, ttlSeconds: Number(values.ttl ?? 3600) }));
      return;
    }
    case 'list': {
      const rows = await sql`select actor_id, credential_kind, credential_subject, role, permissions, organization_id, is_human_operator, active from actor_mappings order by actor_id`;
      console.table(rows.map((r) => ({ ...r, permissions: (r.permissions as string[]).join(',') })));
      return;
    }
    default:
      throw new Error('commands: create-key, revoke-key, map, token, list (see scripts/iam.ts)');
  }
}

const cfg = loadConfigOrExit(toolConfigSchema);
const sql = createSql(databaseUrlOf(cfg), { max: 1 });
try {
  await main(sql, cfg.DATA_DIR, process.argv.slice(2));
} catch (err) {
  console.error(err instanceof MappingRefusedError ? `refused: ${err.message}` : `error: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 2 });
}
