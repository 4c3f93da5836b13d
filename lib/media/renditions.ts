// Public renditions of a private draft: what the directory serves at /media/{assetId}/{name}.webp.
// Re-encoded from decoded pixels (so nothing of the original file survives but its pixels), every
// metadata block stripped, long edge capped, under a content-addressed key. The original is never
// served.
import crypto from 'node:crypto';
import { decodeUpright, encodeWebp } from './previews';

export const RENDITION_NAMES = ['large', 'small'] as const;
export type RenditionName = (typeof RENDITION_NAMES)[number];

/** Long edge cap of each public rendition, in pixels. */
export const RENDITION_EDGE: Record<RenditionName, number> = { large: 2048, small: 640 };

export const RENDITION_FORMAT = { ext: 'webp', contentType: 'image/webp' } as const;

export interface Rendition {
  name: RenditionName;
  bytes: Buffer;
  width: number;
  height: number;
  sha256: string;
  /** Content-addressed storage key: the same pixels always land on the same key. */
  key: string;
}

/** Both public renditions of an image file, decoded once. */
export async function makeRenditions(file: string, maxPixels: number, heic = false): Promise<Rendition[]> {
  const decoded = await decodeUpright(file, { maxPixels, edge: RENDITION_EDGE.large, heic });
  const out: Rendition[] = [];
  for (const name of RENDITION_NAMES) {
    const { bytes, width, height } = await encodeWebp(decoded, { edge: RENDITION_EDGE[name], quality: name === 'large' ? 82 : 75 });
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    out.push({ name, bytes, width, height, sha256, key: `${sha256}.${RENDITION_FORMAT.ext}` });
  }
  return out;
}

/** The path (under PUBLIC_BASE_URL) that serves a rendition. */
export const renditionPath = (assetId: string, name: RenditionName) => `/media/${assetId}/${name}.${RENDITION_FORMAT.ext}`;

/**
 * Image addresses as stored: a path under PUBLIC_BASE_URL for the renditions this service serves,
 * an absolute URL for imported records. Answers always carry absolute URLs.
 */
export function absoluteUrl(base: string, stored: string): string;
export function absoluteUrl(base: string, stored: string | null): string | null;
export function absoluteUrl(base: string, stored: string | null): string | null {
  return stored !== null && stored.startsWith('/') ? `${base}${stored}` : stored;
}
