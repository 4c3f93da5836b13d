import path from 'node:path';
import { GcsObjectStore } from './gcs';
import { LocalObjectStore } from './local';
import type { ObjectStore } from './types';

export interface StorageSettings {
  STORAGE_DRIVER: 'local' | 'gcs';
  STORAGE_LOCAL_DIR?: string | undefined;
  DATA_DIR: string;
  GCS_STAGING_BUCKET?: string | undefined;
  GCS_MEDIA_BUCKET?: string | undefined;
  GCS_PROJECT_ID?: string | undefined;
  GOOGLE_APPLICATION_CREDENTIALS?: string | undefined;
  STORAGE_EMULATOR_HOST?: string | undefined;
}

export function localStorageDir(cfg: StorageSettings): string {
  return cfg.STORAGE_LOCAL_DIR ?? path.join(cfg.DATA_DIR, 'objects');
}

/** The worker's store (no URL signing needed). */
export function createObjectStore(cfg: StorageSettings, signing?: { baseUrl: string; secret: string }): ObjectStore {
  if (cfg.STORAGE_DRIVER === 'gcs') return createGcsObjectStore(cfg);
  return new LocalObjectStore(localStorageDir(cfg), signing);
}

/**
 * GCS signs its own upload URLs with the service-account key, so the API's HMAC signing settings
 * do not apply. Credentials: GOOGLE_APPLICATION_CREDENTIALS, else Application Default Credentials.
 */
function createGcsObjectStore(cfg: StorageSettings): GcsObjectStore {
  const { GCS_STAGING_BUCKET: stagingBucket, GCS_MEDIA_BUCKET: mediaBucket } = cfg;
  if (!stagingBucket || !mediaBucket) {
    const missing = [!stagingBucket && 'GCS_STAGING_BUCKET', !mediaBucket && 'GCS_MEDIA_BUCKET'].filter(Boolean);
    throw new Error(`STORAGE_DRIVER=gcs needs ${missing.join(' and ')}`);
  }
  return new GcsObjectStore({
    stagingBucket,
    mediaBucket,
    projectId: cfg.GCS_PROJECT_ID,
    keyFilename: cfg.GOOGLE_APPLICATION_CREDENTIALS,
    apiEndpoint: cfg.STORAGE_EMULATOR_HOST,
  });
}
