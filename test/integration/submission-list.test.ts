// Partners list their own submissions (issue 15, part 1): newest first, keyset cursor pages,
// filters; the status view carries its times and, once published, the public image's URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetIdOf, projectDraft } from '../../lib/directory/projection';
import { apiKeyActor, bearerActor, TEST_ARTIST, type TestCredential } from '../helpers/auth';
import { runtimeArtistProfile } from '../helpers/publishing';
import { call, INTAKE, stageAndVerify, submissionBody } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let a: TestCredential & { organizationId?: string };
let b: TestCredential & { organizationId?: string };
beforeAll(async () => {
  stack = await startTestStack();
  a = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  b = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
});
afterAll(async () => stack?.stop());

const list = (who: TestCredential, query = '') => call(stack, 'GET', `${INTAKE}/submissions${query}`, { headers: who.headers });
const create = async (who: TestCredential & { organizationId?: string }) =>
  (await call(stack, 'POST', `${INTAKE}/submissions`, { headers: who.headers, body: submissionBody(who, { sizeBytes: 2048 }) })).body.data.submission
    .submissionId as string;

describe('GET /submissions', () => {
  it('pages through exactly your own submissions, newest first, with a cursor', async () => {
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) mine.push(await create(a));
    await create(b);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const r = await list(a, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...r.body.data.map((s: { submissionId: string }) => s.submissionId));
      cursor = r.body.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([...mine].reverse());
    const first = (await list(a, '?limit=1')).body.data[0];
    expect(first).toMatchObject({ submissionId: mine[4], intakeStatus: 'staged', reviewStatus: 'review_required' });
    expect(Date.parse(first.createdAt)).toBeGreaterThan(0);
    expect(first).not.toHaveProperty('decidedAt');
  });

  it('filters by status, tenant and creation time, and refuses a cursor it did not give out', async () => {
    const c = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const before = new Date().toISOString();
    await create(c);
    const { id } = await stageAndVerify(stack, c);
    const awaiting = await list(c, '?intakeStatus=awaiting_review');
    expect(awaiting.body.data.map((s: { submissionId: string }) => s.submissionId)).toEqual([id]);
    expect(awaiting.body.data[0].awaitingReviewSince).toBeTruthy();
    expect((await list(c, `?tenantId=${c.organizationId}`)).body.data).toHaveLength(2);
    expect((await list(c, '?tenantId=someone-else')).body.data).toHaveLength(0);
    expect((await list(c, `?createdAfter=${encodeURIComponent(before)}`)).body.data).toHaveLength(2);
    expect((await list(c, `?createdBefore=${encodeURIComponent(before)}`)).body.data).toHaveLength(0);
    for (const bad of ['?cursor=bm90LWEtY3Vyc29y', '?limit=0', '?limit=101', '?intakeStatus=lost', '?createdAfter=yesterday']) {
      const r = await list(c, bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.code).toBe('validation_failed');
    }
  });

  it('shows when it was decided and, once published, the public image', async () => {
    const operator = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review', 'portfolios:publish'] });
    await runtimeArtistProfile(stack, TEST_ARTIST); // publishing needs the artist's runtime profile
    const d = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const { id } = await stageAndVerify(stack, d);
    expect((await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Looks right.' } })).status).toBe(200);
    const decided = (await list(d)).body.data[0];
    expect(Date.parse(decided.decidedAt)).toBeGreaterThanOrEqual(Date.parse(decided.awaitingReviewSince));
    expect(decided).not.toHaveProperty('publicAssetUrl');

    await projectDraft({ sql: stack.sql, store: stack.api.deps.store, maxImagePixels: 50_000_000 }, { documentId: decided.mediaStoreDocumentId, operatorActorId: operator.actorId });
    const url = `${stack.api.deps.publicBaseUrl}/media/${assetIdOf(decided.mediaStoreDocumentId)}/large.webp`;
    expect((await list(d)).body.data[0].publicAssetUrl).toBe(url);
    const one = await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: d.headers });
    expect(one.body.data).toMatchObject({ intakeStatus: 'promoted_to_media_store', publicAssetUrl: url });
    expect(one.body.data.createdAt).toBe(decided.createdAt);
    expect((await fetch(url)).status).toBe(200);
  });
});
