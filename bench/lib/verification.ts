// M1's verification of a 12-megapixel JPEG, shared by the benches that measure beside it
// (bench/media-verification.ts, bench/similar-images.ts): the photo, the bare sha256, and the
// verification the activity runs (header, one pixel decode into both previews, sha256).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { DEFAULT_MAX_IMAGE_PIXELS } from '../../activities';
import { inspectImage } from '../../lib/media/inspect';
import { encodePreviews, type DecodedImage } from '../../lib/media/previews';

/** 4000 x 3000, photo-like noise, quality 85: about what a phone camera writes. */
export async function writePhoto12mp(file: string): Promise<void> {
  await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .jpeg({ quality: 85 })
    .toFile(file);
}

export async function sha256File(file: string): Promise<string> {
  const h = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), h);
  return h.digest('hex');
}

/** M1's verification; answers the decoded pixels. */
export async function verifyLikeM1(file: string): Promise<DecodedImage> {
  const inspected = await inspectImage(file, 'image/jpeg', DEFAULT_MAX_IMAGE_PIXELS);
  if (!inspected.ok) throw new Error('not verified');
  await sha256File(file);
  await encodePreviews(inspected.decoded);
  return inspected.decoded;
}
