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

/** One JSON call to the bench stack's API; throws on a status of 300 or more, with the answer's start. */
export async function benchCall(s: BenchStack, method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(url.startsWith('http') ? url : `${s.apiUrl}${url}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as any;
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
  return json;
}
