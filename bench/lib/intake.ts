// Shared by the benches and the fault suite: the create body of one intake (images: ./images.ts).
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
