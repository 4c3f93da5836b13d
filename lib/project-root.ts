// Where the project lives: a leaf, so lib modules that read their own files find them without the
// configuration (lib/config re-exports it for everyone else).
import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder holding package.json: files read at run time by path (migrations/, api/docs,
 * api/console/web/console.css, lib/media/heic-decode-worker.mjs) are found from here, whether this module runs
 * from source (lib/project-root.ts under tsx) or bundled into dist/<entry>.js by `npm run build`.
 */
export const PROJECT_ROOT = projectRoot(import.meta.dirname);
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}
