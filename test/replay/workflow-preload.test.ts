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

/** Run an ES module script (its lines) in a fresh Node process of the project; what it printed, as JSON. */
function inFreshProcess(lines: string[]): unknown {
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', lines.join('\n')], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

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
    // ... and our pure modules (issue 55 R8: evaluated in every run, they were most of what a cached run held).
    for (const m of ['lib/intake/decisions.ts', 'lib/intake/lifecycle.ts', 'lib/intake/vocabulary.ts', 'lib/agents/vocabulary.ts']) expect(preload).toContain(`"./${m}"`);
    // ... never a workflow module: those hold a run's own state.
    expect(preload).not.toMatch(/"\.\/workflows\/(?!preload)/);
  });

  it('leaves every preloaded module of ours usable frozen: nothing in them writes to their own state', () => {
    // In a fresh process: load the preload, freeze every export of ours deeply (as the worker's
    // reusable context does), then run what the workflows run on them.
    const script = [
      "const { PRELOADED } = await import('./workflows/preload.ts');",
      'const freeze = (o, seen = new WeakSet()) => { if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) return o; seen.add(o); for (const k of Reflect.ownKeys(o)) { const d = Object.getOwnPropertyDescriptor(o, k); if (d && "value" in d) freeze(d.value, seen); } return Object.freeze(o); };',
      'for (const ns of Object.values(PRELOADED.ours)) for (const k of Object.keys(ns)) freeze(ns[k]);',
      'const { decisions, lifecycle, signalShapes, agents } = PRELOADED.ours;',
      "const by = { actorId: 'op', credentialId: 'c' };",
      "const proof = { protected: 'a', payload: 'b', signature: 'c' };",
      "const results = [decisions.checkDecisionShape('approve', { requestId: 'r', by, reviewNotes: 'n', proof, seenMatches: ['m'], secondReview: ['x'] }).ok, decisions.checkDecisionShape('reject', { requestId: 'r', by, reasonCode: 'rights_unclear', proof }).ok, decisions.checkDecisionShape('approve', { requestId: 5 }).ok];",
      "const classification = { styles: [{ id: 'blackwork', confidence: 0.8 }], placement: null, subjects: [], contentFlags: [], model: { name: 'nsfwjs 4', version: '4.4.0' }, rationale: 'dense fill' };",
      "results.push(agents.classifyPayloadProblems({ ...classification, requestId: 'r', by, proof }).length === 0, agents.classifyPayloadProblems({ ...classification, requestId: 'r', by, model: { name: ' x', version: '1' } }).length === 1);",
      "results.push(decisions.checkUploadComplete({ requestId: 'r', by, proof }).ok, decisions.checkUploadComplete({ requestId: 5 }).ok, signalShapes.problemsLine(['a']) === 'a', lifecycle.accepts('awaiting_review', 'approve'), typeof agents.MODEL_WORD.test('m1'));",
      'console.log(JSON.stringify(results));',
    ];
    expect(inFreshProcess(script)).toEqual([true, true, false, true, true, true, false, true, true, 'boolean']);
  });

  it('leaves zod with its global configuration set (jitless), so no run writes to the frozen module', () => {
    // In a fresh process: this one built zod schemas long before (worker/create-worker.ts's imports).
    const script = [
      "const { globalConfig } = await import('zod/v4/core');",
      'const before = [typeof globalConfig.localeError, typeof globalConfig.memoizer];',
      "await import('./workflows/preload.ts');",
      'console.log(JSON.stringify({ before, after: [typeof globalConfig.localeError, typeof globalConfig.memoizer], jitless: globalConfig.jitless }));',
    ];
    // ... and parsers interpreted, not compiled: each run builds our schemas again and parses each once or twice.
    expect(inFreshProcess(script)).toEqual({ before: ['undefined', 'undefined'], after: ['function', 'object'], jitless: true });
  });
});
