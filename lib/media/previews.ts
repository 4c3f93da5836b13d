// Private review previews: the verified image turned upright (EXIF orientation applied), scaled to
// fit a square (never enlarged) and re-encoded as WebP. sharp writes no metadata unless asked to,
// so EXIF (GPS included), XMP, IPTC and ICC profiles are all dropped; colours are converted to sRGB.
import sharp from 'sharp';
import type { PreviewSize } from '../storage/types';

/** Long edge, in pixels, of each preview. */
export const PREVIEW_EDGE: Record<PreviewSize, number> = { thumb: 320, large: 1600 };

/**
 * Both previews from ONE decode of every pixel (libvips shrinks JPEG and WebP while decoding, so a
 * 12-megapixel photo is never held at full size). libvips warnings (truncated data, corrupt
 * segments) fail it: verification counts this decode as the image decoding.
 */
export async function renderPreviews(file: string, maxPixels: number): Promise<Record<PreviewSize, Buffer>> {
  const large = await sharp(file, { limitInputPixels: maxPixels, failOn: 'warning' })
    .rotate()
    .resize({ width: PREVIEW_EDGE.large, height: PREVIEW_EDGE.large, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .webp({ quality: 82, effort: 2 })
    .toBuffer();
  const thumb = await sharp(large)
    .resize({ width: PREVIEW_EDGE.thumb, height: PREVIEW_EDGE.thumb, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70, effort: 2 })
    .toBuffer();
  return { thumb, large };
}
