import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetIdOf, projectDraft, ProjectionRefusedError } from '../../lib/directory/projection';
import { call } from '../helpers/directory-seed';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { insertDraft, runtimeArtistProfile } from '../helpers/publishing';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let reader: TestCredential;
let owner: TestCredential;
let operator: TestCredential;
const ARTIST = 'artist-canonical-proj-1';

const deps = () => ({ sql: stack.sql, store: stack.api.deps.store, maxImagePixels: 50_000_000 });

/** A private draft as intake approval leaves it (test/helpers/publishing.ts). */
const draft = (o: { rights?: string; consent?: string; tags?: string[] } = {}) =>
  insertDraft(stack, { artistId: ARTIST, tenantId: 'tenant-proj', title: 'Koi sleeve', tags: o.tags ?? ['koi'], styles: ['japanese'], rights: o.rights, consent: o.consent });

const portfolioIds = async (artistId = ARTIST) =>
  (await call(stack, `/portfolios?artist_id=${artistId}&limit=100`, { headers: reader.headers })).body.data.map((a: any) => a.id);
const refusal = (p: Promise<unknown>) => p.then(() => 'accepted', (e) => (e instanceof ProjectionRefusedError ? e.reason : `error: ${e}`));

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  reader = await apiKeyActor(stack, { permissions: ['portfolios:read', 'search:read', 'designs:read'] });
  owner = await bearerActor(stack, { permissions: ['owner_portfolio_assets:read'], artistScope: [ARTIST] });
  operator = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review', 'portfolios:publish'] });
  await runtimeArtistProfile(stack, ARTIST); // publishing needs the artist's runtime profile
});
afterAll(async () => stack?.stop());

describe('governed projection of a media-store draft', () => {
  it('keeps an unprojected draft out of every public and beta read, visible to its owner under /me only', async () => {
    const doc = await draft({ tags: ['unprojected'] });
    expect(await portfolioIds()).not.toContain(assetIdOf(doc));
    const search = await call(stack, '/search?q=koi%20sleeve&limit=50', { headers: reader.headers });
    expect(search.body.data.results.map((r: any) => r.id)).not.toContain(doc);
    const mine = await call(stack, '/me/portfolio-assets?limit=100', { headers: owner.headers });
    const row = mine.body.data.find((a: any) => a.id === doc);
    expect(row).toMatchObject({ source: 'media_store_draft', publish_state: 'draft', is_public: false, visibility: 'private', image_url: null });
    expect((await call(stack, `/me/portfolio-assets/${doc}`, { headers: owner.headers })).status).toBe(200);
    const stranger = await bearerActor(stack, { permissions: ['owner_portfolio_assets:read'], artistScope: ['someone-else'] });
    expect((await call(stack, `/me/portfolio-assets/${doc}`, { headers: stranger.headers })).status).toBe(404);
  });

  it('is refused without an operator: unknown actor, a non-operator mapping, an operator without portfolios:publish, an inactive one', async () => {
    const doc = await draft();
    const partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const reviewerless = await bearerActor(stack, { operator: true, permissions: ['search:read'] });
    const inactive = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review'], active: false });
    expect(await refusal(projectDraft(deps(), { documentId: doc, operatorActorId: 'nobody-here' }))).toBe('operator_not_found');
    expect(await refusal(projectDraft(deps(), { documentId: doc, operatorActorId: partner.actorId }))).toBe('operator_required');
    expect(await refusal(projectDraft(deps(), { documentId: doc, operatorActorId: reviewerless.actorId }))).toBe('permission_missing');
    expect(await refusal(projectDraft(deps(), { documentId: doc, operatorActorId: inactive.actorId }))).toBe('operator_not_found');
    expect(await portfolioIds()).not.toContain(assetIdOf(doc));
    const { n } = (await stack.sql<{ n: number }[]>`select count(*)::int as n from access_audit where action = 'draft_projection_refused' and subject = ${doc}`)[0]!;
    expect(n).toBe(4);
  });

  it('is refused for a review_required rights or consent posture, and for an unknown document', async () => {
    const rights = await draft({ rights: 'review_required' });
    const consent = await draft({ consent: 'review_required' });
    expect(await refusal(projectDraft(deps(), { documentId: rights, operatorActorId: operator.actorId }))).toBe('rights_posture_not_publishable');
    expect(await refusal(projectDraft(deps(), { documentId: consent, operatorActorId: operator.actorId }))).toBe('consent_posture_not_publishable');
    expect(await refusal(projectDraft(deps(), { documentId: 'mdoc_missing', operatorActorId: operator.actorId }))).toBe('document_not_found');
    const listed = await portfolioIds();
    expect(listed).not.toContain(assetIdOf(rights));
    expect(listed).not.toContain(assetIdOf(consent));
  });

  it('publishes an allowed draft once: it appears in GET /portfolios, is audited, and a second run changes nothing', async () => {
    const doc = await draft({ rights: 'owner_attested', consent: 'not_required' });
    const first = await projectDraft(deps(), { documentId: doc, operatorActorId: operator.actorId });
    expect(first).toEqual({ status: 'projected', assetId: assetIdOf(doc), documentId: doc });
    const again = await projectDraft(deps(), { documentId: doc, operatorActorId: operator.actorId });
    expect(again.status).toBe('already_projected');

    const { body } = await call(stack, `/portfolios?artist_id=${ARTIST}&limit=100`, { headers: reader.headers });
    const asset = body.data.find((a: any) => a.id === assetIdOf(doc));
    expect(asset).toMatchObject({ artist_id: ARTIST, title: 'Koi sleeve', is_public: true, publish_state: 'published_public', tags: ['koi'] });
    expect(asset.image_url).toBe(`${stack.api.deps.publicBaseUrl}/media/${assetIdOf(doc)}/large.webp`);
    expect(asset.provenance).toMatchObject({ recordState: 'curated', sourceType: 'portfolio_intake', licenseStatus: 'owner_attested' });
    expect(asset.trust).toMatchObject({ approvalStatus: 'approved', visibility: 'public' });

    const audits = await stack.sql`select detail from access_audit where action = 'draft_projected' and subject = ${doc}`;
    expect(audits).toHaveLength(1);
    expect(audits[0]!.detail).toMatchObject({ operatorActorId: operator.actorId, assetId: assetIdOf(doc) });

    // the owner now sees the runtime row, not the draft, under /me
    const mine = await call(stack, '/me/portfolio-assets?limit=100', { headers: owner.headers });
    const ids = mine.body.data.map((a: any) => a.id);
    expect(ids).toContain(assetIdOf(doc));
    expect(ids).not.toContain(doc);
  });
});
