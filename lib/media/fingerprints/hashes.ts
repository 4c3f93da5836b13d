// Perceptual hashes of an image, pure: greyscale samples in, 64-bit hashes out (as unsigned
// bigints). Written here rather than taken from a library: each is a few lines, and the library
// that fits (sharp-phash) decodes the file again, which verification must not do.
//   pHash: the 32 x 32 greyscale image's 2-D DCT-II; the 8 x 8 lowest frequencies without the DC
//          term (63 coefficients, plus the DC position set to the median so the hash has 64 bits);
//          bit = coefficient above the median of those 64.
//   dHash: a 9 x 8 greyscale image; bit = pixel brighter than its right-hand neighbour.

export const PHASH_SIDE = 32;
export const DHASH_WIDTH = 9;
export const DHASH_HEIGHT = 8;

const COS: Float64Array = (() => {
  // COS[u * N + x] = cos((2x + 1) u pi / 2N)
  const n = PHASH_SIDE;
  const t = new Float64Array(n * n);
  for (let u = 0; u < n; u++) for (let x = 0; x < n; x++) t[u * n + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n));
  return t;
})();

/** 64-bit pHash of a 32 x 32 greyscale image (row-major, 1024 samples). */
export function pHash(grey: ArrayLike<number>): bigint {
  const n = PHASH_SIDE;
  if (grey.length !== n * n) throw new RangeError(`pHash takes ${n * n} samples, got ${grey.length}`);
  // Separable DCT, only the 8 lowest frequencies in each direction are needed.
  const rows = new Float64Array(n * 8); // rows[y * 8 + u]
  for (let y = 0; y < n; y++)
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let x = 0; x < n; x++) s += grey[y * n + x]! * COS[u * n + x]!;
      rows[y * 8 + u] = s;
    }
  const coeffs = new Float64Array(64); // coeffs[v * 8 + u]
  for (let v = 0; v < 8; v++)
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let y = 0; y < n; y++) s += rows[y * 8 + u]! * COS[v * n + y]!;
      coeffs[v * 8 + u] = s;
    }
  // The DC term says only how bright the image is: leave it out of the median and the bits.
  const ac = Array.from(coeffs.subarray(1)).sort((a, b) => a - b);
  const median = ac[31]!; // 63 values: the middle one
  let h = 0n;
  for (let i = 0; i < 64; i++) h = (h << 1n) | (i > 0 && coeffs[i]! > median ? 1n : 0n);
  return h;
}

/** 64-bit dHash of a 9 x 8 greyscale image (row-major, 72 samples). */
export function dHash(grey: ArrayLike<number>): bigint {
  if (grey.length !== DHASH_WIDTH * DHASH_HEIGHT) throw new RangeError(`dHash takes ${DHASH_WIDTH * DHASH_HEIGHT} samples, got ${grey.length}`);
  let h = 0n;
  for (let y = 0; y < DHASH_HEIGHT; y++)
    for (let x = 0; x < 8; x++) h = (h << 1n) | (grey[y * DHASH_WIDTH + x]! > grey[y * DHASH_WIDTH + x + 1]! ? 1n : 0n);
  return h;
}

/** The same samples mirrored left to right. */
export function mirrored(grey: ArrayLike<number>, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[y * width + x] = grey[y * width + (width - 1 - x)]!;
  return out;
}

/** Bits that differ between two 64-bit hashes. */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = (a ^ b) & 0xffffffffffffffffn;
  let n = 0;
  while (x) {
    x &= x - 1n;
    n++;
  }
  return n;
}

/** The hash as PostgreSQL's signed bigint (same 64 bits). */
export const toSigned64 = (h: bigint): bigint => BigInt.asIntN(64, h);
/** A bigint column's value as the unsigned hash. */
export const fromSigned64 = (v: bigint): bigint => BigInt.asUintN(64, v);

/** The four 16-bit chunks of multi-index hashing, most significant first (0..65535 each). */
export function chunksOf(h: bigint): [number, number, number, number] {
  const u = BigInt.asUintN(64, h);
  return [Number((u >> 48n) & 0xffffn), Number((u >> 32n) & 0xffffn), Number((u >> 16n) & 0xffffn), Number(u & 0xffffn)];
}

export const toHex = (h: bigint): string => BigInt.asUintN(64, h).toString(16).padStart(16, '0');
