// Private review previews: the verified image turned upright (EXIF orientation applied), scaled to
// fit a square (never enlarged) and re-encoded as WebP. sharp writes no metadata unless asked to,
// so EXIF (GPS included), XMP, IPTC and ICC profiles are all dropped; colours are converted to sRGB.
import sharp from 'sharp';
import type { PreviewSize } from '../storage/types';

/** Long edge, in pixels, of each preview. */
const PREVIEW_EDGE: Record<PreviewSize, number> = { thumb: 320, large: 1600 };

/** The verified image upright, in sRGB, fitted into the large preview's box: raw pixels in memory. */
export interface DecodedImage {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/**
 * Every pixel of the file decoded ONCE (libvips shrinks JPEG and WebP while decoding, so a
 * 12-megapixel photo is never held at full size). libvips warnings (truncated data, corrupt
 * segments) fail it: verification counts this decode as the image decoding.
 */
export async function decodeForPreviews(file: string, maxPixels: number): Promise<DecodedImage> {
  const { data, info } = await sharp(file, { limitInputPixels: maxPixels, failOn: 'warning' })
    .rotate()
    .resize({ width: PREVIEW_EDGE.large, height: PREVIEW_EDGE.large, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, info: { width: info.width, height: info.height, channels: info.channels } };
}

/** Both previews, encoded from decoded pixels (no file is read again). */
export async function encodePreviews(d: DecodedImage): Promise<Record<PreviewSize, Buffer>> {
  const raw = () => sharp(d.data, { raw: d.info });
  const large = await raw().webp({ quality: 82, effort: 2 }).toBuffer();
  const thumb = await raw()
    .resize({ width: PREVIEW_EDGE.thumb, height: PREVIEW_EDGE.thumb, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70, effort: 2 })
    .toBuffer();
  return { thumb, large };
}
