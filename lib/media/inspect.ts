// Is the staged file really an image of the declared type? Decoded by libvips (sharp): the header
// first (format, dimensions, frames, orientation) and the pixel limit from it, before any large
// allocation; then every pixel of the first frame, so bytes behind a valid header are checked too.
// HEIC: sharp's prebuilt libvips reads HEIF containers through libheif but ships no HEVC decoder,
// so a HEIC file is checked as a container (libheif parses it, its coding must be HEVC, its
// dimensions come from its header) and its pixels are not decoded.
import sharp from 'sharp';
import type { ImageFacts, MimeType } from '../intake/vocabulary';

export type ImageFailure = 'undecodable' | 'type_mismatch' | 'dimensions_exceeded';
export type Inspection = { ok: true; image: ImageFacts } | { ok: false; code: ImageFailure };

const FORMAT_OF: Record<MimeType, ImageFacts['format']> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp', 'image/heic': 'heif' };

export async function inspectImage(file: string, declared: MimeType, maxPixels: number): Promise<Inspection> {
  let meta: sharp.Metadata;
  try {
    // Header only: no pixel is decoded here, whatever the header claims.
    meta = await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, code: 'undecodable' };
  }
  if (!meta.format || !meta.width || !meta.height) return { ok: false, code: 'undecodable' };
  if (meta.format !== FORMAT_OF[declared]) return { ok: false, code: 'type_mismatch' };
  // HEIF also carries AVIF; image/heic means HEVC-coded.
  if (declared === 'image/heic' && meta.compression !== 'hevc') return { ok: false, code: 'type_mismatch' };
  const height = meta.pageHeight ?? meta.height;
  if (meta.width * height > maxPixels) return { ok: false, code: 'dimensions_exceeded' };
  if (declared !== 'image/heic') {
    try {
      // Every pixel of the first frame; libvips warnings (truncated data, corrupt segments) fail it.
      await sharp(file, { limitInputPixels: maxPixels, failOn: 'warning' }).stats();
    } catch {
      return { ok: false, code: 'undecodable' };
    }
  }
  return { ok: true, image: { format: FORMAT_OF[declared], width: meta.width, height, frames: meta.pages ?? 1, orientation: meta.orientation ?? null } };
}

/** The image format the header names, if it parses as an image at all (no pixel decoded). */
export async function headerFormat(file: string): Promise<string | undefined> {
  try {
    return (await sharp(file, { limitInputPixels: false }).metadata()).format;
  } catch {
    return undefined;
  }
}
