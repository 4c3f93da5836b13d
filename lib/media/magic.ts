import type { MimeType } from './vocabulary';

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

/** How many leading bytes `matchesMagic` needs. */
export const MAGIC_PREFIX_BYTES = 32;

/** Do the first bytes of a file match the declared image type? `totalSize` guards truncated files. */
export function matchesMagic(mime: MimeType, head: Buffer, totalSize: number): boolean {
  switch (mime) {
    case 'image/jpeg':
      return head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case 'image/png':
      return head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'image/webp':
      return (
        head.length >= 12 &&
        head.toString('latin1', 0, 4) === 'RIFF' &&
        head.toString('latin1', 8, 12) === 'WEBP' &&
        head.readUInt32LE(4) + 8 <= totalSize
      );
    case 'image/heic': {
      // ISO-BMFF: [size u32][ftyp][major brand][minor version]...; the ftyp box must fit the file.
      if (head.length < 16 || head.toString('latin1', 4, 8) !== 'ftyp') return false;
      const boxSize = head.readUInt32BE(0);
      if (boxSize < 16 || boxSize > totalSize) return false;
      const brands = [head.toString('latin1', 8, 12)];
      for (let off = 16; off + 4 <= Math.min(boxSize, head.length); off += 4) brands.push(head.toString('latin1', off, off + 4));
      return brands.some((b) => HEIC_BRANDS.has(b)) && totalSize > boxSize;
    }
  }
}
