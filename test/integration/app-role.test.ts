// The least-privilege role of the embedded stack's API and worker (issue 17): rows in and out of
// the intake and directory tables, read-only credentials, no DDL.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPEND_ONLY_TABLES, ensureAppRole } from '../../lib/db/app-role';
import { runScript } from '../helpers/run-script';
import { createTestDatabase } from '../helpers/stack';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let app: postgres.Sql;
beforeAll(async () => {
  db = await createTestDatabase();
  app = postgres(await ensureAppRole(db.url, 'app-Secret_42'), { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await app?.end();
  await db?.drop();
});

const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code ?? String(e));

describe('the app role', () => {
  it('reads and writes the tables the API and worker use', async () => {
    expect(await codeOf(app`select count(*) from submissions`)).toBe('ok');
    expect(await codeOf(app`insert into rate_limits (key, points, expire) values ('t:k', 1, 0)`)).toBe('ok');
    expect(await codeOf(app`update rate_limits set points = 2 where key = 't:k'`)).toBe('ok');
    expect(await codeOf(app`delete from rate_limits where key = 't:k'`)).toBe('ok');
    expect(await codeOf(app`select pg_notify('intake_transitions', '{}')`)).toBe('ok');
    expect(await codeOf(app`select count(*) from actor_mappings`)).toBe('ok');
  });

  it('cannot write credentials, change the schema or act as a superuser', async () => {
    expect(await codeOf(app`update actor_mappings set permissions = '{portfolios:publish}'`)).toBe('42501');
    expect(await codeOf(app`insert into api_keys (key_id) values ('x')`)).toBe('42501');
    expect(await codeOf(app`create table evil (x int)`)).toBe('42501');
    expect(await codeOf(app`drop table submissions`)).toBe('42501');
    const [me] = await app<{ rolsuper: boolean }[]>`select rolsuper from pg_roles where rolname = current_user`;
    expect(me!.rolsuper).toBe(false);
  });

  it('appends to the audit tables and reads them, but cannot update or delete a row of any', async () => {
    const { submissionId, documentId, deliveryId } = await auditParents(db.url);
    // One row in each, written as the app role the way the code writes them.
    const inserts: Record<string, () => Promise<unknown>> = {
      intake_events: () => app`insert into intake_events (submission_id, actor_id, credential_id, from_status, to_status, trigger)
        values (${submissionId}, 'actor_a', 'cred_a', null, 'staged', 'create') on conflict (submission_id, to_status) do nothing`,
      access_audit: () => app`insert into access_audit (action, subject, detail) values ('test', 'subject', '{}'::jsonb)`,
      decision_refusals: () => app`insert into decision_refusals (submission_id, decision, request_id, reason, claimed_actor_id, claimed_credential_id)
        values (${submissionId}, 'approve', 'req_1', 'proof_invalid', 'actor_x', 'cred_x') on conflict (submission_id, request_id) do nothing`,
      decision_matches: () => app`insert into decision_matches (submission_id, decision, request_id, actor_id, credential_id, matches, review_notes)
        values (${submissionId}, 'approve', 'req_1', 'actor_a', 'cred_a', '[]'::jsonb, 'seen') on conflict (submission_id, request_id) do nothing`,
      posture_settlements: () => app`insert into posture_settlements (document_id, rights_before, rights_after, consent_before, consent_after, operator_actor_id, credential_id, note)
        values (${documentId}, 'review_required', 'artist_attested', 'review_required', 'client_consented', 'op', 'cred', 'settled')`,
      webhook_attempts: () => app`insert into webhook_attempts (delivery_id, attempt, status_code, duration_ms) values (${deliveryId}, 1, 204, 3)`,
    };
    expect(Object.keys(inserts).sort()).toEqual([...APPEND_ONLY_TABLES].sort());
    for (const [table, insert] of Object.entries(inserts)) {
      expect(await codeOf(insert()), `insert into ${table}`).toBe('ok');
      const [row] = await app.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table}`);
      expect(row!.n, `select from ${table}`).toBe(1);
      // 42501 insufficient_privilege: "permission denied for table ..."
      const err = await app.unsafe(`update ${table} set at = now()`).catch((e: Error & { code: string }) => e);
      expect((err as { code?: string }).code, `update ${table}`).toBe('42501');
      expect((err as Error).message).toMatch(/permission denied/);
      expect(await codeOf(app.unsafe(`delete from ${table}`)), `delete from ${table}`).toBe('42501');
      expect(await codeOf(app.unsafe(`truncate ${table}`)), `truncate ${table}`).toBe('42501');
    }
    // The rows are all still there, as the owner sees them.
    const owner = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      for (const table of APPEND_ONLY_TABLES) {
        const [row] = await owner.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table}`);
        expect(row!.n, table).toBe(1);
      }
    } finally {
      await owner.end();
    }
  });

  it('makes partner keys only through the portal functions: self-service permissions, a partner mapping, audited', async () => {
    const hash = Buffer.alloc(32, 7);
    // Straight writes are refused; the function makes the key and its mapping in one go.
    expect(await codeOf(app`insert into api_keys (key_id, prefix, secret_hash, organization_id) values ('AAAAAAAAAAAA', 'tpk', ${hash}, 'org')`)).toBe('42501');
    expect(await codeOf(app`select portal_create_key('AAAAAAAAAAAA', 'tpk', ${hash}, 'site', 'org-r', 'pat', null, ${app.array(['artists:read'])}::text[])`)).toBe('ok');
    const [m] = await app<{ role: string; permissions: string[]; selfService: boolean; isHumanOperator: boolean }[]>`
      select role, permissions, self_service as "selfService", is_human_operator as "isHumanOperator" from actor_mappings where credential_subject = 'AAAAAAAAAAAA'`;
    expect(m).toEqual({ role: 'partner', permissions: ['artists:read'], selfService: true, isHumanOperator: false });
    // What a compromised API would try: an operator's permission, or the portal's own, on a key.
    for (const p of ['portfolio_intake:review', 'portfolios:publish', 'partner_api_keys:manage', 'portfolio_intake:stage_cross_tenant']) {
      expect(await codeOf(app`select portal_create_key('BBBBBBBBBBBB', 'tpk', ${hash}, 'x', 'org-r', 'pat', null, ${app.array([p])}::text[])`), p).toBe('22023');
    }
    // Rotation and revocation stay inside the organization; the key's last use is the one column it may write.
    expect(await codeOf(app`select portal_rotate_key('AAAAAAAAAAAA', 'other-org', 'pat', 0, 'CCCCCCCCCCCC', 'tpk', ${hash})`)).toBe('P0002');
    expect(await codeOf(app`select portal_revoke_key('AAAAAAAAAAAA', 'org-r', 'pat')`)).toBe('ok');
    expect(await codeOf(app`update api_keys set last_used_at = now() where key_id = 'AAAAAAAAAAAA'`)).toBe('ok');
    expect(await codeOf(app`update api_keys set revoked_at = null where key_id = 'AAAAAAAAAAAA'`)).toBe('42501');
    const [audit] = await app<{ n: number }[]>`select count(*)::int as n from access_audit where action in ('portal_key_created', 'portal_key_revoked')`;
    expect(audit!.n).toBe(2);
    // Nobody else may call them (not granted to PUBLIC).
    const owner = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const [pub] = await owner<{ ok: boolean }[]>`select has_function_privilege('public', 'portal_create_key(text, text, bytea, text, text, text, timestamptz, text[])', 'execute') as ok`;
      expect(pub!.ok).toBe(false);
    } finally {
      await owner.end();
    }
  });
});

/** What the audit rows point at (a submission, its draft, a webhook delivery), written by the owner. */
async function auditParents(ownerUrl: string) {
  const owner = postgres(ownerUrl, { max: 1, onnotice: () => {} });
  const [submissionId, documentId, deliveryId] = ['sub_audit', 'mdoc_audit', 'whd_audit'];
  try {
    await owner`
      insert into submissions (submission_id, tenant_id, artist_canonical_id, partner_actor_id, credential_id, source, file_name, mime_type,
        size_bytes, rights_posture, consent_posture, staging_key)
      values (${submissionId}, 'tenant_a', 'artist_a', 'actor_a', 'cred_a', 'partner_api', 'a.jpg', 'image/jpeg', 10, 'review_required',
        'review_required', 'staging/sub_audit')`;
    await owner`
      insert into media_documents (document_id, submission_id, tenant_id, artist_canonical_id, owner_actor_id, object_key, sha256, mime_type,
        size_bytes, rights_posture, consent_posture, approved_by, review_notes)
      values (${documentId}, ${submissionId}, 'tenant_a', 'artist_a', 'actor_a', 'drafts/a', ${'0'.repeat(64)}, 'image/jpeg', 10,
        'review_required', 'review_required', 'op', 'ok')`;
    await owner`insert into webhook_endpoints (endpoint_id, organization_id, url, created_by) values ('whe_audit', 'org_a', 'https://hooks.example.com/', 'actor_a')`;
    const [e] = await owner<{ seq: string }[]>`
      insert into webhook_events (event_id, organization_id, submission_id, event_type, intake_status, review_status)
      values ('msg_audit', 'org_a', ${submissionId}, 'submission.staged', 'staged', 'review_required') returning seq`;
    await owner`
      insert into webhook_deliveries (delivery_id, event_id, endpoint_id, submission_id, seq)
      values (${deliveryId}, 'msg_audit', 'whe_audit', ${submissionId}, ${e!.seq})`;
  } finally {
    await owner.end();
  }
  return { submissionId, documentId, deliveryId };
}

describe('npm run migrate -- --app-role (a production release step)', () => {
  it('migrates, then creates the role with INTAKE_APP_PASSWORD: it connects and reads, and cannot write credentials', async () => {
    const fresh = await createTestDatabase();
    try {
      const password = 'app-Secret_42-release-step';
      const refused = await runScript('scripts/migrate.ts', ['--app-role'], { DATABASE_URL: fresh.url });
      expect(refused.code).toBe(64);
      expect(refused.stderr).toMatch(/^--app-role needs INTAKE_APP_PASSWORD/);
      const r = await runScript('scripts/migrate.ts', ['--app-role'], { DATABASE_URL: fresh.url, INTAKE_APP_PASSWORD: password });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/migrations: up to date/);
      expect(r.stdout).toMatch(/role intake_app: granted the tables/);
      const url = new URL(fresh.url);
      url.username = 'intake_app';
      url.password = password;
      const role = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        expect(await codeOf(role`select count(*) from submissions`)).toBe('ok');
        expect(await codeOf(role`insert into api_keys (key_id) values ('x')`)).toBe('42501');
      } finally {
        await role.end();
      }
    } finally {
      await fresh.drop();
    }
  }, 120_000);
});
