// A partner's content stays with its own artists (issue 14, item 6): a stage actor stages only for
// artists its organization resolved or is scoped to; cross-tenant only for approved service actors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, submissionBody } from '../helpers/intake';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

let stack: TestStack;
let orgA: string;
let artistOfA: string;
let partnerB: TestCredential;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  orgA = uid('org-a-');
  artistOfA = uid('artist-a-');
  // Organization A: its partner key has resolved A's artist; its owner account is scoped to it.
  await apiKeyActor(stack, { organizationId: orgA, permissions: ['portfolio_intake:stage'], stagesFor: [artistOfA] });
  await bearerActor(stack, { organizationId: orgA, permissions: ['owner_portfolio_assets:read'], artistScope: [artistOfA] });
  partnerB = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'], stagesFor: [] });
});
afterAll(async () => stack?.stop());

const create = (who: TestCredential, over: Record<string, unknown>) =>
  call(stack, 'POST', `${INTAKE}/submissions`, { headers: who.headers, body: submissionBody(who, over) });

describe('staging for an artist', () => {
  it("a partner of another organization cannot stage for organization A's artist: 403 artist_out_of_scope, nothing written", async () => {
    const r = await create(partnerB, { artistCanonicalId: artistOfA });
    expect(r.status).toBe(403);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ success: false, code: 'artist_out_of_scope' });
    expect(r.body.detail).toContain(artistOfA);
    expect((await stack.sql`select 1 from submissions where artist_canonical_id = ${artistOfA}`).length).toBe(0);
    // Naming A as the tenant is refused earlier, as before.
    expect((await create(partnerB, { tenantId: orgA, artistCanonicalId: artistOfA })).body.code).toBe('out_of_scope');
  });

  it("a key scoped to some artists gets 403 artist_out_of_scope (as partners.md says) for an artist outside its scope, even its organization's own", async () => {
    const scoped = await apiKeyActor(stack, { organizationId: orgA, permissions: ['portfolio_intake:stage'], artistScope: [uid('artist-other-')], stagesFor: [] });
    const r = await create(scoped, { artistCanonicalId: artistOfA });
    expect([r.status, r.body.code]).toEqual([403, 'artist_out_of_scope']);
    expect(r.body.detail).toMatch(/artist scope/);
  });

  it("A's own partner stages for its artist; an artist nobody's organization knows is refused to it too", async () => {
    const partnerA = await apiKeyActor(stack, { organizationId: orgA, permissions: ['portfolio_intake:stage'], stagesFor: [] });
    // Tied through the organization: another mapping of A resolved it, A's owner is scoped to it.
    expect((await create(partnerA, { artistCanonicalId: artistOfA })).status).toBe(201);
    expect((await create(partnerA, { artistCanonicalId: uid('artist-unknown-') })).body.code).toBe('artist_out_of_scope');
  });

  it('an artist the organization resolved through POST /artist-resolution-requests (its own evidence) may be staged for', async () => {
    const artist = uid('artist-b-');
    const phoneHash = 'sha256:' + 'b'.repeat(64);
    await stack.sql`insert into artist_identity_evidence (tenant_id, kind, value, artist_canonical_id) values (${partnerB.organizationId!}, 'phone_hash', ${phoneHash}, ${artist})`;
    expect((await create(partnerB, { artistCanonicalId: artist })).body.code).toBe('artist_out_of_scope');
    await stack.startWorker();
    const resolved = await call(stack, 'POST', `${INTAKE}/artist-resolution-requests`, {
      headers: partnerB.headers,
      body: { idempotencyKey: uid('resolve-'), tenantId: partnerB.organizationId, source: 'partner_api', phoneHash },
    });
    expect(resolved.body.data).toMatchObject({ status: 'phone_matched', artistCanonicalId: artist });
    expect((await create(partnerB, { artistCanonicalId: artist })).status).toBe(201);
    // Still not A's artist.
    expect((await create(partnerB, { artistCanonicalId: artistOfA })).body.code).toBe('artist_out_of_scope');
  });

  it('a key scoped to an artist stages for it; an approved service actor stages for any tenant and artist', async () => {
    const scoped = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'], artistScope: ['artist-scoped-1'], stagesFor: [] });
    expect((await create(scoped, { artistCanonicalId: 'artist-scoped-1' })).status).toBe(201);
    const service = await apiKeyActor(stack, {
      permissions: ['portfolio_intake:stage'], capabilities: ['portfolio_intake:stage_cross_tenant'], selfService: false, role: 'service', stagesFor: [],
    });
    expect((await create(service, { tenantId: orgA, artistCanonicalId: artistOfA })).status).toBe(201);
  });
});
