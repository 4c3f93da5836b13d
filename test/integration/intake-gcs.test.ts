// One whole intake over HTTP with STORAGE_DRIVER=gcs: the API signs a V4 upload URL, the client
// PUTs to the GCS emulator with the headers the create answer lists, the worker verifies and
// promotes through the same driver. The emulator does not check signatures; gcs-storage.test.ts does.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { startGcsEmulator, writeServiceAccountKey, type GcsEmulator } from '../helpers/gcs-emulator';
import { call, INTAKE, jpegBytes, submissionBody } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

const STAGING = 'intake-e2e-staging';
const MEDIA = 'intake-e2e-media';

describe('portfolio intake over HTTP with the GCS driver (fake-gcs-server on loopback)', () => {
  let emulator: GcsEmulator;
  let keyDir: string;
  let stack: TestStack;
  let partner: TestCredential;
  let operator: TestCredential;
  let inspector: Storage;

  beforeAll(async () => {
    emulator = await startGcsEmulator({ buckets: [STAGING, MEDIA] });
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gcs-key-'));
    const keyFile = writeServiceAccountKey(keyDir, crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    stack = await startTestStack({
      env: {
        STORAGE_DRIVER: 'gcs',
        GCS_STAGING_BUCKET: STAGING,
        GCS_MEDIA_BUCKET: MEDIA,
        GCS_PROJECT_ID: 'test-project',
        GOOGLE_APPLICATION_CREDENTIALS: keyFile,
        STORAGE_EMULATOR_HOST: emulator.endpoint,
      },
    });
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
    inspector = new Storage({ apiEndpoint: emulator.endpoint, projectId: 'test-project' });
  });
  afterAll(async () => {
    await stack?.stop();
    await emulator?.stop();
    if (keyDir) fs.rmSync(keyDir, { recursive: true, force: true });
  });

  it('create answers a V4 URL and its headers; PUT, upload-complete and approve end with a private draft object in the media bucket', async () => {
    const bytes = jpegBytes(5000);
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: bytes.length }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { url, headers } = created.body.data.upload as { url: string; headers: Record<string, string> };
    expect(new URL(url).searchParams.get('X-Goog-Algorithm')).toBe('GOOG4-RSA-SHA256');
    expect(headers).toEqual({ 'Content-Type': 'image/jpeg', 'x-goog-content-length-range': '5000,5000' });
    const put = await fetch(url, { method: 'PUT', headers, body: bytes });
    expect(put.status).toBe(200);

    const id = created.body.data.submission.submissionId as string;
    const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect(done.body.data).toMatchObject({ intakeStatus: 'awaiting_review' });
    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Verified on GCS.' } });
    expect(approved.body.data).toMatchObject({ intakeStatus: 'promoted_to_media_store', governance: { publicSurfaceActivated: false } });

    const [doc] = await stack.sql`select object_key, visibility from media_documents where submission_id = ${id}`;
    expect(doc!.visibility).toBe('private');
    const [stored] = await inspector.bucket(MEDIA).file(doc!.objectKey).download();
    expect(stored.equals(bytes)).toBe(true);
    const [mediaObjects] = await inspector.bucket(MEDIA).getFiles();
    expect(mediaObjects.map((f) => f.name)).toEqual([doc!.objectKey]);
  });
});
