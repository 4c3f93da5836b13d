// Private review previews: the verified image turned upright (EXIF orientation applied), scaled to
// fit a square (never enlarged) and re-encoded as WebP. sharp writes no metadata unless asked to,
// so EXIF (GPS included), XMP, IPTC and ICC profiles are all dropped; colours are converted to sRGB.
import sharp from 'sharp';
import type { PreviewSize } from '../storage/types';

/** Long edge, in pixels, of each preview. */
export const PREVIEW_EDGE: Record<PreviewSize, number> = { thumb: 320, large: 1600 };

export async function makePreview(file: string, size: PreviewSize, maxPixels: number): Promise<Buffer> {
  const edge = PREVIEW_EDGE[size];
  return sharp(file, { limitInputPixels: maxPixels })
    .rotate()
    .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .webp({ quality: size === 'thumb' ? 70 : 82 })
    .toBuffer();
}
