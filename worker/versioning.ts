// Worker Deployment Versions (Temporal's worker versioning). With WORKER_DEPLOYMENT_NAME set, both
// workers of the process poll as the version (deployment name, build id), and the server hands new
// workflows, and the next task of every AUTO_UPGRADE workflow, to the deployment's current version.
// The build id comes from the build: `npm run build` writes dist/build-info.json beside the workflow
// bundle, its id a hash of what it built, so a release that changes nothing keeps its id.
// The behaviour is declared once, here, for every workflow the workers run: AUTO_UPGRADE. A
// submission waits days for review; pinning would keep every old worker running until the last
// waiting review ends. With AUTO_UPGRADE a running workflow moves to the current version at its
// next task, so a change to workflow code must replay the old histories (patched(); the recorded
// histories in test/replay guard that). The endpoint delivery workflows (alive while an endpoint
// has deliveries), the per-submission lanes still draining and the artist resolutions (seconds
// long) follow the same rule.
// It is declared as the worker's default rather than per workflow with setWorkflowOptions: tried,
// an unversioned worker (the embedded stack, the tests) then fails every workflow task ("versioning
// behavior cannot be specified without deployment options being set with versioned mode").
// docs/on-call.md gives the rollout and rollback steps.
import fs from 'node:fs';
import path from 'node:path';
import type { WorkerDeploymentOptions } from '@temporalio/worker';
import { ConfigError } from '../lib/config';
import type { WorkflowBundle } from './create-worker';

export const BUILD_INFO_FILE = 'build-info.json';

/** How every workflow of ours behaves across a version change (see above). */
export const VERSIONING_BEHAVIOR = 'AUTO_UPGRADE' as const;

export interface BuildInfo {
  buildId: string;
  builtAt: string;
}

/** The build's id, from build-info.json beside a prebuilt bundle; undefined for a bundle made at start. */
export function buildInfoOf(bundle: WorkflowBundle): BuildInfo | undefined {
  if (!('codePath' in bundle)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(bundle.codePath), BUILD_INFO_FILE), 'utf8')) as BuildInfo;
  } catch {
    return undefined;
  }
}

/** The worker's deployment version, when versioning is on (WORKER_DEPLOYMENT_NAME). */
export function deploymentOptionsOf(
  cfg: { WORKER_DEPLOYMENT_NAME?: string | undefined; WORKER_BUILD_ID?: string | undefined },
  bundle: WorkflowBundle,
): WorkerDeploymentOptions | undefined {
  if (!cfg.WORKER_DEPLOYMENT_NAME) return undefined;
  const buildId = cfg.WORKER_BUILD_ID ?? buildInfoOf(bundle)?.buildId;
  if (!buildId) {
    throw new ConfigError([
      {
        variable: 'WORKER_BUILD_ID',
        message: `WORKER_DEPLOYMENT_NAME needs a build id: run \`npm run build\` (it writes dist/${BUILD_INFO_FILE} beside the workflow bundle) or set WORKER_BUILD_ID`,
      },
    ]);
  }
  return { version: { deploymentName: cfg.WORKER_DEPLOYMENT_NAME, buildId }, useWorkerVersioning: true, defaultVersioningBehavior: VERSIONING_BEHAVIOR };
}
