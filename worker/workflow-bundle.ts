// Which workflow code the worker runs. Production runs the bundle `npm run build` wrote
// (WORKFLOW_BUNDLE_PATH, else dist/workflow-bundle.js) and never bundles at start: a bundling
// error belongs to the build, not to a rolling restart. Elsewhere the workflows are bundled once at start.
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ConfigError, PROJECT_ROOT } from '../lib/config';
import type { Logger } from '../lib/logger';
import { WORKFLOW_BUNDLE_OPTIONS, type WorkflowBundle } from './create-worker';

export const DEFAULT_WORKFLOW_BUNDLE = path.join(PROJECT_ROOT, 'dist', 'workflow-bundle.js');

export async function resolveWorkflowBundle(cfg: { NODE_ENV: string; WORKFLOW_BUNDLE_PATH?: string | undefined }, log: Logger): Promise<WorkflowBundle> {
  const production = cfg.NODE_ENV === 'production';
  const given = cfg.WORKFLOW_BUNDLE_PATH ?? (production ? DEFAULT_WORKFLOW_BUNDLE : undefined);
  if (given) {
    if (fs.existsSync(given)) return { codePath: path.resolve(given) };
    throw new ConfigError([
      {
        variable: 'WORKFLOW_BUNDLE_PATH',
        message: `no workflow bundle at ${given}: run \`npm run build\` (it writes dist/workflow-bundle.js) or point WORKFLOW_BUNDLE_PATH at the bundle${production ? '; a production worker never bundles at start' : ''}`,
      },
    ]);
  }
  log.info('bundling the workflows at start (production uses the prebuilt bundle of npm run build)');
  const quiet = () => {};
  const { code } = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: { log: quiet, trace: quiet, debug: quiet, info: quiet, warn: (m) => log.warn(m), error: (m) => log.error(m) } });
  return { code };
}

const INLINE_MAP = '//# sourceMappingURL=data:application/json;charset=utf-8;base64,';

/**
 * The workflow bundle's inline source map names the files it was built from by absolute path (the
 * bundler's generated entry requires the workflows by it) and the bundle by a random name: rewritten
 * relative to the project, so the same commit bundles to the same bytes in any folder, and so keeps
 * its build id.
 */
export function withProjectRelativeSourceMap(code: string, root: string): string {
  // (Its mappings still differ by folder: the generated entry's columns move with the path's length.
  // The build id leaves the map out, as it leaves out esbuild's .map files: withoutInlineSourceMap.)
  const at = code.lastIndexOf(INLINE_MAP);
  if (at < 0) return code;
  const end = code.indexOf('\n', at);
  const encoded = code.slice(at + INLINE_MAP.length, end < 0 ? undefined : end);
  const text = Buffer.from(encoded, 'base64').toString('utf8').replaceAll(JSON.stringify(root + path.sep).slice(1, -1), '');
  // The bundler names its output with a random suffix; the file it maps is always this one.
  const map = JSON.stringify({ ...(JSON.parse(text) as object), file: 'workflow-bundle.js' });
  return code.slice(0, at) + INLINE_MAP + Buffer.from(map, 'utf8').toString('base64') + (end < 0 ? '' : code.slice(end));
}

/** The code of a bundle without its inline source map: what the build id hashes. */
export function withoutInlineSourceMap(code: string): string {
  const at = code.lastIndexOf(INLINE_MAP);
  return at < 0 ? code : code.slice(0, at);
}
