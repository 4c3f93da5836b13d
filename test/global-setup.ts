// Once per test run: a real PostgreSQL (embedded) with a migrated template database, a real
// Temporal dev server (the official CLI), and one workflow bundle for every test worker.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { pathVariable, parseConfig, stackConfigSchema } from '../lib/config';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { migrateUp } from '../lib/db/migrate';
import { findTemporalCli } from '../temporal/cli-path';
import { startDevServer } from '../temporal/dev-server';
import { WORKFLOWS_PATH } from '../worker/create-worker';
import { freePort } from '../lib/net/free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
    temporalAddress: string;
    workflowBundlePath: string;
    tmpRoot: string;
  }
}

export default async function setup(project: TestProject) {
  const cfg = parseConfig(stackConfigSchema);
  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-test-'));
  fs.chmodSync(tmpRoot, 0o755); // the unprivileged postgres user must reach its data folder
  const pg = await startEmbeddedPostgres({ dataDir: path.join(tmpRoot, 'pg'), port: await freePort(), database: 'template_intake' });
  await migrateUp(pg.url);

  const cli = findTemporalCli({ explicit: cfg.TEMPORAL_CLI_PATH, pathVar: pathVariable() });
  if (!cli) throw new Error('Temporal CLI not found: run `npm run setup` first');
  const temporal = await startDevServer({ cliPath: cli, port: await freePort(), namespace: 'default' });

  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } });
  const workflowBundlePath = path.join(tmpRoot, 'workflow-bundle.js');
  fs.writeFileSync(workflowBundlePath, code);

  project.provide('pgAdminUrl', pg.url.replace(/\/template_intake$/, '/postgres'));
  project.provide('templateDb', 'template_intake');
  project.provide('temporalAddress', temporal.address);
  project.provide('workflowBundlePath', workflowBundlePath);
  project.provide('tmpRoot', tmpRoot);

  return async () => {
    await temporal.stop();
    await pg.stop();
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  };
}
