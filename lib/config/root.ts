// Where the project lives and what the embedded stack listens on: the defaults the schemas and
// the derived addresses start from.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder holding package.json: files read at run time by path (migrations/, api/docs,
 * api/console/web/console.css, lib/media/heic-decode-worker.mjs) are found from here, whether this module runs
 * from source (lib/config/root.ts under tsx) or bundled into dist/<entry>.js by `npm run build`.
 */
export const PROJECT_ROOT = projectRoot(import.meta.dirname);
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}
export const DATA_DIR_DEFAULT = path.join(PROJECT_ROOT, '.data');

/** Embedded defaults (what `npm start` launches) so a process started alone on a dev machine finds them. */
export const EMBEDDED_DEFAULTS = {
  apiPort: 3000,
  postgresPort: 54329,
  databaseUrl: 'postgres://postgres:postgres@127.0.0.1:54329/intake',
  temporalAddress: '127.0.0.1:7233',
  temporalUiPort: 8233,
} as const;
