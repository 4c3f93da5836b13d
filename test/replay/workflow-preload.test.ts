// The workflow bundle's preloaded libraries (worker/create-worker.ts WORKFLOW_BUNDLE_OPTIONS,
// workflows/preload.ts): loaded once per workflow thread and frozen, shared by every run in it.
// Two ways this breaks silently: the bundler drops a preload it thinks has no side effects (the
// package-name list compiled to `0;`, and every run evaluated zod and rebuilt Ed25519's base table
// again), or a shared library still writes its own state when a run first uses it (zod sets its
// global configuration on its first schema: on a frozen module every workflow task failed).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../worker/create-worker';

describe('the workflow bundle preloads its libraries', () => {
  it('requires workflows/preload.ts in its preload step (not a module the bundler may drop)', () => {
    expect(WORKFLOW_BUNDLE_OPTIONS.preloadModules).toEqual([expect.stringMatching(/workflows[\\/]preload\.ts$/)]);
    const code = fs.readFileSync(inject('workflowBundlePath'), 'utf8');
    const body = /exports\.preloadModules = function preloadModules\(\) \{([^}]*)\}/.exec(code)?.[1];
    expect(body).toBeDefined();
    expect(body).toContain('"./workflows/preload.ts"');
    // ... which brings the libraries themselves into the shared cache
    const at = code.indexOf('/***/ "./workflows/preload.ts"');
    const preload = code.slice(at, code.indexOf('/***/ },', at));
    expect(at).toBeGreaterThan(0);
    expect(preload).toContain('"./node_modules/@noble/curves/ed25519.js"');
    expect(preload).toContain('"./node_modules/zod/v4/classic/external.js"');
  });

  it('leaves zod with its global configuration set (jitless), so no run writes to the frozen module', () => {
    // In a fresh process: this one built zod schemas long before (worker/create-worker.ts's imports).
    const script = [
      "const { globalConfig } = await import('zod/v4/core');",
      'const before = [typeof globalConfig.localeError, typeof globalConfig.memoizer];',
      "await import('./workflows/preload.ts');",
      'console.log(JSON.stringify({ before, after: [typeof globalConfig.localeError, typeof globalConfig.memoizer], jitless: globalConfig.jitless }));',
    ].join('\n');
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(out.status, out.stderr).toBe(0);
    // ... and parsers interpreted, not compiled: each run builds our schemas again and parses each once or twice.
    expect(JSON.parse(out.stdout)).toEqual({ before: ['undefined', 'undefined'], after: ['function', 'object'], jitless: true });
  });
});
