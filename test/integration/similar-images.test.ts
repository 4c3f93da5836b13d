// Similar images at review (issue 26) on the real stack: originals published under one artist,
// each re-uploaded through nine transforms by another partner for another artist; the operator's
// GET …/similar must name the published original for every transform but the 3° rotation, whose
// result is reported. 200 unrelated images find nothing within the guaranteed distance. Also: PNG,
// WebP and HEIC get the same fingerprints; partners get 403; a decision records its matches.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeHeic } from '../../lib/media/heic';
import { fingerprintsOf } from '../../lib/media/fingerprints/compute';
import { MATCH_PAIRS, nearHashes, storeFingerprints, GUARANTEED_DISTANCE } from '../../lib/media/fingerprints/index';
import { decodeForPreviews } from '../../lib/media/previews';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { PUBLISHING_OPERATOR, runtimeArtistProfile } from '../helpers/publishing';
import { ORIGINALS, original, TRANSFORMS, transform, unrelated, type Transform } from '../helpers/similar-images';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

let stack: TestStack;
let owner: TestCredential;
let copier: TestCredential;
let operator: TestCredential;
const ownerArtist = uid('artist-owner-');
const copierArtist = uid('artist-copier-');

beforeAll(async () => {
  // The second-review policy's similar-image half on (the test stacks turn it off: their images look alike).
  stack = await startTestStack({ env: { SECOND_REVIEW_SIMILAR_MATCHES: 'true' } });
  owner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  copier = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { operator: true, permissions: [...PUBLISHING_OPERATOR] });
  await runtimeArtistProfile(stack, ownerArtist);
}, 120_000);
afterAll(async () => stack?.stop());

const similar = async (id: string, who: TestCredential = operator) => call(stack, 'GET', `${INTAKE}/submissions/${id}/similar`, { headers: who.headers });

async function verified(partner: TestCredential, bytes: Buffer, artist: string, mimeType = 'image/jpeg', fileName = 'work.jpg') {
  const { id, done } = await stageAndVerify(stack, partner, bytes, { artistCanonicalId: artist, mimeType, fileName });
  expect(done.body.data.intakeStatus, JSON.stringify(done.body)).toBe('awaiting_review');
  return id;
}

/** Published originals: their bytes, submission and asset ids. */
const published: { kind: string; seed: number; bytes: Buffer; submissionId: string; assetId: string }[] = [];
/** Every transformed submission: which original, which transform, what /similar answered. */
const results: { original: number; t: Transform | 'png'; submissionId: string; matches: any[] }[] = [];

describe('similar images of re-uploads', () => {
  it('publishes the originals (fingerprints stored at verification and copied to the asset)', async () => {
    for (const o of ORIGINALS) {
      const bytes = await original(o.kind, o.seed);
      const id = await verified(owner, bytes, ownerArtist);
      const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Own work, checked.' } });
      expect(approved.body.data.intakeStatus, JSON.stringify(approved.body)).toBe('promoted_to_media_store');
      const doc = approved.body.data.mediaStoreDocumentId as string;
      const pub = await call(stack, 'POST', `${INTAKE}/media-documents/${doc}/publish`, { headers: operator.headers, body: { dryRun: false } });
      expect(pub.status, JSON.stringify(pub.body)).toBe(200);
      published.push({ ...o, bytes, submissionId: id, assetId: pub.body.data.assetId });
    }
    const rows = await stack.sql<{ subjectKind: string; n: number }[]>`
      select subject_kind, count(*)::int as n from image_fingerprints where submission_id = any(${published.map((p) => p.submissionId)}::text[]) group by 1 order by 1`;
    expect(rows).toEqual([{ subjectKind: 'asset', n: 30 }, { subjectKind: 'submission', n: 30 }]);
  }, 300_000);

  it('finds the published original for every transform but the rotation (recall, false matches and the rotation reported)', async () => {
    for (const [i, p] of published.entries()) {
      for (const t of TRANSFORMS) {
        const x = await transform(p.bytes, t);
        const id = await verified(copier, x.bytes, copierArtist, x.mimeType, x.mimeType === 'image/webp' ? 'work.webp' : 'work.jpg');
        const r = await similar(id);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        results.push({ original: i, t, submissionId: id, matches: r.body.data.matches });
      }
      // PNG too: the same pixels, another format
      const png = await sharp(p.bytes).png().toBuffer();
      const id = await verified(copier, png, copierArtist, 'image/png', 'work.png');
      results.push({ original: i, t: 'png', submissionId: id, matches: (await similar(id)).body.data.matches });
    }
    const groupOf = new Map<string, number>();
    for (const [i, p] of published.entries()) groupOf.set(p.submissionId, i);
    for (const r of results) groupOf.set(r.submissionId, r.original);
    const table: Record<string, { found: number; of: number; distances: (number | null)[] }> = {};
    let falseMatches = 0;
    let allMatches = 0;
    for (const r of results) {
      const hit = r.matches.find((m) => m.kind === 'published_asset' && m.id === published[r.original]!.assetId);
      const row = (table[r.t] ??= { found: 0, of: 0, distances: [] });
      row.of++;
      if (hit) row.found++;
      row.distances.push(hit ? hit.distance : null);
      allMatches += r.matches.length;
      falseMatches += r.matches.filter((m) => groupOf.get(m.submissionId) !== r.original).length;
    }
    const recalled = results.filter((r) => r.t !== 'rotate3');
    const hitOf = (r: (typeof results)[number]) => r.matches.find((m) => m.kind === 'published_asset' && m.id === published[r.original]!.assetId);
    const recall = recalled.filter((r) => hitOf(r)).length / recalled.length;
    console.log('similar images, per transform (original found / submitted, distances):');
    for (const [t, row] of Object.entries(table)) console.log(`  ${t.padEnd(10)} ${row.found}/${row.of}  ${row.distances.map((d) => d ?? '-').join(' ')}`);
    console.log(`recall (every transform but rotate3): ${(recall * 100).toFixed(1)}%; matches naming another original's lineage: ${falseMatches} of ${allMatches}`);

    for (const r of recalled) {
      const hit = hitOf(r);
      expect(hit, `${r.t} of original ${r.original}: ${JSON.stringify(r.matches)}`).toMatchObject({
        submissionId: published[r.original]!.submissionId, artistCanonicalId: ownerArtist, partnerOrganizationId: owner.organizationId,
        status: 'published', sameBytes: false, previewUrl: `${stack.api.deps.publicBaseUrl}/media/${published[r.original]!.assetId}/large.webp`,
      });
      expect(hit.distance).toBeLessThanOrEqual(GUARANTEED_DISTANCE);
    }
    expect(falseMatches).toBe(0);
    // nearest first
    for (const r of results) expect(r.matches.map((m) => m.distance)).toEqual([...r.matches.map((m) => m.distance)].sort((a, b) => a - b));
  }, 600_000);

  it('lists exact copies first with sameBytes, and pending submissions as submissions', async () => {
    const p = published[0]!;
    const id = await verified(copier, p.bytes, copierArtist);
    const { matches } = (await similar(id)).body.data;
    expect(matches[0]).toMatchObject({ kind: 'published_asset', id: p.assetId, distance: 0, sameBytes: true });
    const pending = results.find((r) => r.original === 0 && r.t === 'jpeg60')!;
    expect(matches).toContainEqual(expect.objectContaining({ kind: 'submission', id: pending.submissionId, submissionId: pending.submissionId, assetId: null, status: 'awaiting_review',
      artistCanonicalId: copierArtist, previewUrl: `${stack.api.deps.publicBaseUrl}${INTAKE}/submissions/${pending.submissionId}/preview?size=thumb` }));
  }, 120_000);

  it('HEIC gets the same fingerprints as the same pixels in JPEG', async () => {
    const heicFile = path.join(import.meta.dirname, '../fixtures/images/gradient.heic');
    const heic = fs.readFileSync(heicFile);
    const heicId = await verified(copier, heic, copierArtist, 'image/heic', 'gradient.heic');
    const rgba = await decodeHeic(heicFile);
    const jpeg = await sharp(rgba.pixels, { raw: { width: rgba.width, height: rgba.height, channels: 4 } }).jpeg({ quality: 95 }).toBuffer();
    const jpegId = await verified(owner, jpeg, ownerArtist);
    const [n] = await stack.sql<{ n: number }[]>`select count(*)::int as n from image_fingerprints where subject_id = ${heicId}`;
    expect(n!.n).toBe(5);
    expect((await similar(jpegId)).body.data.matches).toContainEqual(expect.objectContaining({ kind: 'submission', id: heicId, distance: expect.any(Number) }));
  }, 120_000);

  it('is for operators: a partner key gets 403, an unknown submission 404', async () => {
    const r = await similar(results[0]!.submissionId, copier);
    expect(r.status).toBe(403);
    expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const gone = await similar('sub_unknown');
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('not_found');
  });

  it('records the matches found at decision time with the decision (append-only), and the seen matches in the proof', async () => {
    const r = results.find((x) => x.original === 1 && x.t === 'resize50')!;
    const seen = r.matches.map((m) => m.id);
    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${r.submissionId}/approve`, {
      headers: operator.headers, body: { reviewNotes: 'The copier showed a licence from the owner.', seenMatches: seen },
    });
    // Another artist's published work: the second-review policy holds the approval for a second operator, with the match as its reason.
    expect(approved.body.data, JSON.stringify(approved.body)).toMatchObject({ intakeStatus: 'awaiting_review', reviewStatus: 'second_review_required' });
    const [held] = await stack.sql<{ reasons: string[] }[]>`select second_review_reasons as reasons from submissions where submission_id = ${r.submissionId}`;
    expect(held!.reasons).toContain(`similar_image:${published[1]!.assetId}`);
    const [row] = await stack.sql<{ decision: string; matches: any[]; seenMatches: string[]; reviewNotes: string }[]>`
      select decision, matches, seen_matches, review_notes from decision_matches where submission_id = ${r.submissionId}`;
    expect(row).toMatchObject({ decision: 'approve', seenMatches: seen, reviewNotes: 'The copier showed a licence from the owner.' });
    expect(row!.matches.map((m) => m.id)).toContain(published[1]!.assetId);
    expect(row!.matches.every((m) => !('previewUrl' in m))).toBe(true);
    await expect(stack.sql`update decision_matches set review_notes = 'x' where submission_id = ${r.submissionId}`).rejects.toThrow(/append-only/);
    // the partner's awaiting_review event carries no matches
    const events = await stack.sql<{ e: string }[]>`select row_to_json(w)::text as e from webhook_events w where w.submission_id = ${r.submissionId}`;
    expect(events.length).toBeGreaterThan(0);
    for (const { e } of events) expect(e).not.toContain(published[1]!.assetId);
  }, 120_000);

  it('200 unrelated images have no match within the guaranteed distance', async () => {
    const dir = fs.mkdtempSync(path.join(stack.dataDir, 'unrelated-'));
    let hits = 0;
    for (let i = 0; i < 200; i++) {
      const file = path.join(dir, `${i}.jpg`);
      fs.writeFileSync(file, await unrelated(i));
      const fp = await fingerprintsOf(await decodeForPreviews(file, 50_000_000));
      const own = `unrelated_${i}`;
      const mine = { phash: fp.phash, phash_crop5: fp.phashCrop5, phash_crop10: fp.phashCrop10 } as const;
      for (const pair of MATCH_PAIRS) {
        const near = await nearHashes(stack.sql, mine[pair.query as keyof typeof mine], pair.stored);
        hits += near.filter((n) => n.submissionId !== own).length;
      }
      // indexed too, so each later one is also checked against the earlier ones
      await storeFingerprints(stack.sql, { kind: 'submission', id: own, submissionId: own }, fp);
    }
    console.log(`200 unrelated images: ${hits} matches within ${GUARANTEED_DISTANCE} bits (against the ${published.length} originals, ${results.length} transforms and each other)`);
    expect(hits).toBe(0);
  }, 600_000);
});
