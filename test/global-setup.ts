// Once per test run: a real PostgreSQL (embedded) with a migrated template database, a real
// Temporal dev server (the official CLI), and one workflow bundle for every test worker. The
// PostgreSQL and Temporal pieces come from the one stack launcher (scripts/stack.ts), without the
// API and worker processes: each test starts its own in-process slice (test/helpers/stack.ts).
import type { TemporalClientTls } from '../temporal/cluster-tls';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { parseConfig, stackConfigSchema } from '../lib/config';
import { launchStack, tempStackDir } from '../scripts/stack';
import { WORKFLOW_BUNDLE_OPTIONS } from '../worker/create-worker';
import { TEMPORAL_SERVER_DIR, temporalServerAt } from '../scripts/tools/temporal-server';

/** The pinned real server, built by `npm run setup -- --only temporal-server`. */
function builtTemporalServer() {
  const bin = temporalServerAt(TEMPORAL_SERVER_DIR);
  if (!bin) throw new Error(`TEST_TEMPORAL=server: no build in ${TEMPORAL_SERVER_DIR}; npm run setup -- --only temporal-server`);
  return bin;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
    temporalAddress: string;
    /** With TEST_TEMPORAL=server: the real server's mTLS, the client certificate the tests' processes present (null: plain). */
    temporalTls: TemporalClientTls | null;
    workflowBundlePath: string;
    tmpRoot: string;
  }
}

export default async function setup(project: TestProject) {
  const cfg = parseConfig(stackConfigSchema);
  const tmpRoot = tempStackDir('intake-test-');
  const removeTmp = () => fs.rmSync(tmpRoot, { recursive: true, force: true });
  const stack = await launchStack({
    dataDir: tmpRoot,
    postgres: { embedded: { dir: path.join(tmpRoot, 'pg'), database: 'template_intake' } },
    // TEST_TEMPORAL=server: the real Temporal server (test/e2e/real-temporal.test.ts runs files so).
    temporal: process.env.TEST_TEMPORAL === 'server' ? { server: { bin: builtTemporalServer(), dir: path.join(tmpRoot, 'temporal-server') } } : { embedded: { cliPath: cfg.TEMPORAL_CLI_PATH, namespace: 'default' } },
    processes: false,
  }).catch((err: unknown) => {
    removeTmp();
    throw err;
  });

  const workflowBundlePath = path.join(tmpRoot, 'workflow-bundle.js');
  try {
    const { code } = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } });
    fs.writeFileSync(workflowBundlePath, code);
  } catch (err) {
    await stack.stop();
    removeTmp();
    throw err;
  }

  project.provide('pgAdminUrl', stack.databaseUrl.replace(/\/template_intake$/, '/postgres'));
  project.provide('templateDb', 'template_intake');
  project.provide('temporalAddress', stack.temporalAddress);
  project.provide('temporalTls', stack.temporalTls ?? null);
  project.provide('workflowBundlePath', workflowBundlePath);
  project.provide('tmpRoot', tmpRoot);

  return async () => {
    await stack.stop();
    removeTmp();
  };
}
