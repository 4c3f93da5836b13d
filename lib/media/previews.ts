// Images derived from a verified one: the private review previews (here) and the public
// renditions (renditions.ts). Each is the image turned upright (EXIF orientation applied), scaled
// to fit a square (never enlarged) and re-encoded as WebP. sharp writes no metadata unless asked
// to, so EXIF (GPS included), XMP, IPTC and ICC profiles are all dropped; colours are converted to sRGB.
import sharp from 'sharp';
import type { PreviewSize } from '../storage/types';
import { decodeHeic } from './heic';

/** Long edge, in pixels, of each preview. */
const PREVIEW_EDGE: Record<PreviewSize, number> = { thumb: 320, large: 1600 };

/** An image upright, in sRGB, fitted into a box: raw pixels in memory. */
export interface DecodedImage {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/**
 * Every pixel of the file decoded ONCE, fitted into an edge x edge box (libvips shrinks JPEG and
 * WebP while decoding, so a 12-megapixel photo is never held at full size). libvips warnings
 * (truncated data, corrupt segments) fail it: verification counts this decode as the image decoding.
 * HEIC (heic: true) is decoded by libheif in a worker thread (heic.ts), already upright.
 */
export async function decodeUpright(file: string, o: { maxPixels: number; edge: number; heic?: boolean }): Promise<DecodedImage> {
  const input = o.heic
    ? await decodeHeic(file).then((h) => sharp(h.pixels, { raw: { width: h.width, height: h.height, channels: 4 }, limitInputPixels: o.maxPixels }))
    : sharp(file, { limitInputPixels: o.maxPixels, failOn: 'warning' });
  const { data, info } = await input
    .rotate()
    .resize({ width: o.edge, height: o.edge, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, info: { width: info.width, height: info.height, channels: info.channels } };
}

/** Decoded pixels fitted into an edge x edge box (never enlarged), as WebP without metadata. */
export async function encodeWebp(d: DecodedImage, o: { edge: number; quality: number }): Promise<{ bytes: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(d.data, { raw: d.info })
    .resize({ width: o.edge, height: o.edge, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: o.quality, effort: 2 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

/** The pixels verification decodes: fitted for the large preview. */
export function decodeForPreviews(file: string, maxPixels: number, heic = false): Promise<DecodedImage> {
  return decodeUpright(file, { maxPixels, edge: PREVIEW_EDGE.large, heic });
}

/** Both previews, encoded from decoded pixels (no file is read again). */
export async function encodePreviews(d: DecodedImage): Promise<Record<PreviewSize, Buffer>> {
  const large = await encodeWebp(d, { edge: PREVIEW_EDGE.large, quality: 82 });
  const thumb = await encodeWebp(d, { edge: PREVIEW_EDGE.thumb, quality: 70 });
  return { thumb: thumb.bytes, large: large.bytes };
}
