// `npm run iam -- <command> [options]` (`npm run iam -- --help`): operator tooling for the embedded
// (local) identity provider. Every command and option is described in COMMANDS below, and the help
// text is made from it, so an option cannot exist without its line in `--help`.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { databaseOf, EMBEDDED_DEFAULTS, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { apiBaseOf, whereOf } from '../lib/stack-run';
import { CONSOLE_SESSION_HOURS, createSigninCode } from '../lib/console/sessions';
import { createSql } from '../lib/db';
import { createMappedApiKey, findActiveActor, MappingRefusedError, upsertMapping } from '../lib/identity/actors';
import { revokeApiKey } from '../lib/identity/api-keys';
import { LOCAL_ISSUER } from '../lib/identity';
import { MAX_TOKEN_AGE_SECONDS } from '../lib/identity/jwt';
import { issueLocalToken, loadOrCreateSigningKey } from '../lib/identity/local-keys';
import { CAPABILITIES, PERMISSIONS, type Capability, type Permission } from '../lib/identity/permissions';
import { loadWebhookSecretBox } from '../lib/webhooks/secret-box';
import { resealSecrets } from '../lib/webhooks/secret-reseal';
import {
  loadOrCreateTemporalSigningKey,
  mintTemporalToken,
  namespacePermission,
  readTemporalSigningKey,
  systemPermission,
  TEMPORAL_TOKEN_MAX_SECONDS,
  temporalJwks,
  temporalKeyFileOf,
} from '../temporal/tokens';

/** Lifetime of a bearer token from `iam token`: one hour unless --ttl says otherwise, at most what the API accepts. */
const TOKEN_TTL_DEFAULT_SECONDS = 3600;
const TOKEN_TTL_MAX_SECONDS = MAX_TOKEN_AGE_SECONDS;
/** Lifetime of an on-call Temporal reader token: one on-call look, not a shift. */
const TEMPORAL_TOKEN_TTL_DEFAULT_SECONDS = 3600;

/**
 * What --artist-scope does (lib/intake/requests.ts scopeViolation, lib/intake/artist-ties.ts): it limits the
 * actor and ties its artists to the organization; a stage actor stages only for tied artists.
 */
const ARTIST_SCOPE_HELP =
  'artist canonical ids the actor may stage for; they become artists of its organization. Default: none, i.e. no limit of its own, yet a stage actor stages only for artists its organization is tied to (in an active mapping\'s artist scope, or resolved by POST /artist-resolution-requests): with none of those every create answers 403 artist_out_of_scope';

interface OptionSpec {
  type: 'string' | 'boolean';
  /** The placeholder shown after a string option. */
  arg?: string;
  help: string;
}
interface CommandSpec {
  synopsis: string;
  summary: string;
  options: Record<string, OptionSpec>;
}

const COMMANDS = {
  'create-key': {
    synopsis: 'create-key --org <org> [options]',
    summary: 'Create a partner API key and its actor mapping (one transaction: a refused mapping stores no key). Prints the key once.',
    options: {
      org: { type: 'string', arg: 'org', help: 'organization (tenant) the key belongs to (required)' },
      permissions: { type: 'string', arg: 'a,b', help: 'permissions (default: portfolio_intake:stage); artists:write, bookings:manage, portfolios:publish and portfolio_intake:review are refused on keys' },
      capabilities: { type: 'string', arg: 'c', help: 'internal capabilities (portfolio_intake:stage_cross_tenant, only with --service)' },
      'artist-scope': { type: 'string', arg: 'a,b', help: ARTIST_SCOPE_HELP },
      'studio-scope': { type: 'string', arg: 'a,b', help: 'studio ids the actor is limited to (default: none, i.e. no studio limit)' },
      label: { type: 'string', arg: 'text', help: 'free-text label stored with the key, shown in the portal (default: "npm run iam: <its permissions>")' },
      actor: { type: 'string', arg: 'id', help: 'actor id of the mapping (default: partner-<keyId>); an existing actor id is re-pointed to the new key' },
      role: { type: 'string', arg: 'role', help: 'role of the mapping (default: partner)' },
      service: { type: 'boolean', help: 'an approved service actor, not a self-service partner key' },
    },
  },
  'revoke-key': {
    synopsis: 'revoke-key <keyId>',
    summary: 'Revoke a key at once (the key id is the middle part of tpk_<keyId>_<secret>).',
    options: {},
  },
  map: {
    synopsis: 'map --actor <id> --kind api_key|bearer --subject <s> --org <org> --role <role> [options]',
    summary: 'Create or replace an actor mapping for a credential.',
    options: {
      actor: { type: 'string', arg: 'id', help: 'actor id (3..100 of A-Z a-z 0-9 : . _ -) (required)' },
      kind: { type: 'string', arg: 'api_key|bearer', help: 'credential kind (required)' },
      subject: { type: 'string', arg: 's', help: 'the key id (api_key) or the token subject (bearer) (required)' },
      issuer: { type: 'string', arg: 'iss', help: `token issuer, bearer only (default: the local provider, ${LOCAL_ISSUER})` },
      org: { type: 'string', arg: 'org', help: 'organization (required)' },
      role: { type: 'string', arg: 'role', help: 'role, e.g. partner, operator, team_member (required)' },
      permissions: { type: 'string', arg: 'a,b', help: 'permissions (default: none)' },
      capabilities: { type: 'string', arg: 'c', help: 'internal capabilities (portfolio_intake:stage_cross_tenant, only with --service)' },
      'artist-scope': { type: 'string', arg: 'a,b', help: ARTIST_SCOPE_HELP },
      'studio-scope': { type: 'string', arg: 'a,b', help: 'studio ids the actor is limited to (default: none, i.e. no studio limit)' },
      operator: { type: 'boolean', help: 'a human operator (bearer only; needed for portfolio_intake:review)' },
      service: { type: 'boolean', help: 'an approved service actor, not self-service' },
      inactive: { type: 'boolean', help: 'store the mapping switched off (its credential is then refused with 403)' },
    },
  },
  token: {
    synopsis: 'token --subject <s> [--ttl <seconds>]',
    summary: `Print a bearer token (ES256) signed by the local provider's key in DATA_DIR/secrets (IDP_DRIVER=local only). It proves the subject; what it may do comes from a bearer mapping (see map).`,
    options: {
      subject: { type: 'string', arg: 's', help: 'token subject, as mapped with map --kind bearer --subject (required)' },
      ttl: { type: 'string', arg: 'seconds', help: `lifetime in seconds: default ${TOKEN_TTL_DEFAULT_SECONDS} (1 hour), maximum ${TOKEN_TTL_MAX_SECONDS} (${TOKEN_TTL_MAX_SECONDS / 3600} hours, the longest the API accepts)` },
    },
  },
  'temporal-token': {
    synopsis: 'temporal-token [--ttl <seconds>] [--subject <s>] [--web-ui]',
    summary:
      "Print a read-only token for the Temporal frontend when it runs the JWT authorizer (npm start -- --temporal server; TEMPORAL_AUTH=jwt): permission <TEMPORAL_NAMESPACE>:read, signed with the key in TEMPORAL_JWT_KEY_FILE (default DATA_DIR/secrets/temporal-jwt-key.json). It lists, describes and reads histories; every signal, update, start, cancel, terminate and reset is refused. For the temporal CLI (--api-key, with --tls=false on the loopback stack) and, with --web-ui, the Web UI (an Authorization: Bearer header). No database needed.",
    options: {
      ttl: { type: 'string', arg: 'seconds', help: `lifetime in seconds: default ${TEMPORAL_TOKEN_TTL_DEFAULT_SECONDS} (1 hour), maximum ${TEMPORAL_TOKEN_MAX_SECONDS} (${TEMPORAL_TOKEN_MAX_SECONDS / 3600} hours)` },
      subject: { type: 'string', arg: 's', help: 'who holds it (the token subject, the principal the frontend logs): default on-call' },
      'web-ui': { type: 'boolean', help: 'also temporal-system:read, read-only on every namespace and the cluster: the Web UI (2.54) lists namespaces and reads cluster info before it shows anything, and without it sends you to a login page; the CLI does not need it' },
    },
  },
  'temporal-jwks': {
    synopsis: 'temporal-jwks',
    summary:
      "Print the JWKS (public half only) of the Temporal token signing key, for a frontend's global.authorization.jwtKeyProvider (docs/deploy.md). Without TEMPORAL_JWT_KEY_FILE the key is DATA_DIR/secrets/temporal-jwt-key.json, made on first use; with it, that file is only read.",
    options: {},
  },
  'console-link': {
    synopsis: 'console-link --subject <operator> [--minutes <m>] [--api <url>]',
    summary:
      'Print a one-time sign-in link to the review console for a human operator (a bearer mapping made with map --operator). The link works once, within --minutes; the session it opens lasts 12 hours. No restart needed.',
    options: {
      subject: { type: 'string', arg: 'operator', help: 'the operator\'s token subject, as mapped with map --kind bearer --operator (required)' },
      minutes: { type: 'string', arg: 'm', help: 'how long the link can be used: 1..1440 (default 10)' },
      api: { type: 'string', arg: 'url', help: 'the API the link points to (default: PUBLIC_BASE_URL, else the running stack\'s stack.json, else http://127.0.0.1:$PORT)' },
    },
  },
  'portal-link': {
    synopsis: 'portal-link --subject <subject> [--minutes <m>] [--api <url>]',
    summary:
      "Print a one-time sign-in link to the partner portal (/portal) for a person of a partner organization (a bearer mapping holding partner_api_keys:manage, made with map). The link works once, within --minutes; the session it opens lasts 12 hours.",
    options: {
      subject: { type: 'string', arg: 'subject', help: "the person's token subject, as mapped with map --kind bearer --permissions partner_api_keys:manage,... (required)" },
      minutes: { type: 'string', arg: 'm', help: 'how long the link can be used: 1..1440 (default 10)' },
      api: { type: 'string', arg: 'url', help: 'the API the link points to (default: PUBLIC_BASE_URL, else the running stack\'s stack.json, else http://127.0.0.1:$PORT)' },
    },
  },
  list: {
    synopsis: 'list',
    summary: 'Show every actor mapping (no secrets).',
    options: {},
  },
  'rotate-webhook-key': {
    synopsis: 'rotate-webhook-key',
    summary:
      'Seal every stored webhook signing secret again under WEBHOOK_SECRET_KEY, opening each with that key or one of WEBHOOK_SECRET_PREVIOUS_KEYS (run after a key rotation, see docs/on-call.md; again, it does nothing). Prints counts and key ids, never a secret; exit 1 if some secret opens under none of the keys.',
    options: {},
  },
} as const satisfies Record<string, CommandSpec>;
type CommandName = keyof typeof COMMANDS;

/** Words of `text` in lines of at most `width` characters, the later ones indented by `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${indent}`);
}

function commandHelp(name: CommandName): string {
  const c: CommandSpec = COMMANDS[name];
  const opts: [string, string][] = Object.entries(c.options).map(([o, s]) => [`--${o}${s.arg ? ` <${s.arg}>` : ''}`, s.help]);
  opts.push(['-h, --help', 'this text']);
  const width = Math.max(...opts.map(([o]) => o.length)) + 2;
  const pad = ' '.repeat(6 + width);
  return [
    `  npm run iam -- ${c.synopsis}`,
    `      ${wrap(c.summary, 94, '      ')}`,
    ...opts.map(([o, h]) => `      ${o.padEnd(width)}${wrap(h, Math.max(40, 100 - pad.length), pad)}`),
  ].join('\n');
}

const FOOTER = wrap(`Permissions: ${PERMISSIONS.join(', ')}. Capabilities: ${CAPABILITIES.join(', ')}. Lists (a,b) are comma-separated.`, 100, '');
const ENV =
  "Reads DATABASE_URL (default: the embedded stack's PostgreSQL; required with NODE_ENV=production), DATA_DIR (the token signing key; the development webhook secret key), for rotate-webhook-key WEBHOOK_SECRET_KEY and WEBHOOK_SECRET_PREVIOUS_KEYS, and for temporal-token and temporal-jwks TEMPORAL_NAMESPACE and TEMPORAL_JWT_KEY_FILE.";

const USAGE = `usage: npm run iam -- <command> [options]    (npm run iam -- <command> --help for one command)

${(Object.keys(COMMANDS) as CommandName[]).map(commandHelp).join('\n\n')}

${FOOTER}
${ENV}`;

class UsageError extends Error {}

function usage(text: string, problem?: string): never {
  if (problem) console.error(`${problem}\n`);
  (problem ? console.error : console.log)(text);
  process.exit(problem ? 64 : 0); // EX_USAGE
}

const list = (v: string | undefined) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

function permissions(v: string | undefined): Permission[] {
  const names = list(v);
  const unknown = names.filter((n) => !(PERMISSIONS as readonly string[]).includes(n));
  if (unknown.length) throw new UsageError(`unknown permission: ${unknown.join(', ')}`);
  return names as Permission[];
}
function capabilities(v: string | undefined): Capability[] {
  const names = list(v);
  const unknown = names.filter((n) => !(CAPABILITIES as readonly string[]).includes(n));
  if (unknown.length) throw new UsageError(`unknown capability: ${unknown.join(', ')}`);
  return names as Capability[];
}
function required(values: Record<string, unknown>, names: string[]): void {
  const missing = names.filter((n) => !values[n]);
  if (missing.length) throw new UsageError(`missing ${missing.map((n) => `--${n}`).join(', ')}`);
}

type Values = Record<string, string | boolean | undefined>;
const str = (v: Values, k: string) => v[k] as string | undefined;

async function run(name: CommandName, values: Values, positionals: string[]): Promise<void> {
  const cfg = loadConfigOrExit(toolConfigSchema);
  if (name === 'token') {
    required(values, ['subject']);
    const ttl = Number(str(values, 'ttl') ?? TOKEN_TTL_DEFAULT_SECONDS);
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > TOKEN_TTL_MAX_SECONDS) throw new UsageError(`--ttl must be a whole number of seconds from 1 to ${TOKEN_TTL_MAX_SECONDS}`);
    if (cfg.IDP_DRIVER !== 'local') throw new Error('token signs with the local provider only; IDP_DRIVER is external: get tokens from your identity provider');
    const key = await loadOrCreateSigningKey(cfg.DATA_DIR);
    console.log(await issueLocalToken(key, { subject: str(values, 'subject')!, issuer: LOCAL_ISSUER, ttlSeconds: ttl }));
    return;
  }
  if (name === 'temporal-token') {
    const ttl = Number(str(values, 'ttl') ?? TEMPORAL_TOKEN_TTL_DEFAULT_SECONDS);
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > TEMPORAL_TOKEN_MAX_SECONDS) throw new UsageError(`--ttl must be a whole number of seconds from 1 to ${TEMPORAL_TOKEN_MAX_SECONDS}`);
    const key = readTemporalSigningKey(temporalKeyFileOf(cfg));
    const permissions = [namespacePermission(cfg.TEMPORAL_NAMESPACE, 'read'), ...(values['web-ui'] ? [systemPermission('read')] : [])];
    console.log(mintTemporalToken(key, { subject: str(values, 'subject') ?? 'on-call', permissions, ttlSeconds: ttl }));
    console.error(`[iam] Temporal reader token (${permissions.join(', ')}), valid ${ttl} s`);
    return;
  }
  if (name === 'temporal-jwks') {
    const key = cfg.TEMPORAL_JWT_KEY_FILE ? readTemporalSigningKey(cfg.TEMPORAL_JWT_KEY_FILE) : loadOrCreateTemporalSigningKey(cfg.DATA_DIR);
    console.log(JSON.stringify(temporalJwks(key), null, 2));
    console.error(`[iam] JWKS of ${temporalKeyFileOf(cfg)} (key id ${key.kid})`);
    return;
  }
  if (name === 'console-link' || name === 'portal-link') {
    required(values, ['subject']);
    const minutes = Number(str(values, 'minutes') ?? 10);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440) throw new UsageError('--minutes must be a whole number from 1 to 1440');
    values.minutes = String(minutes);
  }
  if (name === 'revoke-key' && positionals.length !== 1) throw new UsageError('give exactly one key id');
  if (name === 'create-key') required(values, ['org']);
  if (name === 'map') {
    required(values, ['actor', 'kind', 'subject', 'org', 'role']);
    if (values.kind !== 'api_key' && values.kind !== 'bearer') throw new UsageError('--kind must be api_key or bearer');
  }
  const perms = permissions(str(values, 'permissions') ?? (name === 'create-key' ? 'portfolio_intake:stage' : undefined));
  const caps = capabilities(str(values, 'capabilities'));

  const db = databaseOf(cfg);
  dbWhere = whereOf(db.url);
  const sql = createSql(db.url, { max: 1 });
  let failed = false;
  try {
    switch (name) {
      case 'create-key': {
        const { keyId, key, actorId } = await createMappedApiKey(sql, {
          organizationId: str(values, 'org')!,
          // A key is never nameless in the portal: without --label it is named by what it may do.
          label: str(values, 'label') ?? `npm run iam: ${perms.join(', ')}`,
          mapping: {
            actorId: str(values, 'actor'),
            role: str(values, 'role') ?? 'partner',
            permissions: perms,
            artistScope: list(str(values, 'artist-scope')),
            studioScope: list(str(values, 'studio-scope')),
            capabilities: caps,
            selfService: !values.service,
          },
        });
        console.log(`key id:   ${keyId}\nactor id: ${actorId}\nAPI key (shown once, store it now):\n${key}`);
        return;
      }
      case 'revoke-key': {
        const keyId = positionals[0]!;
        console.log((await revokeApiKey(sql, keyId)) ? `revoked ${keyId}` : `no active key ${keyId}`);
        return;
      }
      case 'map': {
        const kind = values.kind as 'api_key' | 'bearer';
        await upsertMapping(sql, {
          actorId: str(values, 'actor')!,
          credentialKind: kind,
          credentialSubject: str(values, 'subject')!,
          credentialIssuer: kind === 'bearer' ? (str(values, 'issuer') ?? LOCAL_ISSUER) : '',
          role: str(values, 'role')!,
          permissions: perms,
          organizationId: str(values, 'org')!,
          artistScope: list(str(values, 'artist-scope')),
          studioScope: list(str(values, 'studio-scope')),
          capabilities: caps,
          isHumanOperator: Boolean(values.operator),
          selfService: !values.service && !values.operator,
          active: !values.inactive,
        });
        console.log(`mapping ${str(values, 'actor')} saved`);
        return;
      }
      case 'rotate-webhook-key': {
        const box = loadWebhookSecretBox(cfg);
        const r = await resealSecrets(sql, box, 'stale');
        console.log(`webhook signing secrets resealed under key ${box.keyId}: ${r.resealed}`);
        if (r.unreadable.length) {
          console.error(`not opened by WEBHOOK_SECRET_KEY or WEBHOOK_SECRET_PREVIOUS_KEYS (left as they are): ${r.unreadable.join(', ')}`);
          process.exitCode = 1;
        }
        return;
      }
      case 'console-link': {
        const identity = { kind: 'bearer' as const, subject: str(values, 'subject')!, issuer: LOCAL_ISSUER };
        const actor = await findActiveActor(sql, identity);
        if (!actor?.isHumanOperator) {
          console.error(`no active human-operator mapping for bearer subject ${identity.subject}: map one first (npm run iam -- map --kind bearer --subject ${identity.subject} --operator ...)`);
          process.exitCode = 1;
          return;
        }
        const code = await createSigninCode(sql, { ...identity, ttlSeconds: Number(values.minutes) * 60, sessionExpiresAt: new Date(Date.now() + CONSOLE_SESSION_HOURS * 3600 * 1000) });
        const api = apiBaseOf({ flag: str(values, 'api'), publicBaseUrl: cfg.PUBLIC_BASE_URL, port: cfg.PORT, dataDir: cfg.DATA_DIR, defaultPort: EMBEDDED_DEFAULTS.apiPort });
        console.log(`${api.url}/console/signin?code=${code}`);
        console.error(`[iam] one-time console link for ${identity.subject} (actor ${actor.actorId}), usable for ${values.minutes} min; API ${api.url} (from ${api.source})`);
        return;
      }
      case 'portal-link': {
        const identity = { kind: 'bearer' as const, subject: str(values, 'subject')!, issuer: LOCAL_ISSUER };
        const actor = await findActiveActor(sql, identity);
        if (!actor?.permissions.includes('partner_api_keys:manage')) {
          console.error(
            `no active mapping with partner_api_keys:manage for bearer subject ${identity.subject}: map one first (npm run iam -- map --kind bearer --subject ${identity.subject} --role partner --org <org> --permissions partner_api_keys:manage ...)`,
          );
          process.exitCode = 1;
          return;
        }
        const code = await createSigninCode(sql, { ...identity, ttlSeconds: Number(values.minutes) * 60, sessionExpiresAt: new Date(Date.now() + CONSOLE_SESSION_HOURS * 3600 * 1000), surface: 'portal' });
        const api = apiBaseOf({ flag: str(values, 'api'), publicBaseUrl: cfg.PUBLIC_BASE_URL, port: cfg.PORT, dataDir: cfg.DATA_DIR, defaultPort: EMBEDDED_DEFAULTS.apiPort });
        console.log(`${api.url}/portal/signin?code=${code}`);
        console.error(`[iam] one-time portal link for ${identity.subject} (actor ${actor.actorId}, organization ${actor.organizationId}), usable for ${values.minutes} min; API ${api.url} (from ${api.source})`);
        return;
      }
      case 'list': {
        const rows = await sql`select actor_id, credential_kind, credential_subject, role, permissions, organization_id, is_human_operator, active from actor_mappings order by actor_id`;
        console.table(rows.map((r) => ({ ...r, permissions: (r.permissions as string[]).join(',') })));
        return;
      }
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    await sql.end({ timeout: 2 });
    // Where it worked, in one line on stderr (stdout stays the command's answer: a key, a token).
    if (!failed) console.error(`[iam] PostgreSQL ${whereOf(db.url)} (from ${db.source})`);
  }
}

/** The database a command connected to (host:port/database), for its error line. */
let dbWhere: string | undefined;

/** One line for any failure: the reason, never a stack and never a connection URL. */
function oneLine(err: unknown): string {
  if (err instanceof MappingRefusedError) return `refused: ${err.message}`;
  if (err instanceof z.ZodError) return `refused: ${err.issues.map((i) => `${i.path.join('.') || 'mapping'}: ${i.message}`).join('; ')}`;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ECONNREFUSED') return `error: PostgreSQL is not reachable at ${dbWhere ?? 'the configured address'} (is \`npm start\` running, or DATABASE_URL set?)`;
  return `error: ${e.message ?? String(err)}`;
}

const [first, ...rest] = process.argv.slice(2);
if (first === undefined) usage(USAGE, 'missing command');
if (first === '--help' || first === '-h' || first === 'help') usage(USAGE);
if (!Object.hasOwn(COMMANDS, first)) usage(USAGE, first.startsWith('-') ? `unknown option '${first}' (options follow a command)` : `unknown command '${first}'`);
const name = first as CommandName;
const spec: CommandSpec = COMMANDS[name];
const help = `usage:\n${commandHelp(name)}\n\n${name === 'create-key' || name === 'map' ? `${FOOTER}\n` : ''}${ENV}`;
let parsed: { values: Values; positionals: string[] };
try {
  parsed = parseArgs({
    args: rest,
    allowPositionals: name === 'revoke-key',
    options: { ...Object.fromEntries(Object.entries(spec.options).map(([o, s]) => [o, { type: s.type }])), help: { type: 'boolean', short: 'h' } },
  });
} catch (err) {
  // node:util's messages, shortened to their first sentence where they go on about `--`.
  const e = err as Error & { code?: string };
  usage(help, e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? e.message.replace(/\. To specify a positional.*$/s, '') : e.message.split('\n')[0]);
}
if (parsed.values.help) usage(help);
try {
  await run(name, parsed.values, parsed.positionals);
} catch (err) {
  if (err instanceof UsageError) usage(help, err.message);
  console.error(oneLine(err));
  process.exitCode = 1;
}
