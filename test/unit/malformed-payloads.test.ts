// The fault suite's malformed signal payloads (faults/resilience.ts): each one stays what it was
// when the shape check refused it, and each can be sent (no payload shares or loops into another).
import { describe, expect, it } from 'vitest';
import { malformedPayloads } from '../../faults/resilience';
import { checkDecisionShape, checkUploadComplete } from '../../lib/intake/decisions';

describe('malformedPayloads', () => {
  it.each([
    ['approve', (p: unknown) => checkDecisionShape('approve', p)],
    ['reject', (p: unknown) => checkDecisionShape('reject', p)],
    ['uploadComplete', checkUploadComplete],
  ] as const)('%s: 5,000 payloads, each serializable and refused by the shape check, the same for the same seed', (kind, check) => {
    const payloads = malformedPayloads(kind, 5000, 4242);
    expect(payloads.length).toBeGreaterThan(2500);
    for (const p of payloads) {
      expect(() => JSON.stringify(p)).not.toThrow();
      expect(check(p).ok).toBe(false);
    }
    expect(JSON.stringify(malformedPayloads(kind, 5000, 4242))).toBe(JSON.stringify(payloads));
  });
});
