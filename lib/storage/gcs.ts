// Google Cloud Storage driver: a staging bucket that partners write to through V4 signed PUT URLs,
// and a private media bucket that only the worker writes to. Nothing here makes an object public:
// no ACL is ever set, so both buckets keep their (private, uniform) access settings.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Storage, type Bucket, type File, type FileMetadata, type StorageOptions } from '@google-cloud/storage';
import { ObjectChangedError, type ObjectStore, type PreviewSize, type SignedUpload } from './types';

export interface GcsSettings {
  stagingBucket: string;
  mediaBucket: string;
  projectId?: string | undefined;
  /** Path of a service-account key file (GOOGLE_APPLICATION_CREDENTIALS). */
  keyFilename?: string | undefined;
  /** Emulator or private endpoint (STORAGE_EMULATOR_HOST); requests to it are not authenticated. */
  apiEndpoint?: string | undefined;
}

/** What a partner must send with the PUT: every header the signature covers besides Host. */
// Custom metadata keys. The seal lives on the staged object itself, so any worker can read it.
const SEAL_SHA256 = 'sealedSha256';
const SEAL_GENERATION = 'sealedGeneration';
const MEDIA_SHA256 = 'sha256';
const SHA256_HEX = /^[0-9a-f]{64}$/;
// Hashes by (key, generation) are facts that never go stale: a generation's bytes are immutable.
const HASH_CACHE_LIMIT = 1000;

export class GcsObjectStore implements ObjectStore {
  readonly driver = 'gcs' as const;
  private readonly staging: Bucket;
  private readonly media: Bucket;
  private readonly hashes = new Map<string, string>();
  // Against an emulator the library would otherwise look for Application Default Credentials
  // (probing the cloud metadata server) the first time it signs.
  private readonly signingKeyMissing: boolean;

  constructor(settings: GcsSettings) {
    const storage = new Storage(storageOptions(settings));
    this.signingKeyMissing = Boolean(settings.apiEndpoint) && !settings.keyFilename;
    this.staging = storage.bucket(settings.stagingBucket);
    this.media = storage.bucket(settings.mediaBucket);
  }

  async signUpload(key: string, o: { contentType: string; sizeBytes: number; expiresInSeconds: number }): Promise<SignedUpload> {
    if (this.signingKeyMissing) throw new Error('signing GCS upload URLs against STORAGE_EMULATOR_HOST needs GOOGLE_APPLICATION_CREDENTIALS');
    // GCS refuses a PUT whose body is outside the signed range, so the exact declared size is the
    // only length the URL accepts; Content-Type is signed as well.
    const lengthRange = `${o.sizeBytes},${o.sizeBytes}`;
    const [url] = await this.staging.file(key).getSignedUrl({
      version: 'v4',
      action: 'write',
      expires: Date.now() + o.expiresInSeconds * 1000,
      contentType: o.contentType,
      extensionHeaders: { 'x-goog-content-length-range': lengthRange },
    });
    return {
      url,
      expiresInSeconds: o.expiresInSeconds,
      headers: { 'Content-Type': o.contentType, 'x-goog-content-length-range': lengthRange },
    };
  }

  async statStaged(key: string): Promise<{ size: number } | null> {
    const meta = await metadataOrNull(this.staging.file(key));
    return meta ? { size: Number(meta.size) } : null;
  }

  async readStagedPrefix(key: string, bytes: number): Promise<Buffer> {
    if (bytes <= 0) return Buffer.alloc(0);
    // `end` is inclusive; GCS answers a range past the end with the bytes that exist.
    const [buf] = await this.staging.file(key).download({ start: 0, end: bytes - 1 });
    return buf;
  }

  async sha256Staged(key: string): Promise<string> {
    const [meta] = await this.staging.file(key).getMetadata();
    return this.hashGeneration(key, generationOf(meta));
  }

  async withStagedFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    return withDownload(this.staging, key, fn);
  }

  /**
   * Pin the live generation: record it (with the hash) in the object's own metadata and put a
   * temporary hold on it, so GCS refuses to replace or delete those bytes until the hold is
   * released. A value that is not a sha256 digest (the activity's 'pending') only pins; a digest
   * must be the hash of exactly the pinned generation, or the seal is refused.
   */
  async sealStaged(key: string, sha256: string): Promise<void> {
    const meta = await metadataOrNull(this.staging.file(key));
    if (!meta) {
      if (SHA256_HEX.test(sha256)) throw new ObjectChangedError(key); // hashed bytes are gone
      return; // nothing uploaded yet: verification reports object_missing
    }
    const generation = generationOf(meta);
    if (SHA256_HEX.test(sha256) && (await this.hashGeneration(key, generation)) !== sha256) {
      throw new ObjectChangedError(key);
    }
    try {
      await this.staging.file(key).setMetadata(
        { temporaryHold: true, metadata: { [SEAL_SHA256]: sha256, [SEAL_GENERATION]: generation } },
        { ifGenerationMatch: generation },
      );
    } catch (err) {
      if (statusOf(err) === 412 || statusOf(err) === 404) throw new ObjectChangedError(key);
      throw err;
    }
  }

  async isSealed(key: string): Promise<boolean> {
    const meta = await metadataOrNull(this.staging.file(key));
    // A replacement upload starts with empty metadata, so a seal only counts for its generation.
    return meta !== null && meta.metadata?.[SEAL_GENERATION] === generationOf(meta);
  }

  async deleteStaged(key: string): Promise<void> {
    await this.releaseHold(key);
    await this.staging.file(key).delete({ ignoreNotFound: true });
  }

  async copyToMedia(stagingKey: string, mediaKey: string, sha256: string): Promise<void> {
    const existing = await metadataOrNull(this.media.file(mediaKey));
    if (existing?.metadata?.[MEDIA_SHA256] === sha256) {
      await this.releaseHold(stagingKey); // an earlier attempt copied but may have died before this
      return;
    }
    const source = await this.verifiedSource(stagingKey, sha256);
    try {
      await this.staging.file(stagingKey, { generation: source.generation }).copy(this.media.file(mediaKey), {
        contentType: source.contentType,
        metadata: { [MEDIA_SHA256]: sha256 },
        // Create-only (or replace exactly what we just looked at): two racing attempts write once.
        preconditionOpts: { ifGenerationMatch: existing ? generationOf(existing) : 0 },
      });
    } catch (err) {
      if (statusOf(err) === 404) throw new ObjectChangedError(stagingKey); // that generation is gone
      // 412: a concurrent attempt wrote first; fine if it wrote the same bytes.
      const sameCopyExists = statusOf(err) === 412 && (await this.statMedia(mediaKey))?.sha256 === sha256;
      if (!sameCopyExists) throw err;
    }
    // The approved bytes now live in the media bucket; let lifecycle rules clean up staging.
    await this.releaseHold(stagingKey);
  }

  async statMedia(key: string): Promise<{ size: number; sha256: string } | null> {
    const meta = await metadataOrNull(this.media.file(key));
    if (!meta) return null;
    const recorded = meta.metadata?.[MEDIA_SHA256];
    // Objects this driver copied carry their hash; anything else is hashed on demand.
    const sha256 = typeof recorded === 'string' ? recorded : await sha256Of(this.media.file(key, { generation: generationOf(meta) }));
    return { size: Number(meta.size), sha256 };
  }

  async putPreview(stagingKey: string, size: PreviewSize, bytes: Buffer): Promise<void> {
    await this.staging.file(previewName(stagingKey, size)).save(bytes, { contentType: 'image/webp', resumable: false });
  }

  async readPreview(stagingKey: string, size: PreviewSize): Promise<Buffer | null> {
    return downloadOrNull(this.staging.file(previewName(stagingKey, size)));
  }

  async deletePreviews(stagingKey: string): Promise<void> {
    for (const size of ['thumb', 'large'] as const) await this.staging.file(previewName(stagingKey, size)).delete({ ignoreNotFound: true });
  }

  async withMediaFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    return withDownload(this.media, key, fn);
  }

  async putRendition(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.media.file(renditionName(key)).save(bytes, { contentType, resumable: false });
  }

  async readRendition(key: string): Promise<Buffer | null> {
    return downloadOrNull(this.media.file(renditionName(key)));
  }

  async deleteRendition(key: string): Promise<void> {
    await this.media.file(renditionName(key)).delete({ ignoreNotFound: true });
  }

  async listMedia(): Promise<string[]> {
    const [files] = await this.media.getFiles();
    return files.map((f) => f.name).filter((name) => !name.startsWith('renditions/'));
  }

  /**
   * The generation to copy: the live one, provided it still is the sealed one with this hash
   * (or, for an unsealed object, provided its bytes hash to sha256).
   */
  private async verifiedSource(key: string, sha256: string): Promise<{ generation: string; contentType: string }> {
    const meta = await metadataOrNull(this.staging.file(key));
    if (!meta) throw new ObjectChangedError(key);
    const generation = generationOf(meta);
    const seal = meta.metadata ?? {};
    const sealedHere = seal[SEAL_GENERATION] === generation && seal[SEAL_SHA256] === sha256;
    if (!sealedHere && (await this.hashGeneration(key, generation)) !== sha256) throw new ObjectChangedError(key);
    return { generation, contentType: meta.contentType ?? 'application/octet-stream' };
  }

  private async hashGeneration(key: string, generation: string): Promise<string> {
    const cacheKey = `${key}#${generation}`;
    const cached = this.hashes.get(cacheKey);
    if (cached) return cached;
    const sha256 = await sha256Of(this.staging.file(key, { generation }));
    this.rememberHash(cacheKey, sha256);
    return sha256;
  }

  private rememberHash(cacheKey: string, sha256: string): void {
    if (this.hashes.size >= HASH_CACHE_LIMIT) {
      const oldest = this.hashes.keys().next().value;
      if (oldest !== undefined) this.hashes.delete(oldest);
    }
    this.hashes.set(cacheKey, sha256);
  }

  private async releaseHold(key: string): Promise<void> {
    try {
      await this.staging.file(key).setMetadata({ temporaryHold: false });
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
    }
  }
}

function storageOptions(s: GcsSettings): StorageOptions {
  const options: StorageOptions = {};
  if (s.projectId) options.projectId = s.projectId;
  // Without a key file the library falls back to Application Default Credentials.
  if (s.keyFilename) options.keyFilename = s.keyFilename;
  if (s.apiEndpoint) options.apiEndpoint = emulatorEndpoint(s.apiEndpoint);
  return options;
}

/** STORAGE_EMULATOR_HOST is often written as host:port; emulators speak plain HTTP. */
function emulatorEndpoint(hostOrUrl: string): string {
  return /^https?:\/\//.test(hostOrUrl) ? hostOrUrl.replace(/\/+$/, '') : `http://${hostOrUrl}`;
}

async function metadataOrNull(file: File): Promise<FileMetadata | null> {
  try {
    const [meta] = await file.getMetadata();
    return meta;
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw err;
  }
}

/** Previews live in the (private) staging bucket, beside the staged object. */
const previewName = (stagingKey: string, size: PreviewSize) => `previews/${stagingKey}/${size}.webp`;

/** Public renditions live in the (private) media bucket under their own prefix; the API serves them. */
const renditionName = (key: string) => `renditions/${key}`;

/** Run fn on a temporary download of the generation live now (a later overwrite cannot change what fn reads). */
async function withDownload<T>(bucket: Bucket, key: string, fn: (file: string) => Promise<T>): Promise<T> {
  const [meta] = await bucket.file(key).getMetadata();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'object-'));
  const file = path.join(dir, 'object');
  try {
    await pipeline(bucket.file(key, { generation: generationOf(meta) }).createReadStream(), fs.createWriteStream(file));
    return await fn(file);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

async function downloadOrNull(file: File): Promise<Buffer | null> {
  try {
    const [buf] = await file.download();
    return buf;
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw err;
  }
}

function generationOf(meta: FileMetadata): string {
  if (meta.generation === undefined) throw new Error('GCS returned an object without a generation');
  return String(meta.generation);
}

async function sha256Of(file: File): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(file.createReadStream(), hash);
  return hash.digest('hex');
}

function statusOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}
