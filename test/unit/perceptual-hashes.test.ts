import { describe, expect, it } from 'vitest';
import { chunkProbes, GUARANTEED_DISTANCE } from '../../lib/media/fingerprints/index';
import { fingerprintsOfPlane, sampleRegion } from '../../lib/media/fingerprints/compute';
import { chunksOf, dHash, fromSigned64, hammingDistance, mirrored, pHash, toSigned64 } from '../../lib/media/fingerprints/hashes';
import { random } from '../helpers/similar-images';

const grid = (n: number, f: (x: number, y: number) => number) => Float64Array.from({ length: n * n }, (_, i) => f(i % n, Math.floor(i / n)));
const noiseGrid = (seed: number) => {
  const r = random(seed);
  return grid(32, () => Math.floor(r() * 256));
};
const flipBits = (h: bigint, bits: number[]) => bits.reduce((a, b) => a ^ (1n << BigInt(b)), h);

describe('pHash (DCT of a 32 x 32 greyscale, 8 x 8 lowest frequencies without DC, median threshold)', () => {
  it('is the same for the same samples, and 64 bits wide', () => {
    const g = noiseGrid(1);
    expect(pHash(g)).toBe(pHash(Float64Array.from(g)));
    expect(pHash(g) >> 64n).toBe(0n);
  });
  it('does not change when the image gets brighter or gains contrast (only the DC term moves)', () => {
    const g = noiseGrid(2);
    expect(pHash(g.map((v) => v * 0.6 + 40))).toBe(pHash(g));
  });
  it('sets 31 of the 63 AC bits (above the median) and never the DC bit', () => {
    const h = pHash(noiseGrid(3));
    expect(hammingDistance(h, 0n)).toBe(31);
    expect(h >> 63n).toBe(0n);
  });
  it('tells unrelated noise apart (about half the bits differ)', () => {
    const d = hammingDistance(pHash(noiseGrid(4)), pHash(noiseGrid(5)));
    expect(d).toBeGreaterThan(16);
    expect(d).toBeLessThan(48);
  });
  it('refuses samples of another size', () => {
    expect(() => pHash(new Float64Array(100))).toThrow(RangeError);
  });
  it('of the mirrored samples differs from the image\'s own for an asymmetric image; mirroring twice is the identity', () => {
    const g = grid(32, (x, y) => (x < 10 ? 200 : 30) + y);
    const m = mirrored(g, 32, 32);
    expect(hammingDistance(pHash(m), pHash(g))).toBeGreaterThan(8);
    expect(Array.from(mirrored(m, 32, 32))).toEqual(Array.from(g));
  });
});

describe('dHash (9 x 8 greyscale, bit = brighter than the right-hand neighbour)', () => {
  it('is 0 for a ramp brightening to the right and all ones for one darkening', () => {
    const ramp = (dir: 1 | -1) => Float64Array.from({ length: 72 }, (_, i) => 128 + dir * (i % 9) * 10);
    expect(dHash(ramp(1))).toBe(0n);
    expect(dHash(ramp(-1))).toBe(0xffffffffffffffffn);
  });
  it('refuses samples of another size', () => {
    expect(() => dHash(new Float64Array(64))).toThrow(RangeError);
  });
});

describe('the 64-bit values and the chunks of multi-index hashing', () => {
  it('round-trip through PostgreSQL\'s signed bigint', () => {
    for (const h of [0n, 1n, 0x7fffffffffffffffn, 0x8000000000000000n, 0xffffffffffffffffn]) expect(fromSigned64(toSigned64(h))).toBe(h);
    expect(toSigned64(0xffffffffffffffffn)).toBe(-1n);
  });
  it('splits a hash into four 16-bit chunks, most significant first', () => {
    expect(chunksOf(0x0001000200030004n)).toEqual([1, 2, 3, 4]);
    expect(chunksOf(toSigned64(0xffff00000000abcdn))).toEqual([0xffff, 0, 0, 0xabcd]);
  });
  it(`probes catch every hash within ${GUARANTEED_DISTANCE} bits (pigeonhole), and the probes miss some at ${GUARANTEED_DISTANCE + 1}`, () => {
    const r = random(7);
    const h = 0x0123456789abcdefn;
    const probes = chunkProbes(h);
    expect(probes.map((p) => p.length)).toEqual([17, 17, 17, 17]);
    const found = (x: bigint) => chunksOf(x).some((c, i) => probes[i]!.includes(c));
    for (let n = 0; n < 2000; n++) {
      const bits = new Set<number>();
      const k = 1 + Math.floor(r() * GUARANTEED_DISTANCE);
      while (bits.size < k) bits.add(Math.floor(r() * 64));
      expect(found(flipBits(h, [...bits]))).toBe(true);
    }
    // two bits in each chunk: 8 bits apart, no chunk within one bit
    expect(found(flipBits(h, [0, 1, 16, 17, 32, 33, 48, 49]))).toBe(false);
  });
});

describe('fingerprints of a greyscale plane', () => {
  const r = random(11);
  const plane = { width: 200, height: 150, data: Uint8Array.from({ length: 200 * 150 }, () => Math.floor(r() * 256)) };
  it('averages every pixel of a region into the grid (box filter)', () => {
    const flat = { width: 64, height: 64, data: new Uint8Array(64 * 64).fill(77) };
    expect(Array.from(sampleRegion(flat, { left: 0, top: 0, width: 64, height: 64 }, 9, 8)).every((v) => v === 77)).toBe(true);
  });
  it('hashes the centre crops with 5% and 10% of width and height cut away', () => {
    const fp = fingerprintsOfPlane(plane);
    expect(fp.phashCrop5).toBe(pHash(sampleRegion(plane, { left: 5, top: 3, width: 190, height: 143 }, 32, 32)));
    expect(fp.phashCrop10).toBe(pHash(sampleRegion(plane, { left: 10, top: 7, width: 180, height: 135 }, 32, 32)));
    expect(fp.phashMirror).toBe(pHash(mirrored(sampleRegion(plane, { left: 0, top: 0, width: 200, height: 150 }, 32, 32), 32, 32)));
  });
});

describe('the decision proof\'s details hash and the seen matches', () => {
  it('is what it was before similar images when no match was shown, and covers the shown ids (in any order) when some were', async () => {
    const { detailsHash } = await import('../../lib/intake/decision-proof');
    const crypto = await import('node:crypto');
    const before = crypto.createHash('sha256').update(JSON.stringify([null, 'ok'])).digest('hex');
    expect(detailsHash({ reviewNotes: 'ok' })).toBe(before);
    expect(detailsHash({ reviewNotes: 'ok', seenMatches: [] })).toBe(before);
    const seen = detailsHash({ reviewNotes: 'ok', seenMatches: ['pfa_a', 'sub_b'] });
    expect(seen).not.toBe(before);
    expect(detailsHash({ reviewNotes: 'ok', seenMatches: ['sub_b', 'pfa_a'] })).toBe(seen);
    expect(detailsHash({ reviewNotes: 'ok', seenMatches: ['pfa_a'] })).not.toBe(seen);
  });
});
