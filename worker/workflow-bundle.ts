// Which workflow code the worker runs. Production runs the bundle `npm run build` wrote
// (WORKFLOW_BUNDLE_PATH, else dist/workflow-bundle.js) and never bundles at start: a bundling
// error belongs to the build, not to a rolling restart. Elsewhere the workflows are bundled once at start.
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ConfigError, PROJECT_ROOT } from '../lib/config';
import type { Logger } from '../lib/logger';
import { WORKFLOWS_PATH, type WorkflowBundle } from './create-worker';

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
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { log: quiet, trace: quiet, debug: quiet, info: quiet, warn: (m) => log.warn(m), error: (m) => log.error(m) } });
  return { code };
}
