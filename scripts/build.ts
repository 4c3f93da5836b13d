// npm run build: what production runs, with plain node and no TypeScript at run time.
//   1. type-check (tsc --noEmit, the whole project);
//   2. bundle each production entry point with esbuild into dist/ (ESM for Node 24, dependencies
//      left in node_modules): dist/api/main.js, dist/worker/main.js, dist/scripts/{migrate,iam}.js;
//   3. bundle the workflows once (bundleWorkflowCode) into dist/workflow-bundle.js, the code the
//      production worker loads instead of bundling at start;
//   4. the partner portal's page (api/portal/web, Preact + TSX, type-checked with its own
//      tsconfig for the browser) into dist/portal/app.js, and the review console's (api/console/web,
//      the same way) into the hashed dist/console/app-<hash>.js named by dist/console/manifest.json;
//   5. dist/build-info.json: the build id (a hash of everything built, so an unchanged build keeps
//      its id, in any folder on any machine: nothing built names the folder it was built in), the
//      worker's version when worker versioning is on (worker/versioning.ts).
// Files read by path at run time (migrations/, api/docs, the pages' stylesheets, the HEIC decode
// worker) stay where they are: PROJECT_ROOT (lib/project-root.ts) finds them from dist/ too.
// Any error fails the build (exit 1) and leaves no half-written dist/.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { build } from 'esbuild';
import { parseCli } from '../lib/cli';
import { PROJECT_ROOT } from '../lib/config';
import { WORKFLOW_BUNDLE_OPTIONS } from '../worker/create-worker';
import { withoutInlineSourceMap, withProjectRelativeSourceMap } from '../worker/workflow-bundle';
import { BUILD_INFO_FILE, type BuildInfo } from '../worker/versioning';
import { portalBundleOptions } from '../api/portal/page';
import { bundleFileName, consoleBundleOptions, CONSOLE_MANIFEST } from '../api/console/page';

export const ENTRY_POINTS = ['api/main.ts', 'worker/main.ts', 'classifier/main.ts', 'scripts/migrate.ts', 'scripts/iam.ts'] as const;

const { values } = parseCli('Type-check, bundle the entry points into dist/ and the workflows into dist/workflow-bundle.js.', 'npm run build --', {
  options: { 'skip-typecheck': { type: 'boolean', default: false, description: 'bundle only (the test suite type-checks separately)' } },
});
const DIST = path.join(PROJECT_ROOT, 'dist');
const say = (line: string) => process.stdout.write(`[build] ${line}\n`);

function typecheck(project = 'tsconfig.json'): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path.join(PROJECT_ROOT, project)], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`type check failed (${project})`);
}

/** sha256 over every built file (path and bytes, in path order; no source map), shortened: the same code, the same id. */
function buildIdOf(dir: string): string {
  const hash = crypto.createHash('sha256');
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile() && !f.endsWith('.map')).sort();
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(dir, f));
    hash.update(f).update('\0').update(f === 'workflow-bundle.js' ? withoutInlineSourceMap(bytes.toString('utf8')) : bytes).update('\0');
  }
  return `b-${hash.digest('hex').slice(0, 16)}`;
}

async function main(): Promise<void> {
  const started = Date.now();
  if (!values['skip-typecheck']) {
    say('type check (tsc --noEmit; the portal page with its browser tsconfig)');
    typecheck();
    typecheck('api/portal/web/tsconfig.json');
    typecheck('api/console/web/tsconfig.json');
  }
  const staging = fs.mkdtempSync(path.join(PROJECT_ROOT, '.dist-'));
  try {
    say(`bundling ${ENTRY_POINTS.join(', ')}`);
    const result = await build({
      entryPoints: ENTRY_POINTS.map((e) => path.join(PROJECT_ROOT, e)),
      outbase: PROJECT_ROOT,
      outdir: staging,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      packages: 'external',
      sourcemap: true,
      logLevel: 'warning',
    });
    if (result.errors.length || result.warnings.length) throw new Error(`esbuild: ${result.errors.length} errors, ${result.warnings.length} warnings`);

    say('bundling the workflows (bundleWorkflowCode)');
    const quiet = () => {};
    const { code } = await bundleWorkflowCode({
      ...WORKFLOW_BUNDLE_OPTIONS,
      logger: { log: quiet, trace: quiet, debug: quiet, info: quiet, warn: (m) => say(`workflow bundle: ${m}`), error: (m) => say(`workflow bundle: ${m}`) },
    });
    fs.writeFileSync(path.join(staging, 'workflow-bundle.js'), withProjectRelativeSourceMap(code, PROJECT_ROOT));
    say('bundling the partner portal page');
    const page = await build({ ...portalBundleOptions, outfile: path.join(staging, 'portal', 'app.js') });
    if (page.errors.length || page.warnings.length) throw new Error(`esbuild (portal page): ${page.errors.length} errors, ${page.warnings.length} warnings`);
    say('bundling the review console (a hashed asset)');
    const consolePage = await build({ ...consoleBundleOptions, write: false });
    if (consolePage.errors.length || consolePage.warnings.length) throw new Error(`esbuild (console): ${consolePage.errors.length} errors, ${consolePage.warnings.length} warnings`);
    const consoleJs = consolePage.outputFiles[0]!.text;
    const consoleFile = bundleFileName(consoleJs);
    fs.mkdirSync(path.join(staging, 'console'), { recursive: true });
    fs.writeFileSync(path.join(staging, 'console', consoleFile), consoleJs);
    fs.writeFileSync(path.join(staging, 'console', CONSOLE_MANIFEST), JSON.stringify({ file: consoleFile }) + '\n');
    const info: BuildInfo = { buildId: buildIdOf(staging), builtAt: new Date().toISOString() };
    fs.writeFileSync(path.join(staging, BUILD_INFO_FILE), JSON.stringify(info, null, 2) + '\n');
    say(`build id ${info.buildId}`);

    fs.rmSync(DIST, { recursive: true, force: true });
    fs.renameSync(staging, DIST);
    fs.chmodSync(DIST, 0o755); // mkdtemp made it private
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  say(`dist/ ready in ${((Date.now() - started) / 1000).toFixed(1)} s: node dist/api/main.js, node dist/worker/main.js (NODE_ENV=production loads dist/workflow-bundle.js)`);
}

try {
  await main();
} catch (err) {
  process.stderr.write(`[build] failed: ${(err as Error).message}\n`);
  process.exit(1);
}
