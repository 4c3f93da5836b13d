import { describe, expect, it } from 'vitest';
import { matchesMagic } from '../../lib/media/magic';
import { checkGrant, signGrant } from '../../lib/storage/signing';

const heic = (brand: string, boxSize = 24) => {
  const b = Buffer.alloc(64);
  b.writeUInt32BE(boxSize, 0);
  b.write('ftyp', 4, 'latin1');
  b.write(brand, 8, 'latin1');
  b.write('mif1', 16, 'latin1');
  return b;
};

describe('magic bytes', () => {
  it('recognises JPEG, PNG, WebP and HEIC by their first bytes', () => {
    expect(matchesMagic('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe1]), 100)).toBe(true);
    expect(matchesMagic('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 100)).toBe(true);
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([92, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
    expect(matchesMagic('image/webp', webp, 100)).toBe(true);
    expect(matchesMagic('image/heic', heic('heic'), 64)).toBe(true);
  });

  it('refuses a declared type whose bytes say otherwise, and a truncated HEIC', () => {
    expect(matchesMagic('image/jpeg', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 100)).toBe(false);
    expect(matchesMagic('image/heic', heic('avif').fill(0x20, 16, 20), 64)).toBe(false);
    expect(matchesMagic('image/heic', heic('heic', 200), 64)).toBe(false); // ftyp box longer than the file
    expect(matchesMagic('image/heic', heic('heic').subarray(0, 10), 10)).toBe(false);
    const webpShort = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0xff, 0xff, 0, 0]), Buffer.from('WEBP')]);
    expect(matchesMagic('image/webp', webpShort, 100)).toBe(false);
  });
});

describe('signed upload grants', () => {
  const grant = { key: 'staging/sub_1', contentType: 'image/jpeg', sizeBytes: 10, expires: 2000 };
  it('accept the exact grant before expiry', () => {
    expect(checkGrant('s'.repeat(32), grant, signGrant('s'.repeat(32), grant), 1000)).toEqual({ ok: true });
  });
  it('refuse any changed field, another secret, or a time past expiry', () => {
    const sig = signGrant('s'.repeat(32), grant);
    expect(checkGrant('s'.repeat(32), { ...grant, sizeBytes: 11 }, sig, 1000)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(checkGrant('s'.repeat(32), { ...grant, contentType: 'image/png' }, sig, 1000)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(checkGrant('t'.repeat(32), grant, sig, 1000)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(checkGrant('s'.repeat(32), grant, sig, 2001)).toEqual({ ok: false, reason: 'expired' });
  });
});
