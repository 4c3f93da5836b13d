// Public renditions, delivery and takedown (issue 13, parts 4 and 5), on a whole intake: a phone
// photo with GPS goes through verification, approval and promotion, then the governed projection;
// what the public fetches is re-encoded, capped and free of every metadata block, and a takedown
// makes it disappear at once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetIdOf, projectDraft, ProjectionRefusedError, unpublishAsset } from '../../lib/directory/projection';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { embeddedMetadata, endMetadataReader } from '../helpers/metadata';
import { runtimeArtistProfile } from '../helpers/publishing';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let operator: TestCredential;
let reader: TestCredential;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const deps = () => ({ sql: stack.sql, store: stack.api.deps.store, maxImagePixels: 50_000_000 });
const refusal = (p: Promise<unknown>) => p.then(() => 'accepted', (e) => (e instanceof ProjectionRefusedError ? e.reason : `error: ${e}`));

beforeAll(async () => {
  stack = await startTestStack();
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review', 'portfolios:publish'] });
  reader = await apiKeyActor(stack, { permissions: ['portfolios:read', 'designs:read'] });
});
afterAll(async () => {
  await endMetadataReader();
  await stack?.stop();
});

/** A sideways phone photo, larger than the large rendition, with GPS, maker and ICC blocks. */
async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 2600, height: 1800, channels: 3, background: '#357', noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
    .withExif({ IFD0: { Make: 'PhoneCo', Model: 'P1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' } })
    .withMetadata({ orientation: 6, icc: 'p3' })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** create, upload, verify, approve: the promoted submission's media-store document. */
async function promoted(photo: Buffer, artist: string, mimeType = 'image/jpeg'): Promise<{ submissionId: string; documentId: string }> {
  await runtimeArtistProfile(stack, artist); // publishing needs the artist's runtime profile
  const { id, done } = await stageAndVerify(stack, partner, photo, { artistCanonicalId: artist, title: 'Koi back piece', mimeType });
  expect(done.body.data.intakeStatus).toBe('awaiting_review');
  const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Rights attested.' } });
  expect(approved.body.data.intakeStatus).toBe('promoted_to_media_store');
  const [doc] = await stack.sql<{ documentId: string }[]>`select document_id from media_documents where submission_id = ${id}`;
  return { submissionId: id, documentId: doc!.documentId };
}

const listed = async (route: 'portfolios' | 'designs', artist: string) =>
  (await call(stack, 'GET', `/api/v1/${route}?artist_id=${artist}&limit=100`, { headers: reader.headers })).body.data as any[];

describe('public renditions of a projected draft', () => {
  it('serves capped, upright, metadata-free WebP renditions at the asset URLs; the draft stays the original', async () => {
    const photo = await phonePhoto();
    // The reader sees what the phone recorded, so its empty answers below mean something.
    const source = await embeddedMetadata(photo);
    expect(source).toEqual(expect.arrayContaining(['EXIF:Make', 'EXIF:GPSLatitude']));
    expect(source.some((k) => k.startsWith('ICC_Profile:'))).toBe(true);

    const artist = uid('artist-rend-');
    const { submissionId, documentId } = await promoted(photo, artist);
    const [row] = await stack.sql`select verified_sha256 from submissions where submission_id = ${submissionId}`;
    const [doc] = await stack.sql`select sha256 from media_documents where document_id = ${documentId}`;
    expect(doc!.sha256).toBe(sha256(photo));
    expect(doc!.sha256).toBe(row!.verifiedSha256);

    // Review previews of the same photo carry no metadata either.
    for (const size of ['thumb', 'large']) {
      const res = await fetch(`${stack.url}${INTAKE}/submissions/${submissionId}/preview?size=${size}`, { headers: operator.headers });
      expect(res.status).toBe(200);
      expect(await embeddedMetadata(Buffer.from(await res.arrayBuffer())), size).toEqual([]);
    }

    expect(await projectDraft(deps(), { documentId, operatorActorId: operator.actorId })).toMatchObject({ status: 'projected' });
    const assetId = assetIdOf(documentId);
    const [asset] = (await listed('portfolios', artist)).filter((a) => a.id === assetId);
    const base = stack.api.deps.publicBaseUrl;
    expect(asset.image_url).toBe(`${base}/media/${assetId}/large.webp`);
    expect(asset.renditions.map((r: any) => [r.name, r.url, r.content_type])).toEqual([
      ['large', `${base}/media/${assetId}/large.webp`, 'image/webp'],
      ['small', `${base}/media/${assetId}/small.webp`, 'image/webp'],
    ]);

    for (const [r, edge] of [[asset.renditions[0], 2048], [asset.renditions[1], 640]] as const) {
      const res = await fetch(r.url); // no credential: these are public URLs
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      // Cached for 5 minutes, then revalidated by ETag: never immutable, so a takedown reaches caches.
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('etag')).toBe(`"${sha256(bytes)}"`);
      const meta = await sharp(bytes).metadata();
      // Upright (2600 x 1800 with orientation 6 is 1800 x 2600 to the eye), long edge capped.
      expect([meta.width, meta.height]).toEqual([r.width, r.height]);
      expect(meta.height).toBe(edge);
      expect(meta.width).toBeLessThan(meta.height!);
      expect(await embeddedMetadata(bytes), r.name).toEqual([]);
      expect(bytes.includes(photo.subarray(0, 64))).toBe(false);

      // (fetch would add Cache-Control: no-cache to a hand-made conditional request; a browser revalidating does not.)
      const again = await fetch(r.url, { headers: { 'if-none-match': res.headers.get('etag')!, 'cache-control': 'max-age=0' } });
      expect(again.status).toBe(304);
      expect([again.headers.get('etag'), again.headers.get('cache-control')]).toEqual([res.headers.get('etag'), 'public, max-age=300']);
      expect((await fetch(r.url, { headers: { 'if-none-match': '"0000"', 'cache-control': 'max-age=0' } })).status).toBe(200);
      const head = await fetch(r.url, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length')]).toEqual([200, String(bytes.length)]);
    }

    // The original is at no public URL; unknown assets and renditions are 404, malformed ones 400.
    expect((await fetch(`${base}/media/${assetId}/original.webp`)).status).toBe(400);
    expect((await fetch(`${base}/media/pfa_nothing_here/large.webp`)).status).toBe(404);
    expect((await fetch(`${base}/media/${assetId}/large.jpg`)).status).toBe(400);
    expect((await fetch(`${base}/media/${assetId}/large.webp`, { method: 'DELETE' })).status).toBe(405);
  });
});

describe('public renditions of a HEIC draft', () => {
  it('are made from its decoded pixels, never enlarged', async () => {
    const heic = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/images/gradient.heic'));
    const artist = uid('artist-heic-');
    const { documentId } = await promoted(heic, artist, 'image/heic');
    await projectDraft(deps(), { documentId, operatorActorId: operator.actorId });
    const [asset] = await listed('portfolios', artist);
    expect(asset.renditions.map((r: any) => [r.name, r.width, r.height])).toEqual([['large', 240, 160], ['small', 240, 160]]);
    const res = await fetch(asset.image_url);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe('webp');
  });
});

describe('takedown', () => {
  it('removes the asset from every public read, answers 410 at its URLs, deletes the renditions and audits who and why', async () => {
    const artist = uid('artist-down-');
    const { documentId } = await promoted(await phonePhoto(), artist);
    await projectDraft(deps(), { documentId, operatorActorId: operator.actorId });
    const assetId = assetIdOf(documentId);
    const [asset] = (await listed('portfolios', artist)).filter((a) => a.id === assetId);
    const [large] = await stack.sql<{ objectKey: string }[]>`select object_key from public_renditions where media_id = ${assetId} and name = 'large'`;
    const objectKey = large!.objectKey;
    expect(await stack.api.deps.store.readRendition(objectKey)).not.toBeNull();
    const cached = await fetch(asset.image_url);
    expect([cached.status, cached.headers.get('cache-control')]).toEqual([200, 'public, max-age=300']);
    const etag = cached.headers.get('etag')!;

    // Refused without a human operator or without a reason; nothing changes.
    expect(await refusal(unpublishAsset(deps(), { assetId, operatorActorId: partner.actorId, reason: 'Client withdrew consent.' }))).toBe('operator_required');
    expect(await refusal(unpublishAsset(deps(), { assetId, operatorActorId: operator.actorId, reason: ' x ' }))).toBe('reason_required');
    expect(await refusal(unpublishAsset(deps(), { assetId: 'pfa_missing', operatorActorId: operator.actorId, reason: 'Client withdrew consent.' }))).toBe('asset_not_found');
    expect((await fetch(asset.image_url)).status).toBe(200);

    const down = await unpublishAsset(deps(), { assetId, operatorActorId: operator.actorId, reason: 'Client withdrew consent.' });
    expect(down).toEqual({ status: 'unpublished', assetId, deletedRenditions: 2 });
    for (const r of asset.renditions) {
      const res = await fetch(r.url);
      expect(res.status).toBe(410);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { code: string }).code).toBe('media_taken_down');
    }
    // A cache revalidating its copy (max-age=300 spent) with the old ETag hears 410, not 304.
    const revalidated = await fetch(asset.image_url, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
    expect(revalidated.status).toBe(410);
    expect(revalidated.headers.get('etag')).toBeNull();
    expect((await listed('portfolios', artist)).map((a) => a.id)).not.toContain(assetId);
    expect((await listed('designs', artist)).map((a) => a.id)).not.toContain(assetId);
    expect(await stack.api.deps.store.readRendition(objectKey)).toBeNull();

    const audits = await stack.sql`select detail from access_audit where action = 'asset_unpublished' and subject = ${assetId}`;
    expect(audits.map((a) => a.detail)).toEqual([expect.objectContaining({ operatorActorId: operator.actorId, reason: 'Client withdrew consent.' })]);
    const refused = await stack.sql`select detail->>'reason' as reason from access_audit where action = 'asset_unpublish_refused' and subject = ${assetId}`;
    expect(refused.map((r) => r.reason).sort()).toEqual(['operator_required', 'reason_required']);

    // Idempotent, and the draft is not published again behind the takedown's back.
    expect((await unpublishAsset(deps(), { assetId, operatorActorId: operator.actorId, reason: 'Again.' })).status).toBe('already_unpublished');
    expect(await refusal(projectDraft(deps(), { documentId, operatorActorId: operator.actorId }))).toBe('asset_taken_down');
    expect((await fetch(asset.image_url)).status).toBe(410);
  });
});
