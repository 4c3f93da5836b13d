import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

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
