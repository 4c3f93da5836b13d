// @ts-check
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'child_process', 'stream', 'worker_threads', 'process', 'timers', 'dns', 'zlib', 'url', 'util', 'events', 'buffer'];

export default tseslint.config(
  { ignores: ['eslint.config.js', 'node_modules/**', '.data/**', '.tools/**', 'dist/**', 'bench/results/**', 'api/docs/*.js' /* browser script of the docs page */] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only lib/config/env.ts reads the environment.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through lib/config (lib/config/env.ts).' }],
    },
  },
  {
    // zod is extended with .openapi() once, in api/openapi/zod.ts: schema modules import `z` from there.
    files: ['api/**/*.ts', 'lib/**/*.ts'],
    ignores: ['api/openapi/zod.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: '@asteasolutions/zod-to-openapi', importNames: ['extendZodWithOpenApi'], message: 'zod is extended once, in api/openapi/zod.ts: import { z } from there.' }] }],
    },
  },
  {
    // scripts/postinstall.mjs runs inside npm install, before anything of the project is known to load.
    files: ['lib/config/env.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/postinstall.mjs'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Workflow code is replayed: no Node built-ins, no I/O libraries, no real activity imports.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins.flatMap((m) => [m, `node:${m}`]), 'postgres', 'pg', 'express', '@google-cloud/storage', 'jose', 'pino', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'],
          patterns: [
            { group: ['node:*'], message: 'No Node built-ins in workflow code.' },
            { group: ['../activities/*', '!../activities/types', '!../activities/registered'], message: 'Import activity *types* only.' },
            {
              group: ['../lib/*', '!../lib/intake', '../lib/intake/*', '!../lib/intake/vocabulary', '!../lib/intake/lifecycle', '!../lib/intake/signal-shapes', '!../lib/intake/decisions', '!../lib/intake/decision-check', '!../lib/intake/history-bounds', '!../lib/identity', '../lib/identity/*', '!../lib/identity/resolution', '!../lib/agents', '../lib/agents/*', '!../lib/agents/vocabulary', '../api/*', '../worker/*', '../temporal/*'],
              message: 'Workflow code imports only @temporalio/workflow, messages.ts, activity types and the pure lib/intake/{vocabulary,lifecycle,signal-shapes,decisions,decision-check,history-bounds}, lib/agents/vocabulary and lib/identity/resolution (types).',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'fetch', 'require'],
    },
  },
  {
    // The intake vocabulary is bundled into workflow code: pure, no imports but the media's words.
    files: ['lib/intake/vocabulary.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./vocabulary$|\\.\\./media/vocabulary$).*', message: 'Pure module: it may import only ./vocabulary and ../media/vocabulary.' }] }],
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'fetch', 'require'],
    },
  },
  {
    // The Update checks' shared parts (limits, the proof's shape, zod refusals as lines), bundled into workflow code: pure, zod and the vocabulary only.
    files: ['lib/intake/signal-shapes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!zod$|\\./vocabulary$).*', message: 'Pure module: zod and ./vocabulary only.' }] }],
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'fetch', 'require'],
    },
  },
  {
    // The media's words, named by the intake vocabulary: pure, no imports at all.
    files: ['lib/media/vocabulary.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '.*', message: 'Pure module: it imports nothing.' }] }],
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'fetch', 'require'],
    },
  },
  {
    // The transition table, bundled into workflow code: pure, it takes the human decisions' rows from the decision table.
    files: ['lib/intake/lifecycle.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./(vocabulary|decisions)$|\\.\\./media/vocabulary$).*', message: 'Pure module: it may import only ./vocabulary, ./decisions and ../media/vocabulary.' }] }],
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'fetch', 'require'],
    },
  },
  {
    // The decision table, bundled into workflow code (its payload schemas are the Update validators' shape checks): pure, zod and the pure intake modules only.
    files: ['lib/intake/decisions.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!zod$|\\./(vocabulary|signal-shapes)$).*', message: 'Pure module: zod, ./vocabulary and ./signal-shapes only.' }] }],
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'fetch', 'require'],
    },
  },
  {
    // The agent lane's vocabulary and classification check, bundled into workflow code: pure, it imports only the directory's style list and the pure intake checks.
    files: ['lib/agents/vocabulary.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|\\.\\./directory/vocabulary$|\\.\\./intake/(vocabulary|signal-shapes|decision-check)$).*',
              message: 'Pure module: it may import only zod, ../directory/vocabulary and ../intake/{vocabulary,signal-shapes,decision-check}.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'fetch', 'require'],
    },
  },
  {
    // The Update validators' decision check: pure too, with a pure-JS Ed25519 verifier.
    files: ['lib/intake/decision-check.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./vocabulary$|\\./signal-shapes$|\\./decisions$|@noble/curves/ed25519\\.js$|@noble/hashes/sha2\\.js$).*', message: 'Pure module: ./vocabulary, ./signal-shapes, ./decisions, @noble/curves and @noble/hashes only.' }] }],
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval', 'fetch', 'require'],
    },
  },
);
