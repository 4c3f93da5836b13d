// `npm run iam -- create-key` writes the key and its mapping in one transaction: a mapping that is
// refused (by the rules or by the database) leaves no key behind. Run as the operator runs it (the
// script in a child process) against a database of its own.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { createSql, type Sql } from '../../lib/db';
import { stageArtistViolation } from '../../lib/intake/artist-ties';
import { createMappedApiKey, findActiveActor, MappingRefusedError } from '../../lib/identity/actors';
import { verifyLocalApiKey } from '../../lib/identity/api-keys';
import { LOCAL_ISSUER } from '../../lib/identity';
import { redeemSigninCode } from '../../lib/console/sessions';
import { runScript } from '../helpers/run-script';
import { createTestDatabase, uid } from '../helpers/stack';

const iam = (args: string[], env: Record<string, string>) => runScript('scripts/iam.ts', args, env);

describe('iam create-key: the key and its mapping together or not at all', () => {
  let db: { url: string; drop(): Promise<void> };
  let sql: Sql;
  const count = async (table: 'api_keys' | 'actor_mappings') => Number((await sql`select count(*)::int as n from ${sql(table)}`)[0]!.n);

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = createSql(db.url, { max: 2 });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await db?.drop();
  });

  it('a permission refused on partner keys (portfolios:publish) stores no key: one line, exit 1', async () => {
    const r = await iam(['create-key', '--org', 'acme', '--permissions', 'portfolio_intake:stage,portfolios:publish'], { DATABASE_URL: db.url });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('refused: not available on v1 partner keys: portfolios:publish');
    expect(r.stdout).not.toMatch(/tpk_/);
    expect(await count('api_keys')).toBe(0);
    expect(await count('actor_mappings')).toBe(0);
  });

  it('a cross-tenant capability or an agent permission on a self-service key, or a malformed actor id, stores no key either', async () => {
    const cross = await iam(['create-key', '--org', 'acme', '--capabilities', 'portfolio_intake:stage_cross_tenant'], { DATABASE_URL: db.url });
    expect(cross.code).toBe(1);
    expect(cross.stderr).toMatch(/^refused: portfolio_intake:stage_cross_tenant is only for approved service actors/);
    const agent = await iam(['create-key', '--org', 'acme', '--permissions', 'agent_context:read,portfolio_intake:classify'], { DATABASE_URL: db.url });
    expect(agent.code).toBe(1);
    expect(agent.stderr.trim()).toBe('refused: only approved service actors hold agent_context:read, portfolio_intake:classify (a classifier or an agent: --service), never a self-service key');
    const badActor = await iam(['create-key', '--org', 'acme', '--actor', 'x'], { DATABASE_URL: db.url });
    expect(badActor.code).toBe(1);
    expect(badActor.stderr.trim().split('\n')).toHaveLength(1);
    expect(badActor.stderr).toMatch(/^refused: actorId: /);
    expect(await count('api_keys')).toBe(0);
  });

  it('a mapping the database refuses after the key row was written rolls the key back too', async () => {
    // A NUL character passes the mapping schema but not PostgreSQL's text type: the second insert fails.
    await expect(createMappedApiKey(sql, { organizationId: 'acme', mapping: { role: 'partner\u0000', permissions: ['portfolio_intake:stage'] } })).rejects.toThrow(/0x00/);
    await expect(createMappedApiKey(sql, { organizationId: 'acme', mapping: { role: 'partner', permissions: ['artists:write'] } })).rejects.toBeInstanceOf(MappingRefusedError);
    expect(await count('api_keys')).toBe(0);
    expect(await count('actor_mappings')).toBe(0);
  });

  it('an accepted create-key prints the key once, and that key proves a mapped actor', async () => {
    const r = await iam(['create-key', '--org', 'acme', '--permissions', 'portfolio_intake:stage,search:read', '--label', 'guide', '--artist-scope', 'artist-1'], { DATABASE_URL: db.url });
    expect(r.code, r.stderr).toBe(0);
    const keys = r.stdout.match(/tpk_[A-Za-z0-9]+_[A-Za-z0-9_-]+/g) ?? [];
    expect(keys).toHaveLength(1);
    const keyId = /key id:\s+(\S+)/.exec(r.stdout)![1]!;
    expect(r.stdout).toContain(`actor id: partner-${keyId}`);
    const identity = await verifyLocalApiKey(sql, keys[0]!);
    const actor = await findActiveActor(sql, identity);
    expect(actor).toMatchObject({ actorId: `partner-${keyId}`, organizationId: 'acme', permissions: ['portfolio_intake:stage', 'search:read'], artistScope: ['artist-1'], selfService: true });
    expect(await count('api_keys')).toBe(1);
    expect((await sql<{ label: string }[]>`select label from api_keys where key_id = ${keyId}`)[0]!.label).toBe('guide');
    // Without --label a key is still named in the portal: by what it may do.
    const unnamed = await iam(['create-key', '--org', 'acme', '--permissions', 'portfolio_intake:stage'], { DATABASE_URL: db.url });
    const unnamedId = /key id:\s+(\S+)/.exec(unnamed.stdout)![1]!;
    expect((await sql<{ label: string }[]>`select label from api_keys where key_id = ${unnamedId}`)[0]!.label).toBe('npm run iam: portfolio_intake:stage');
  });

  it("the README's create-key example makes a key that stages for the artist it names; one without --artist-scope stages for no artist of a new organization", async () => {
    const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const example = /^npm run iam -- (create-key .*?)\s+#/m.exec(readme)![1]!.split(/\s+/);
    const artist = example[example.indexOf('--artist-scope') + 1]!;
    const org = example[example.indexOf('--org') + 1]!;
    const actorOf = async (args: string[]) => {
      const r = await iam(args, { DATABASE_URL: db.url });
      expect(r.code, r.stderr).toBe(0);
      return (await findActiveActor(sql, await verifyLocalApiKey(sql, /tpk_[A-Za-z0-9]+_[A-Za-z0-9_-]+/.exec(r.stdout)![0])))!;
    };
    expect(await stageArtistViolation(sql, await actorOf(example), artist)).toBeUndefined();
    const bare = await actorOf(['create-key', '--org', uid('org-new-')]);
    expect(bare.artistScope).toEqual([]);
    expect(await stageArtistViolation(sql, bare, artist)).toMatch(/is not an artist of your organization/);
    // the scoped key ties the artist to its organization: another key of it, unscoped, stages for it too
    expect(await stageArtistViolation(sql, await actorOf(['create-key', '--org', org]), artist)).toBeUndefined();
  });

  it('map, token, list and revoke-key do what their help says', async () => {
    const env = { DATABASE_URL: db.url, DATA_DIR: path.join(inject('tmpRoot'), uid('iam-data-')) };
    const mapped = await iam(['map', '--actor', 'op-jane', '--kind', 'bearer', '--subject', 'jane', '--org', 'platform', '--role', 'operator', '--permissions', 'portfolio_intake:review', '--operator'], env);
    expect(mapped.code, mapped.stderr).toBe(0);
    expect(mapped.stdout.trim()).toBe('mapping op-jane saved');
    const token = await iam(['token', '--subject', 'jane', '--ttl', '600'], env);
    expect(token.code, token.stderr).toBe(0);
    const claims = JSON.parse(Buffer.from(token.stdout.trim().split('.')[1]!, 'base64url').toString()) as { sub: string; iat: number; exp: number };
    expect(claims.sub).toBe('jane');
    expect(claims.exp - claims.iat).toBe(600);
    const listed = await iam(['list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('op-jane');
    const keyId = (await sql<{ keyId: string }[]>`select key_id from api_keys limit 1`)[0]!.keyId;
    expect((await iam(['revoke-key', keyId], env)).stdout.trim()).toBe(`revoked ${keyId}`);
    expect((await iam(['revoke-key', keyId], env)).stdout.trim()).toBe(`no active key ${keyId}`);
  });

  it('console-link prints a one-time console link for a mapped operator, without a restart; anyone else is refused', async () => {
    const env = { DATABASE_URL: db.url, DATA_DIR: path.join(inject('tmpRoot'), uid('iam-data-')) };
    expect((await iam(['map', '--actor', 'op-kim', '--kind', 'bearer', '--subject', 'kim', '--org', 'platform', '--role', 'operator', '--permissions', 'portfolio_intake:review', '--operator'], env)).code).toBe(0);
    const r = await iam(['console-link', '--subject', 'kim', '--minutes', '5', '--api', 'http://127.0.0.1:4321/'], env);
    expect(r.code, r.stderr).toBe(0);
    const link = r.stdout.trim();
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:4321\/console\/signin\?code=[A-Za-z0-9_-]{20,}$/);
    expect(r.stderr).toMatch(/one-time console link for kim \(actor op-kim\), usable for 5 min; API http:\/\/127\.0\.0\.1:4321 \(from --api\)/);
    // the code the console's /console/signin redeems: kim's identity, once, for about 12 hours
    const code = new URL(link).searchParams.get('code')!;
    const redeemed = await redeemSigninCode(sql, code);
    expect(redeemed?.identity).toEqual({ kind: 'bearer', subject: 'kim', issuer: LOCAL_ISSUER });
    expect(redeemed!.sessionExpiresAt.getTime() - Date.now()).toBeGreaterThan(11.9 * 3600 * 1000);
    expect(await redeemSigninCode(sql, code)).toBeUndefined();
    // a partner mapping, or nobody, gets no link
    expect((await iam(['map', '--actor', 'p-lee', '--kind', 'bearer', '--subject', 'lee', '--org', 'acme', '--role', 'partner', '--permissions', 'search:read'], env)).code).toBe(0);
    for (const subject of ['lee', 'nobody']) {
      const refused = await iam(['console-link', '--subject', subject], env);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(new RegExp(`^no active human-operator mapping for bearer subject ${subject}`));
    }
    const bad = await iam(['console-link', '--subject', 'kim', '--minutes', '0'], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr.split('\n')[0]).toBe('--minutes must be a whole number from 1 to 1440');
  });

  it('an unreachable database is one line on stderr, exit 1, no stack and no URL', async () => {
    const url = 'postgres://someone:s3cret-pw@127.0.0.1:1/none';
    const r = await iam(['create-key', '--org', 'acme'], { DATABASE_URL: url });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/PostgreSQL is not reachable/);
    expect(r.stderr).not.toContain('s3cret-pw');
    expect(r.stderr).not.toMatch(/^ {4}at /m);
  });
});
