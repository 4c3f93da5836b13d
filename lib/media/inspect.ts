// Is the staged file really an image of the declared type? Decoded by libvips (sharp): the header
// first (format, dimensions, frames, orientation) and the pixel limit from it, before any large
// allocation; then every pixel of the first frame, once (the pixels the review previews are made
// from), so bytes behind a valid header are checked too.
// HEIC: sharp's prebuilt libvips reads the HEIF container (format, HEVC coding, dimensions from the
// header, so the pixel limit applies before decoding) but ships no HEVC decoder; the pixels are
// decoded by libheif + libde265 as WebAssembly (heic.ts).
import sharp from 'sharp';
import type { ImageFacts, MimeType } from './vocabulary';
import { decodeForPreviews, type DecodedImage } from './previews';

export type ImageFailure = 'undecodable' | 'type_mismatch' | 'dimensions_exceeded';
/** `decoded`: the pixels the previews are made from. */
export type Inspection = { ok: true; image: ImageFacts; decoded: DecodedImage } | { ok: false; code: ImageFailure };

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
  let decoded: DecodedImage;
  try {
    decoded = await decodeForPreviews(file, maxPixels, declared === 'image/heic');
  } catch {
    return { ok: false, code: 'undecodable' };
  }
  const image: ImageFacts = { format: FORMAT_OF[declared], width: meta.width, height, frames: meta.pages ?? 1, orientation: meta.orientation ?? null };
  return { ok: true, image, decoded };
}

/** The image format the header names, if it parses as an image at all (no pixel decoded). */
export async function headerFormat(file: string): Promise<string | undefined> {
  try {
    return (await sharp(file, { limitInputPixels: false }).metadata()).format;
  } catch {
    return undefined;
  }
}
