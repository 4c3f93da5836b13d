// The fingerprints of a verified image, from the pixels verification already decoded (the
// preview-sized, upright sRGB pixels of lib/media/previews.ts): no file is read or decoded again.
// One small greyscale plane is made from them; every hash is sampled from that plane.
import sharp from 'sharp';
import type { DecodedImage } from '../previews';
import { DHASH_HEIGHT, DHASH_WIDTH, PHASH_SIDE, dHash, mirrored, pHash } from './hashes';

/** Centre crops hashed beside the whole image: the share of width and height cut away (half on each side). */
export const CROP_SHARES = { crop5: 0.05, crop10: 0.1 } as const;

export interface Fingerprints {
  /** pHash of the whole image. */
  phash: bigint;
  dhash: bigint;
  /** pHash of the image mirrored left to right. */
  phashMirror: bigint;
  /** pHash of the centre with 5% (10%) of width and height cut away. */
  phashCrop5: bigint;
  phashCrop10: bigint;
}

/** Long edge of the greyscale plane the hashes are sampled from. */
const PLANE_EDGE = 256;

interface Plane {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Mean of the plane over a region, on an outW x outH grid (box filter: every pixel counts once). */
export function sampleRegion(p: Plane, r: { left: number; top: number; width: number; height: number }, outW: number, outH: number): Float64Array {
  const out = new Float64Array(outW * outH);
  for (let oy = 0; oy < outH; oy++) {
    const y0 = r.top + Math.floor((oy * r.height) / outH);
    const y1 = Math.max(y0 + 1, r.top + Math.floor(((oy + 1) * r.height) / outH));
    for (let ox = 0; ox < outW; ox++) {
      const x0 = r.left + Math.floor((ox * r.width) / outW);
      const x1 = Math.max(x0 + 1, r.left + Math.floor(((ox + 1) * r.width) / outW));
      let s = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) s += p.data[y * p.width + x]!;
      out[oy * outW + ox] = s / ((y1 - y0) * (x1 - x0));
    }
  }
  return out;
}

function centre(p: Plane, share: number) {
  const width = Math.max(1, Math.round(p.width * (1 - share)));
  const height = Math.max(1, Math.round(p.height * (1 - share)));
  return { left: Math.floor((p.width - width) / 2), top: Math.floor((p.height - height) / 2), width, height };
}

/** Every fingerprint of one plane (pure). */
export function fingerprintsOfPlane(p: Plane): Fingerprints {
  const whole = { left: 0, top: 0, width: p.width, height: p.height };
  const grid = sampleRegion(p, whole, PHASH_SIDE, PHASH_SIDE);
  return {
    phash: pHash(grid),
    dhash: dHash(sampleRegion(p, whole, DHASH_WIDTH, DHASH_HEIGHT)),
    phashMirror: pHash(mirrored(grid, PHASH_SIDE, PHASH_SIDE)),
    phashCrop5: pHash(sampleRegion(p, centre(p, CROP_SHARES.crop5), PHASH_SIDE, PHASH_SIDE)),
    phashCrop10: pHash(sampleRegion(p, centre(p, CROP_SHARES.crop10), PHASH_SIDE, PHASH_SIDE)),
  };
}

/** The fingerprints of decoded pixels: transparent areas over white, luminance, at most 256 px a side. */
export async function fingerprintsOf(d: DecodedImage): Promise<Fingerprints> {
  const { data, info } = await sharp(d.data, { raw: d.info })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize({ width: PLANE_EDGE, height: PLANE_EDGE, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`greyscale plane has ${info.channels} channels`);
  return fingerprintsOfPlane({ data, width: info.width, height: info.height });
}
