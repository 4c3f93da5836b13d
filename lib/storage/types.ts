export interface SignedUpload {
  url: string;
  expiresInSeconds: number;
  /** Headers the PUT must carry exactly as given (they are part of what was signed). */
  headers: Record<string, string>;
}

export type PreviewSize = 'thumb' | 'large';

/** Object storage for staged uploads, the private media store and its public renditions. Both drivers are idempotent. */
export interface ObjectStore {
  readonly driver: 'local' | 'gcs';
  signUpload(key: string, o: { contentType: string; sizeBytes: number; expiresInSeconds: number }): Promise<SignedUpload>;
  statStaged(key: string): Promise<{ size: number } | null>;
  readStagedPrefix(key: string, bytes: number): Promise<Buffer>;
  sha256Staged(key: string): Promise<string>;
  /** Run `fn` on a local file holding the staged bytes (the file itself locally, a temporary download on GCS). */
  withStagedFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T>;
  /** After verification the staged bytes can no longer be replaced. */
  sealStaged(key: string, sha256: string): Promise<void>;
  isSealed(key: string): Promise<boolean>;
  deleteStaged(key: string): Promise<void>;
  /** Copy staged bytes into the private media store, only if they still hash to sha256. */
  copyToMedia(stagingKey: string, mediaKey: string, sha256: string): Promise<void>;
  statMedia(key: string): Promise<{ size: number; sha256: string } | null>;
  /** Private review previews beside the staged object (never public, never in the media store). */
  putPreview(stagingKey: string, size: PreviewSize, bytes: Buffer): Promise<void>;
  readPreview(stagingKey: string, size: PreviewSize): Promise<Buffer | null>;
  deletePreviews(stagingKey: string): Promise<void>;
  /** Keys of the drafts in the media store (renditions are not listed). */
  listMedia(): Promise<string[]>;
  /** Run `fn` on a local file holding a media-store object (a temporary download on GCS). */
  withMediaFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T>;
  /**
   * Public renditions (re-encoded, metadata-free) under content-addressed keys. They live in the
   * private media store too: the API answers their URLs itself, nothing is publicly readable.
   */
  putRendition(key: string, bytes: Buffer, contentType: string): Promise<void>;
  readRendition(key: string): Promise<Buffer | null>;
  deleteRendition(key: string): Promise<void>;
}

export class ObjectChangedError extends Error {
  constructor(key: string) {
    super(`staged object ${key} no longer matches its verified hash`);
    this.name = 'ObjectChangedError';
  }
}
