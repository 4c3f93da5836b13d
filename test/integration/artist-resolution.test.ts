import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE } from '../helpers/intake';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

describe('artist resolution requests (review evidence, never KYC, never a public profile)', () => {
  let stack: TestStack;
  let partner: TestCredential;
  const phone = 'sha256:' + 'a'.repeat(64);
  beforeAll(async () => {
    stack = await startTestStack();
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const t = partner.organizationId!;
    await stack.sql`insert into artist_identity_evidence (tenant_id, kind, value, artist_canonical_id, verified_by_operator) values
      (${t}, 'phone_hash', ${phone}, 'artist-phone', false),
      (${t}, 'instagram_handle', 'inkmaster', 'artist-ig', false),
      (${t}, 'mapping', 'msg-verified', 'artist-verified', true)`;
  });
  afterAll(async () => stack?.stop());

  const ask = (over: Record<string, unknown>) =>
    call(stack, 'POST', `${INTAKE}/artist-resolution-requests`, {
      headers: partner.headers,
      body: { idempotencyKey: uid('res-'), tenantId: partner.organizationId, source: 'partner_api', ...over },
    });

  it('matches evidence in order: existing mapping, phone hash, Instagram handle; otherwise unmatched', async () => {
    expect((await ask({ sourceMessageId: 'msg-verified', phoneHash: phone })).body.data).toEqual({ status: 'verified_by_operator', artistCanonicalId: 'artist-verified', reviewRequired: false, legalKycVerified: false });
    expect((await ask({ phoneHash: phone, instagramHandle: '@inkmaster' })).body.data).toMatchObject({ status: 'phone_matched', artistCanonicalId: 'artist-phone', reviewRequired: true });
    expect((await ask({ instagramHandle: '@InkMaster' })).body.data).toMatchObject({ status: 'review_required', artistCanonicalId: 'artist-ig' });
    expect((await ask({ displayName: 'Nobody' })).body.data).toEqual({ status: 'unmatched', artistCanonicalId: null, reviewRequired: true, legalKycVerified: false });
    // an unmatched request creates nothing: no evidence, no profile
    expect((await stack.sql`select count(*)::int as n from artist_identity_evidence`)[0]!.n).toBe(3);
  });

  it('is idempotent per key: the same body answers the same, a different body is 422', async () => {
    const key = uid('res-');
    const a = await ask({ idempotencyKey: key, phoneHash: phone });
    const b = await ask({ idempotencyKey: key, phoneHash: phone });
    expect(b.body).toEqual(a.body);
    const c = await ask({ idempotencyKey: key, instagramHandle: 'inkmaster' });
    expect(c.status).toBe(422);
  });

  it('rejects a malformed phone hash and an unknown source with 400 naming the field', async () => {
    const r = await ask({ phoneHash: 'sha256:XYZ', source: 'email' });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.phoneHash', 'body.source']);
  });
});
