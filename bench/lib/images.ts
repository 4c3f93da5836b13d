// Real images for the tests, the fault suite and the benches, made with sharp at load time: a
// JPEG of any exact size is a real (noisy, photo-like) JPEG followed by zero padding, which every
// decoder ignores after the end-of-image marker. Verification decodes what it is given, so a
// "JPEG" of random bytes no longer passes.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';

const noise = (side: number) =>
  sharp({ create: { width: side, height: side, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });

const jpegOf = (side: number) => noise(side).jpeg({ quality: 85 }).toBuffer();
/** Real JPEGs from small to large, with their side; the largest that fits is padded to the size asked for. */
const MADE = (await Promise.all([8, 64, 256, 512].map(async (side) => ({ side, jpeg: await jpegOf(side) })))).sort((a, b) => a.jpeg.length - b.jpeg.length);

/**
 * A valid JPEG of exactly `size` bytes (at least the smallest base, a few hundred bytes). `minimal`:
 * the 8 x 8 one, padded, for figures about orchestration rather than about decoding pixels.
 */
export function realJpeg(size: number, o: { minimal?: boolean } = {}): Buffer {
  const { jpeg } = baseFor(size, o);
  return Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length)]);
}

/** The base a JPEG of `size` bytes is made from: the 8 x 8 one when `minimal`, else the largest that fits. */
function baseFor(size: number, o: { minimal?: boolean }): { side: number; jpeg: Buffer } {
  const base = o.minimal ? MADE[0] : [...MADE].reverse().find((m) => m.jpeg.length <= size);
  if (!base || base.jpeg.length > size) throw new Error(`realJpeg: ${size} bytes is below the smallest JPEG made here (${MADE[0]!.jpeg.length})`);
  return base;
}

/**
 * `count` different JPEGs of exactly `size` bytes, each of its own noise (other bytes, other
 * fingerprints), of the side realJpeg would pick. For benches of many intakes: one image sent
 * again and again makes every intake a copy of all the others, so each similar-image lookup finds
 * them all, and the work grows with the run.
 */
export async function distinctJpegs(count: number, size: number, o: { minimal?: boolean } = {}): Promise<Buffer[]> {
  const { side } = baseFor(size, o);
  const images: Buffer[] = [];
  // Noise at quality 85 varies in length: a base that no longer fits is made again (bounded).
  for (let tries = 0; images.length < count && tries < count * 4; tries++) {
    const base = await jpegOf(side);
    if (base.length <= size) images.push(Buffer.concat([base, Buffer.alloc(size - base.length)]));
  }
  if (images.length < count) throw new Error(`distinctJpegs: ${size} bytes leaves no room for ${side} x ${side} noise; ask for more bytes`);
  return images;
}

export const realPng = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: '#3366aa80' } }).png().toBuffer();
export const realWebp = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#aa3366' } }).webp().toBuffer();

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([len, typed, crc]);
}

/** A small, well-formed PNG whose header declares width x height pixels (a decompression bomb's shape). */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth; colour type 0 (grey), no interlace
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))), pngChunk('IEND', Buffer.alloc(0))]);
}

/** JPEG magic bytes followed by random bytes: what magic-byte checks alone used to accept. */
export function jpegMagicThenRandom(size: number): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(size - 4)]);
}
