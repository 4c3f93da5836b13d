import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { realJpeg } from '../../bench/lib/images';
import { tieArtist, type TestCredential } from './auth';
import { uid, type TestStack } from './stack';

export const INTAKE = '/api/private/portfolio-intake/v1';

/** A real JPEG of exactly `size` bytes (bench/lib/images.ts). */
export const jpegBytes = realJpeg;

export function submissionBody(partner: TestCredential & { organizationId?: string }, over: Record<string, unknown> = {}) {
  return {
    idempotencyKey: uid('idem-'),
    tenantId: partner.organizationId,
    artistCanonicalId: 'artist-ink-001',
    source: 'partner_api',
    fileName: 'dragon-sleeve.jpg',
    mimeType: 'image/jpeg',
    sizeBytes: 2048,
    title: 'Dragon sleeve',
    tags: ['dragon', 'sleeve'],
    rightsPosture: 'artist_attested',
    consentPosture: 'client_consented',
    ...over,
  };
}

export async function call(stack: Pick<TestStack, 'url'>, method: string, path: string, o: { headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

/** Staged bytes written straight into the local store, around the signed URL (as a misbehaving client or a race could). */
export function writeStagedAround(stack: TestStack, submissionId: string, bytes: Buffer): string {
  const file = path.join(stack.dataDir, 'objects', 'staging', 'staging', submissionId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  return file;
}

export async function putUpload(url: string, bytes: Buffer, contentType = 'image/jpeg') {
  const res = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** create + PUT + upload-complete; returns the submission id and the upload-complete answer. */
export async function stageAndVerify(stack: TestStack, partner: TestCredential & { organizationId?: string }, bytes = jpegBytes(2048), over: Record<string, unknown> = {}) {
  // Another artist than the default: the partner's organization stages for it as if it had resolved it.
  if (typeof over.artistCanonicalId === 'string' && partner.organizationId) await tieArtist(stack, partner.organizationId, over.artistCanonicalId, partner.actorId);
  const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: bytes.length, ...over }) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.submission.submissionId as string;
  const put = await putUpload(created.body.data.upload.url, bytes, (over.mimeType as string) ?? 'image/jpeg');
  expect(put.status).toBe(200);
  const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
  return { id, created, done };
}
