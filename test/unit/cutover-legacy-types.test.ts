// Legacy timestamps as the legacy connection reads them: exact where a Date can hold the value,
// null (unknown) where it cannot, never an Invalid Date.
import { describe, expect, it } from 'vitest';
import { legacyKeyOf } from '../../lib/cutover/legacy-source';
import { legacyTimestamp } from '../../lib/cutover/legacy-types';

describe('legacyTimestamp', () => {
  it('reads ISO output exactly, fractions, offsets and years below 100 included', () => {
    expect(legacyTimestamp('2024-02-29 13:45:07.123456+00')!.toISOString()).toBe('2024-02-29T13:45:07.123Z');
    expect(legacyTimestamp('2024-02-29 13:45:07+05:30')!.toISOString()).toBe('2024-02-29T08:15:07.000Z');
    expect(legacyTimestamp('1800-01-01 00:00:00-00:19:32')!.toISOString()).toBe('1800-01-01T00:19:32.000Z');
    expect(legacyTimestamp('0005-03-01 00:00:00+00')!.getUTCFullYear()).toBe(5);
    expect(legacyTimestamp('9999-12-31 23:59:59.999999+00')!.toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(legacyTimestamp('2024-02-29')!.toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it('a value outside the years 1..9999 is null', () => {
    for (const t of ['infinity', '-infinity', '294276-12-31 23:59:59+00', '10000-01-01 00:00:00+00', '0001-01-01 00:00:00+00 BC', '4713-01-01 00:00:00+00 BC', '0001-01-01 00:00:00+01', '', 'garbage']) expect(legacyTimestamp(t), t).toBeNull();
  });
});

describe('legacyKeyOf', () => {
  it('takes every bigint in its canonical spelling and nothing else', () => {
    expect(legacyKeyOf('art_lg_9223372036854775807', 'art_lg_')).toBe('9223372036854775807');
    expect(legacyKeyOf('art_lg_-9223372036854775808', 'art_lg_')).toBe('-9223372036854775808');
    expect(legacyKeyOf('art_lg_0', 'art_lg_')).toBe('0');
    for (const id of ['art_lg_9223372036854775808', 'art_lg_-9223372036854775809', 'art_lg_007', 'art_lg_-0', 'art_lg_', 'art_lg_1e3', 'pfa_lg_1'])
      expect(legacyKeyOf(id, 'art_lg_'), id).toBeUndefined();
  });
});
