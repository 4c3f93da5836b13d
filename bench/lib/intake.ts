// Shared by the benches and the fault suite: the create body of one intake and JPEG-looking bytes.
import crypto from 'node:crypto';
import type { BenchStack } from './stack';

export function intakeBody(s: BenchStack, o: { key?: string; sizeBytes: number; mimeType?: string }) {
  return {
    idempotencyKey: o.key ?? `bench-${crypto.randomUUID()}`,
    tenantId: s.partner.organizationId,
    artistCanonicalId: 'artist-bench-1',
    source: 'partner_api',
    fileName: 'bench.jpg',
    mimeType: o.mimeType ?? 'image/jpeg',
    sizeBytes: o.sizeBytes,
    rightsPosture: 'artist_attested',
    consentPosture: 'client_consented',
  };
}

/** n bytes that start like a JPEG (random after the magic bytes). */
export function jpegLike(n: number): Buffer {
  const b = crypto.randomBytes(n);
  b.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return b;
}
