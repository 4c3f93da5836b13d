// Keys and secrets of the processes: a 32-byte key as configured (WEBHOOK_SECRET_KEY,
// TEMPORAL_PAYLOAD_KEYS entries), and the embedded stack's generated ones kept under DATA_DIR/secrets.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The length of every configured key (AES-256). */
export const SECRET_KEY_BYTES = 32;

/** 32 bytes given as 64 hex digits or as base64 / base64url (`openssl rand -base64 32`); undefined otherwise. */
export function parseSecretKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) return undefined;
  const key = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === SECRET_KEY_BYTES ? key : undefined;
}

/** A comma list of keys (WEBHOOK_SECRET_PREVIOUS_KEYS); undefined when one of them is not a key. */
export function parseSecretKeys(text: string): Buffer[] | undefined {
  const keys = text.split(',').map((k) => k.trim()).filter(Boolean).map(parseSecretKey);
  return keys.every((k) => k !== undefined) ? (keys as Buffer[]) : undefined;
}

/**
 * The content of DATA_DIR/secrets/<name>, created on first use with `make()` (embedded default only;
 * never in git). Several processes may start at once (the API replicas, the worker): a new file
 * is written whole under a temporary name, then linked into place, which fails if another process
 * got there first (then theirs is used). No reader ever sees a file half written: one written in
 * place could be read empty by a replica starting in the same instant (it failed one launch in 13).
 */
export function loadOrCreateFile(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, 'secrets', name);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = make();
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, value, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
    return value;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8');
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** A random secret kept under the data folder, created on first use. Embedded default only. */
export function loadOrCreateSecret(dataDir: string, name: string, bytes = 48): string {
  return loadOrCreateFile(dataDir, name, () => crypto.randomBytes(bytes).toString('base64url')).trim();
}
