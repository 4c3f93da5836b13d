// Publishing through the API and identity evidence review (issue 14, items 4 and 5), on the real
// stack: a partner's submission is staged, verified and approved by the worker, then an operator
// plans (dry run), publishes, settles a posture, takes down; and reviews identity evidence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertMapping } from '../../lib/identity/actors';
import { apiKeyActor, bearerActor, TEST_ARTIST, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, stageAndVerify } from '../helpers/intake';
import { PUBLISHING_OPERATOR, runtimeArtistProfile } from '../helpers/publishing';
import { runScript } from '../helpers/run-script';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let operator: TestCredential;
let reader: TestCredential;

beforeAll(async () => {
  stack = await startTestStack();
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { operator: true, permissions: [...PUBLISHING_OPERATOR] });
  reader = await apiKeyActor(stack, { permissions: ['portfolios:read', 'artists:read'] });
});
afterAll(async () => stack?.stop());

const SUBMITTED = {
  title: 'Koi back piece',
  description: 'Healed, two sessions.',
  tags: ['koi', 'back'],
  styleIds: ['japanese'],
  placement: 'back',
};

/** A partner's submission, verified and approved (promoted): its media-store document id. */
async function promotedDraft(artist: string, over: Record<string, unknown> = {}): Promise<string> {
  const { id, done } = await stageAndVerify(stack, partner, jpegBytes(4096), { artistCanonicalId: artist, ...SUBMITTED, ...over });
  expect(done.body.data.intakeStatus).toBe('awaiting_review');
  const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Looks right.' } });
  expect(approved.body.data.intakeStatus, JSON.stringify(approved.body)).toBe('promoted_to_media_store');
  return approved.body.data.mediaStoreDocumentId as string;
}

const publish = (doc: string, body: Record<string, unknown> = {}, who: TestCredential = operator) =>
  call(stack, 'POST', `${INTAKE}/media-documents/${doc}/publish`, { headers: who.headers, body });
const unpublish = (assetId: string, body: Record<string, unknown>, who: TestCredential = operator) =>
  call(stack, 'POST', `${INTAKE}/portfolio-assets/${assetId}/unpublish`, { headers: who.headers, body });
const settle = (doc: string, body: Record<string, unknown>, who: TestCredential = operator) =>
  call(stack, 'POST', `${INTAKE}/media-documents/${doc}/postures`, { headers: who.headers, body });
const listed = async (artistId: string) =>
  (await call(stack, 'GET', `/api/v1/portfolios?artist_id=${artistId}&limit=100`, { headers: reader.headers })).body.data as any[];
const count = async (q: Promise<{ n: number }[]>) => (await q)[0]!.n;

describe('publishing through the API', () => {
  it('a call without "dryRun": false answers the plan and changes nothing', async () => {
    const artist = uid('artist-pub-');
    await runtimeArtistProfile(stack, artist);
    const doc = await promotedDraft(artist);
    const auditBefore = await count(stack.sql`select count(*)::int as n from access_audit`);

    const r = await publish(doc);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toMatchObject({
      dryRun: true, documentId: doc, assetId: `pfa_${doc}`, artistCanonicalId: artist, state: 'unpublished', verdict: 'publishable', reasons: [],
      postureCheck: { rightsPosture: 'artist_attested', consentPosture: 'client_consented', verdict: 'pass', reasons: [] },
      asset: { artist_id: artist, title: SUBMITTED.title, description: SUBMITTED.description, tags: SUBMITTED.tags, styles: SUBMITTED.styleIds, placement: 'back',
        image_url: `${stack.api.deps.publicBaseUrl}/media/pfa_${doc}/large.webp` },
    });
    expect(r.body.data.renditions.map((x: any) => x.name)).toEqual(['large', 'small']);
    for (const x of r.body.data.renditions) {
      expect(x.sizeBytes).toBeGreaterThan(0);
      expect(x.width).toBeGreaterThan(0);
      expect(x.contentType).toBe('image/webp');
    }
    // { "dryRun": true } says the same
    expect((await publish(doc, { dryRun: true })).body.data.verdict).toBe('publishable');

    expect(await count(stack.sql`select count(*)::int as n from portfolio_assets where source_document_id = ${doc}`)).toBe(0);
    expect(await count(stack.sql`select count(*)::int as n from public_renditions where media_id = ${`pfa_${doc}`}`)).toBe(0);
    expect(await count(stack.sql`select count(*)::int as n from access_audit`)).toBe(auditBefore);
    expect(await listed(artist)).toHaveLength(0);
    expect((await fetch(`${stack.api.deps.publicBaseUrl}/media/pfa_${doc}/large.webp`)).status).toBe(404);
  });

  it('publishes with "dryRun": false: listed with the partner\'s fields, a working image_url and an artist_id /artists answers; unpublish takes it down', async () => {
    const artist = uid('artist-pub-');
    await runtimeArtistProfile(stack, artist, 'Ottoline Marsh');
    const doc = await promotedDraft(artist);
    const r = await publish(doc, { dryRun: false });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ success: true, data: { dryRun: false, status: 'projected', assetId: `pfa_${doc}` } });
    expect((await publish(doc, { dryRun: false })).body.data.status).toBe('already_projected');
    expect((await publish(doc)).body.data).toMatchObject({ state: 'published', verdict: 'already_published' });

    const [asset] = (await listed(artist)).filter((a) => a.id === `pfa_${doc}`);
    expect(asset).toMatchObject({ artist_id: artist, title: SUBMITTED.title, tags: SUBMITTED.tags, is_public: true, publish_state: 'published_public' });
    const image = await fetch(asset.image_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect((await call(stack, 'GET', `/api/v1/artists/${asset.artist_id}`, { headers: reader.headers })).status).toBe(200);
    const [row] = await stack.sql<{ placement: string; styleIds: string[]; description: string }[]>`select placement, style_ids, description from portfolio_assets where id = ${`pfa_${doc}`}`;
    expect(row).toEqual({ placement: 'back', styleIds: ['japanese'], description: SUBMITTED.description });
    const [audit] = await stack.sql<{ detail: any }[]>`select detail from access_audit where action = 'draft_projected' and subject = ${doc}`;
    expect(audit!.detail).toMatchObject({ operatorActorId: operator.actorId, credentialId: expect.stringContaining('#'), artistId: artist });

    // takedown: dry run first, then for real
    const plan = await unpublish(`pfa_${doc}`, { reason: 'Client withdrew consent.' });
    expect(plan.status).toBe(200);
    expect(plan.body.data).toMatchObject({ dryRun: true, status: 'would_unpublish', artistId: artist });
    expect(plan.body.data.renditions).toHaveLength(2);
    expect((await listed(artist)).map((a) => a.id)).toContain(`pfa_${doc}`);
    const down = await unpublish(`pfa_${doc}`, { reason: 'Client withdrew consent.', dryRun: false });
    expect(down.body.data).toMatchObject({ dryRun: false, status: 'unpublished' });
    expect((await listed(artist)).map((a) => a.id)).not.toContain(`pfa_${doc}`);
    expect((await fetch(asset.image_url)).status).toBe(410);
    expect((await unpublish(`pfa_${doc}`, { reason: 'Again.', dryRun: false })).body.data.status).toBe('already_unpublished');
    const again = await publish(doc, { dryRun: false });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('asset_taken_down');
    expect((await unpublish('pfa_missing', { reason: 'Nothing here.' })).status).toBe(404);
    expect((await publish('mdoc_missing')).status).toBe(404);
  });

  it('refuses a partner key, a reader key, no credential, a non-operator bearer and an operator without portfolios:publish', async () => {
    const doc = await promotedDraft(TEST_ARTIST);
    const reviewerOnly = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review'] });
    const member = await bearerActor(stack, { permissions: ['portfolios:read'] });
    const noCredential = { actorId: 'none', headers: {} } as TestCredential;
    const sends = [
      (w: TestCredential) => publish(doc, { dryRun: false }, w),
      (w: TestCredential) => unpublish(`pfa_${doc}`, { reason: 'Taken down.', dryRun: false }, w),
      (w: TestCredential) => settle(doc, { rightsPosture: 'owner_attested', note: 'Settled.' }, w),
    ];
    for (const send of sends) {
      const none = await send(noCredential);
      expect(none.status).toBe(401);
      expect(none.headers.get('content-type')).toContain('application/problem+json');
      expect((await send(partner)).body.code).toBe('operator_required');
      expect((await send(reader)).body.code).toBe('operator_required');
      expect((await send(member)).body.code).toBe('operator_required');
      const r = await send(reviewerOnly);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('permission_denied');
    }
    expect(await count(stack.sql`select count(*)::int as n from portfolio_assets where source_document_id = ${doc}`)).toBe(0);
    // and the permission cannot be mapped to a partner key, nor to a bearer that is not a human operator
    await expect(apiKeyActor(stack, { permissions: ['portfolios:publish'] })).rejects.toThrow(/not available on v1 partner keys/);
    await expect(
      upsertMapping(stack.sql, { actorId: uid('member-'), credentialKind: 'bearer', credentialSubject: uid('s-'), role: 'member', permissions: ['portfolios:publish'], organizationId: 'o' }),
    ).rejects.toThrow(/requires a human operator/);
  });

  it('refuses, with a clear code, an artist without a runtime profile; naming a listed profile publishes under it', async () => {
    const canonical = uid('artist-canonical-');
    const doc = await promotedDraft(canonical);
    const plan = await publish(doc);
    expect(plan.body.data).toMatchObject({ verdict: 'refused', asset: { artist_id: null }, reasons: [{ code: 'artist_profile_missing' }] });
    const r = await publish(doc, { dryRun: false });
    expect(r.status).toBe(409);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body.code).toBe('artist_profile_missing');
    expect(r.body.detail).toContain(canonical);
    expect(await count(stack.sql`select count(*)::int as n from access_audit where action = 'draft_projection_refused' and subject = ${doc}`)).toBe(1);
    expect((await publish(doc, { dryRun: false, artistId: 'no-such-profile' })).body.code).toBe('artist_profile_missing');

    const profile = uid('art_');
    await runtimeArtistProfile(stack, profile, 'Wren Alder');
    const named = await publish(doc, { artistId: profile });
    expect(named.body.data).toMatchObject({ verdict: 'publishable', linksArtistProfile: true, asset: { artist_id: profile } });
    expect((await publish(doc, { dryRun: false, artistId: profile })).body.data.status).toBe('projected');
    expect((await listed(profile)).map((a) => a.id)).toEqual([`pfa_${doc}`]);
    expect((await call(stack, 'GET', `/api/v1/artists/${profile}`, { headers: reader.headers })).status).toBe(200);
    // the link stands: the artist's next draft publishes under the same profile without naming it, and another one is refused
    const next = await promotedDraft(canonical);
    expect((await publish(next)).body.data.asset.artist_id).toBe(profile);
    const other = uid('art_');
    await runtimeArtistProfile(stack, other);
    expect((await publish(next, { dryRun: false, artistId: other })).body.code).toBe('artist_profile_conflict');
  });

  it('settles a review_required posture with a note (recorded with the operator, audited); then publishing passes', async () => {
    const artist = uid('artist-pub-');
    await runtimeArtistProfile(stack, artist);
    const doc = await promotedDraft(artist, { rightsPosture: 'review_required', consentPosture: 'review_required' });
    const plan = await publish(doc);
    expect(plan.body.data.verdict).toBe('refused');
    expect(plan.body.data.postureCheck).toMatchObject({ verdict: 'refused', rightsPosture: 'review_required', consentPosture: 'review_required' });
    expect(plan.body.data.postureCheck.reasons.map((x: any) => x.code)).toEqual(['rights_posture_not_publishable', 'consent_posture_not_publishable']);
    const refused = await publish(doc, { dryRun: false });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('posture_not_publishable');

    expect((await settle(doc, { rightsPosture: 'artist_attested', note: 'ok' })).status).toBe(400);
    expect((await settle(doc, { note: 'Nothing named.' })).status).toBe(409);
    const first = await settle(doc, { rightsPosture: 'artist_attested', note: 'Artist confirmed authorship by phone.' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ rightsPosture: 'artist_attested', consentPosture: 'review_required', settled: { rights: { from: 'review_required', to: 'artist_attested' } }, settledBy: operator.actorId });
    expect((await publish(doc)).body.data.reasons.map((x: any) => x.code)).toEqual(['consent_posture_not_publishable']);
    const again = await settle(doc, { rightsPosture: 'owner_attested', note: 'Changed my mind.' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_transition');
    expect((await settle(doc, { consentPosture: 'client_consented', note: 'Signed consent form on file.' })).status).toBe(200);

    const rows = await stack.sql`select rights_before, rights_after, consent_before, consent_after, operator_actor_id, note from posture_settlements where document_id = ${doc} order by id`;
    expect(rows).toEqual([
      { rightsBefore: 'review_required', rightsAfter: 'artist_attested', consentBefore: 'review_required', consentAfter: 'review_required', operatorActorId: operator.actorId, note: 'Artist confirmed authorship by phone.' },
      { rightsBefore: 'artist_attested', rightsAfter: 'artist_attested', consentBefore: 'review_required', consentAfter: 'client_consented', operatorActorId: operator.actorId, note: 'Signed consent form on file.' },
    ]);
    expect(await count(stack.sql`select count(*)::int as n from access_audit where action = 'posture_settled' and subject = ${doc}`)).toBe(2);

    expect((await publish(doc)).body.data).toMatchObject({ verdict: 'publishable', postureCheck: { verdict: 'pass' } });
    expect((await publish(doc, { dryRun: false })).body.data.status).toBe('projected');
    const [asset] = await listed(artist);
    expect(asset).toMatchObject({ id: `pfa_${doc}`, provenance: { licenseStatus: 'artist_attested', consentLevel: 'client_consented' } });
  });
});

describe('npm run project: the same routes, with a verified bearer', () => {
  it('plans by default, publishes with --apply, takes down with --unpublish --apply; refuses an asserted --operator and an operator without portfolios:publish', async () => {
    const artist = uid('artist-cli-');
    await runtimeArtistProfile(stack, artist);
    const doc = await promotedDraft(artist);
    const cli = (args: string[], token = operator.token!) => runScript('scripts/project-draft.ts', [...args, '--api', stack.url], { OPERATOR_TOKEN: token });

    const plan = await cli(['--document', doc]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Dry run (nothing changed)');
    expect(plan.stdout).toContain('verdict publishable');
    expect(plan.stdout).toMatch(/rendition {2}large \d+x\d+/);
    expect(await listed(artist)).toHaveLength(0);

    const done = await cli(['--document', doc, '--apply']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`Published ${doc} as public portfolio asset pfa_${doc}`);
    expect((await listed(artist)).map((a) => a.id)).toEqual([`pfa_${doc}`]);

    const down = await cli(['--unpublish', `pfa_${doc}`, '--reason', 'Client withdrew consent.', '--apply']);
    expect(down.code, down.stderr).toBe(0);
    expect(down.stdout).toContain(`Took pfa_${doc} down`);
    expect(await listed(artist)).toHaveLength(0);

    const asserted = await runScript('scripts/project-draft.ts', ['--document', doc, '--operator', operator.actorId]);
    expect(asserted.code).toBe(64);
    expect(asserted.stderr.split('\n')[0]).toMatch(/--operator is no longer taken/);
    const other = await promotedDraft(artist);
    const reviewerOnly = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review'] });
    const refused = await cli(['--document', other, '--apply'], reviewerOnly.token!);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Refused (403 permission_denied)');
  });
});

describe('identity evidence review', () => {
  const resolve = (over: Record<string, unknown>) =>
    call(stack, 'POST', `${INTAKE}/artist-resolution-requests`, {
      headers: partner.headers,
      body: { idempotencyKey: uid('res-'), tenantId: partner.organizationId, source: 'partner_api', ...over },
    });
  const list = (query: string, who: TestCredential = operator) => call(stack, 'GET', `${INTAKE}/artist-resolutions${query}`, { headers: who.headers });
  const verify = (id: string, body: Record<string, unknown>, who: TestCredential = operator) =>
    call(stack, 'POST', `${INTAKE}/artist-resolutions/${id}/verify`, { headers: who.headers, body });

  it('an operator verifies a review_required resolution; the next resolution with the same evidence answers verified_by_operator', async () => {
    const handle = uid('ink_').slice(0, 20);
    await stack.sql`insert into artist_identity_evidence (tenant_id, kind, value, artist_canonical_id) values (${partner.organizationId!}, 'instagram_handle', ${handle}, 'artist-ig-review')`;
    const first = await resolve({ instagramHandle: `@${handle.toUpperCase()}` });
    expect(first.body.data).toEqual({ status: 'review_required', artistCanonicalId: 'artist-ig-review', reviewRequired: true, legalKycVerified: false });

    const page = await list('?status=review_required&limit=100');
    expect(page.status).toBe(200);
    const item = page.body.data.find((x: any) => x.evidence.instagram_handle === handle);
    expect(item).toMatchObject({ status: 'review_required', tenantId: partner.organizationId, actorId: partner.actorId, matchedEvidence: 'instagram_handle', review: null, legalKycVerified: false });
    expect(item.resolutionId).toMatch(/^ares_[0-9a-f]{32}$/);

    expect((await list('', partner)).status).toBe(403);
    expect((await list('', reader)).status).toBe(403);
    expect((await verify(item.resolutionId, { artistCanonicalId: 'artist-ig-review', note: 'Confirmed in a video call.' }, partner)).status).toBe(403);
    expect((await verify(item.resolutionId, { artistCanonicalId: 'artist-ig-review', note: 'x' })).status).toBe(400);
    expect((await verify(item.resolutionId, { artistCanonicalId: 'artist-ig-review', evidence: ['phone_hash'], note: 'Confirmed.' })).body.code).toBe('evidence_missing');

    const ok = await verify(item.resolutionId, { artistCanonicalId: 'artist-ig-review', note: 'Confirmed in a video call.' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ status: 'verified_by_operator', changed: true, evidence: ['instagram_handle'], verifiedBy: operator.actorId, legalKycVerified: false });
    expect((await verify(item.resolutionId, { artistCanonicalId: 'artist-ig-review', note: 'Confirmed in a video call.' })).body.data.changed).toBe(false);
    expect((await verify(item.resolutionId, { artistCanonicalId: 'someone-else', note: 'Other.' })).body.code).toBe('invalid_transition');
    // it left the open list, and shows under reviewed
    expect((await list('?status=review_required&limit=100')).body.data.map((x: any) => x.resolutionId)).not.toContain(item.resolutionId);
    const reviewed = (await list('?status=review_required&state=reviewed&limit=100')).body.data.find((x: any) => x.resolutionId === item.resolutionId);
    expect(reviewed.review).toMatchObject({ by: operator.actorId, artistCanonicalId: 'artist-ig-review', note: 'Confirmed in a video call.' });
    const [audit] = await stack.sql<{ detail: any }[]>`select detail from access_audit where action = 'identity_evidence_verified' and subject = ${item.resolutionId}`;
    expect(audit!.detail).toMatchObject({ operatorActorId: operator.actorId, artistCanonicalId: 'artist-ig-review', legalKycVerified: false });

    const next = await resolve({ instagramHandle: handle });
    expect(next.body.data).toEqual({ status: 'verified_by_operator', artistCanonicalId: 'artist-ig-review', reviewRequired: false, legalKycVerified: false });
  });

  it('an unmatched resolution is listed with its evidence; once linked, the same evidence resolves to the artist', async () => {
    const url = `https://market.example/artists/${uid('a')}/`;
    const first = await resolve({ marketplaceProfileUrl: url, displayName: 'Nobody Yet' });
    expect(first.body.data.status).toBe('unmatched');
    const item = (await list('?status=unmatched&limit=100')).body.data.find((x: any) => x.evidence.marketplace_profile_url === url.replace(/^https:\/\//, '').replace(/\/$/, ''));
    expect(item).toMatchObject({ status: 'unmatched', artistCanonicalId: null, matchedEvidence: null });
    // a request with a display name only carried no evidence to link
    await resolve({ displayName: 'Only a name' });
    const bare = (await list('?status=unmatched&limit=100')).body.data.find((x: any) => Object.keys(x.evidence).length === 0);
    expect((await verify(bare.resolutionId, { artistCanonicalId: 'artist-x', note: 'Nothing to link.' })).body.code).toBe('evidence_missing');

    expect((await verify(item.resolutionId, { artistCanonicalId: 'artist-market-1', note: 'Profile links to the studio site.' })).status).toBe(200);
    const next = await resolve({ marketplaceProfileUrl: url });
    expect(next.body.data).toEqual({ status: 'verified_by_operator', artistCanonicalId: 'artist-market-1', reviewRequired: false, legalKycVerified: false });
  });
});
