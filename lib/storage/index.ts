import path from 'node:path';
import { LocalObjectStore } from './local';
import type { ObjectStore } from './types';

export interface StorageSettings {
  STORAGE_DRIVER: 'local' | 'gcs';
  STORAGE_LOCAL_DIR?: string | undefined;
  DATA_DIR: string;
}

export function localStorageDir(cfg: StorageSettings): string {
  return cfg.STORAGE_LOCAL_DIR ?? path.join(cfg.DATA_DIR, 'objects');
}

/** The worker's store (no URL signing needed). */
export function createObjectStore(cfg: StorageSettings, signing?: { baseUrl: string; secret: string }): ObjectStore {
  if (cfg.STORAGE_DRIVER === 'gcs') throw new Error('STORAGE_DRIVER=gcs is not available in this build yet');
  return new LocalObjectStore(localStorageDir(cfg), signing);
}
