// The GCS driver against a real GCS emulator (fake-gcs-server) on loopback. The emulator accepts
// signed-URL PUTs without checking signatures, so the V4 signature is verified here, by
// recomputing it from the URL and the headers the client sends, with a service-account key that
// is generated for this run only.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realJpeg } from '../../bench/lib/images';
import { makeRenditions } from '../../lib/media/renditions';
import { createObjectStore } from '../../lib/storage';
import type { SignedUpload } from '../../lib/storage/types';
import { ObjectChangedError, type ObjectStore } from '../../lib/storage/types';
import { CLIENT_EMAIL, startGcsEmulator, writeServiceAccountKey, type GcsEmulator } from '../helpers/gcs-emulator';

const STAGING_BUCKET = 'intake-staging-test';
const MEDIA_BUCKET = 'intake-media-test';
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

let emulator: GcsEmulator;
let keyDir: string;
let publicKey: crypto.KeyObject;
let privateKey: crypto.KeyObject;
let store: ObjectStore;
let inspector: Storage; // reads the emulator directly, to check what the driver wrote

beforeAll(async () => {
  emulator = await startGcsEmulator({ buckets: [STAGING_BUCKET, MEDIA_BUCKET] });
  const keys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  publicKey = keys.publicKey;
  privateKey = keys.privateKey;
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gcs-key-'));
  const keyFile = writeServiceAccountKey(keyDir, privateKey);
  store = createObjectStore({
    STORAGE_DRIVER: 'gcs',
    DATA_DIR: keyDir,
    GCS_STAGING_BUCKET: STAGING_BUCKET,
    GCS_MEDIA_BUCKET: MEDIA_BUCKET,
    GCS_PROJECT_ID: 'test-project',
    GOOGLE_APPLICATION_CREDENTIALS: keyFile,
    STORAGE_EMULATOR_HOST: emulator.endpoint,
  });
  inspector = new Storage({ apiEndpoint: emulator.endpoint, projectId: 'test-project' });
});

afterAll(async () => {
  await emulator?.stop();
  if (keyDir) fs.rmSync(keyDir, { recursive: true, force: true });
});

function stagingKey(): string {
  return `staging/${crypto.randomBytes(6).toString('hex')}.jpg`;
}

function jpegBytes(size: number): Buffer {
  return Buffer.concat([JPEG_MAGIC, crypto.randomBytes(size - JPEG_MAGIC.length)]);
}

function sha256(bytes: Buffer | string): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

async function signUpload(key: string, sizeBytes: number, contentType = 'image/jpeg'): Promise<SignedUpload> {
  return (await store.signUpload(key, { contentType, sizeBytes, expiresInSeconds: 900 }));
}

/** What a partner does: PUT the bytes to the signed URL with the headers it was given. */
async function uploadThroughSignedUrl(key: string, bytes: Buffer): Promise<void> {
  const upload = await signUpload(key, bytes.length);
  const res = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
  expect(res.status, await res.text()).toBe(200);
}

/** RFC 3986 percent-encoding, which V4 signing uses for query keys and values. */
function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The V4 string to sign for a request to `signedUrl` carrying `headers` (lower-case names):
 * canonical request -> its SHA-256 -> GOOG4-RSA-SHA256 / date / scope / hash.
 */
function v4StringToSign(signedUrl: URL, method: string, headers: Record<string, string>): string {
  const query = signedUrl.searchParams;
  const signedHeaders = (query.get('X-Goog-SignedHeaders') ?? '').split(';');
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== 'X-Goog-Signature')
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${(headers[name] ?? '').trim()}\n`).join('');
  const canonicalRequest = [method, signedUrl.pathname, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = (query.get('X-Goog-Credential') ?? '').split('/').slice(1).join('/');
  return ['GOOG4-RSA-SHA256', query.get('X-Goog-Date'), scope, sha256(canonicalRequest)].join('\n');
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

describe('GCS object store against the fake-gcs-server emulator', () => {
  it('signs a V4 PUT URL whose signature binds the Content-Type and the exact length and verifies with the service-account key', async () => {
    const key = stagingKey();
    const upload = await signUpload(key, 20_000);
    const url = new URL(upload.url);
    expect(url.origin).toBe(emulator.endpoint);
    expect(url.pathname).toBe(`/${STAGING_BUCKET}/${key}`);
    expect(upload.expiresInSeconds).toBe(900);
    expect(url.searchParams.get('X-Goog-Algorithm')).toBe('GOOG4-RSA-SHA256');
    expect(url.searchParams.get('X-Goog-Expires')).toBe('900');
    expect(url.searchParams.get('X-Goog-Credential')).toMatch(new RegExp(`^${CLIENT_EMAIL}/\\d{8}/auto/storage/goog4_request$`));
    const signedHeaders = (url.searchParams.get('X-Goog-SignedHeaders') ?? '').split(';');
    expect(signedHeaders).toEqual(expect.arrayContaining(['content-type', 'x-goog-content-length-range', 'host']));
    expect(upload.headers).toEqual({ 'Content-Type': 'image/jpeg', 'x-goog-content-length-range': '20000,20000' });

    // The headers the partner sends, plus Host. The library signs the endpoint's host name
    // without the port; for storage.googleapis.com (port 443) that is the Host header itself.
    const sent = { ...lowerCaseKeys(upload.headers), host: url.hostname };
    const stringToSign = v4StringToSign(url, 'PUT', sent);
    const signature = Buffer.from(url.searchParams.get('X-Goog-Signature') ?? '', 'hex');
    expect(crypto.sign('RSA-SHA256', Buffer.from(stringToSign), privateKey).toString('hex')).toBe(signature.toString('hex'));
    expect(crypto.verify('RSA-SHA256', Buffer.from(stringToSign), publicKey, signature)).toBe(true);

    // Any other Content-Type or length, or another method, no longer matches the signature.
    const tampered = [
      v4StringToSign(url, 'PUT', { ...sent, 'content-type': 'image/png' }),
      v4StringToSign(url, 'PUT', { ...sent, 'x-goog-content-length-range': '0,52428800' }),
      v4StringToSign(url, 'GET', sent),
    ];
    for (const s of tampered) expect(crypto.verify('RSA-SHA256', Buffer.from(s), publicKey, signature)).toBe(false);
  });

  it('stores the bytes PUT to a signed URL and reports their size, leading bytes and sha256', async () => {
    const key = stagingKey();
    const bytes = jpegBytes(3000);
    await uploadThroughSignedUrl(key, bytes);

    expect(await store.statStaged(key)).toEqual({ size: 3000 });
    expect(await store.readStagedPrefix(key, 16)).toEqual(bytes.subarray(0, 16));
    expect(await store.readStagedPrefix(key, 4096)).toEqual(bytes); // a prefix longer than the object
    expect(await store.sha256Staged(key)).toBe(sha256(bytes));
    const [meta] = await inspector.bucket(STAGING_BUCKET).file(key).getMetadata();
    expect(meta.contentType).toBe('image/jpeg');
  });

  it('seals the verified generation and refuses to copy it once the staged bytes were replaced', async () => {
    const key = stagingKey();
    const mediaKey = `drafts/${crypto.randomBytes(6).toString('hex')}`;
    const original = jpegBytes(2048);
    await uploadThroughSignedUrl(key, original);
    await store.sealStaged(key, 'pending'); // what verification does before it reads the object
    const hash = await store.sha256Staged(key);
    await store.sealStaged(key, hash);
    expect(await store.isSealed(key)).toBe(true);

    // On GCS the seal's temporary hold refuses this PUT; the emulator does not implement holds,
    // so the replacement lands, and the copy must notice that the sealed generation is gone.
    await uploadThroughSignedUrl(key, jpegBytes(2048));
    expect(await store.isSealed(key)).toBe(false);
    await expect(store.copyToMedia(key, mediaKey, hash)).rejects.toBeInstanceOf(ObjectChangedError);
    expect(await store.statMedia(mediaKey)).toBeNull();
  });

  it('refuses to seal a sha256 that is not the hash of the staged bytes', async () => {
    const key = stagingKey();
    await uploadThroughSignedUrl(key, jpegBytes(1024));
    await expect(store.sealStaged(key, sha256('other bytes'))).rejects.toBeInstanceOf(ObjectChangedError);
    expect(await store.isSealed(key)).toBe(false);
  });

  it('copies the sealed bytes into the media bucket once however often promotion runs, with their sha256 recorded', async () => {
    const key = stagingKey();
    const mediaKey = `drafts/${crypto.randomBytes(6).toString('hex')}`;
    const bytes = jpegBytes(4096);
    await uploadThroughSignedUrl(key, bytes);
    const hash = await store.sha256Staged(key);
    await store.sealStaged(key, hash);

    await store.copyToMedia(key, mediaKey, hash);
    const [first] = await inspector.bucket(MEDIA_BUCKET).file(mediaKey).getMetadata();
    await store.copyToMedia(key, mediaKey, hash); // a retried promotion
    const [second] = await inspector.bucket(MEDIA_BUCKET).file(mediaKey).getMetadata();

    expect(second.generation).toBe(first.generation); // the retry wrote nothing
    expect((await store.listMedia()).filter((k) => k === mediaKey)).toEqual([mediaKey]);
    expect(await store.statMedia(mediaKey)).toEqual({ size: 4096, sha256: sha256(bytes) });
    const [copied] = await inspector.bucket(MEDIA_BUCKET).file(mediaKey).download();
    expect(sha256(copied)).toBe(sha256(bytes));
    expect(second.contentType).toBe('image/jpeg');
    expect(second.metadata).toEqual({ sha256: sha256(bytes) }); // no staging seal leaks into media
  });

  it('renders a draft from the media bucket and keeps its renditions there, under their own prefix, until deleted', async () => {
    const key = stagingKey();
    const mediaKey = `drafts/${crypto.randomBytes(6).toString('hex')}`;
    const bytes = realJpeg(6000);
    await uploadThroughSignedUrl(key, bytes);
    await store.copyToMedia(key, mediaKey, sha256(bytes));

    const renditions = await store.withMediaFile(mediaKey, (file) => makeRenditions(file, 50_000_000));
    expect(renditions.map((r) => r.name)).toEqual(['large', 'small']);
    for (const r of renditions) await store.putRendition(r.key, r.bytes, 'image/webp');
    const [large] = renditions;
    expect((await store.readRendition(large!.key))?.equals(large!.bytes)).toBe(true);
    const [meta] = await inspector.bucket(MEDIA_BUCKET).file(`renditions/${large!.key}`).getMetadata();
    expect(meta.contentType).toBe('image/webp');
    expect(await store.listMedia()).not.toContain(`renditions/${large!.key}`); // drafts only

    await store.deleteRendition(large!.key);
    await store.deleteRendition(large!.key); // deleting a missing one is nothing to do
    expect(await store.readRendition(large!.key)).toBeNull();
  });

  it('copies an unsealed staged object only when its bytes still hash to the given sha256', async () => {
    const key = stagingKey();
    const mediaKey = `drafts/${crypto.randomBytes(6).toString('hex')}`;
    const bytes = jpegBytes(1500);
    await uploadThroughSignedUrl(key, bytes);

    await expect(store.copyToMedia(key, mediaKey, sha256('not these bytes'))).rejects.toBeInstanceOf(ObjectChangedError);
    expect(await store.statMedia(mediaKey)).toBeNull();
    await store.copyToMedia(key, mediaKey, sha256(bytes));
    expect(await store.statMedia(mediaKey)).toEqual({ size: 1500, sha256: sha256(bytes) });
  });

  it('deletes a sealed staged object, and treats deleting or sealing a missing one as nothing to do', async () => {
    const key = stagingKey();
    await uploadThroughSignedUrl(key, jpegBytes(512));
    await store.sealStaged(key, await store.sha256Staged(key));
    await store.deleteStaged(key);
    expect(await store.statStaged(key)).toBeNull();

    const missing = stagingKey();
    await expect(store.deleteStaged(missing)).resolves.toBeUndefined();
    await expect(store.sealStaged(missing, 'pending')).resolves.toBeUndefined();
    expect(await store.isSealed(missing)).toBe(false);
    expect(await store.statStaged(missing)).toBeNull();
    expect(await store.statMedia(`drafts/${crypto.randomBytes(6).toString('hex')}`)).toBeNull();
  });

  it('works without credentials against the emulator but refuses to sign upload URLs without a key file', async () => {
    const keyless = createObjectStore({
      STORAGE_DRIVER: 'gcs',
      DATA_DIR: keyDir,
      GCS_STAGING_BUCKET: STAGING_BUCKET,
      GCS_MEDIA_BUCKET: MEDIA_BUCKET,
      STORAGE_EMULATOR_HOST: emulator.endpoint.replace(/^http:\/\//, ''), // host:port, as often written
    });
    expect(await keyless.statStaged(stagingKey())).toBeNull();
    await expect(keyless.signUpload(stagingKey(), { contentType: 'image/jpeg', sizeBytes: 10, expiresInSeconds: 60 })).rejects.toThrow(
      'signing GCS upload URLs against STORAGE_EMULATOR_HOST needs GOOGLE_APPLICATION_CREDENTIALS',
    );
  });

  it('refuses to open the gcs driver without both bucket names', () => {
    expect(() => createObjectStore({ STORAGE_DRIVER: 'gcs', DATA_DIR: keyDir })).toThrow('STORAGE_DRIVER=gcs needs GCS_STAGING_BUCKET and GCS_MEDIA_BUCKET');
  });
});
