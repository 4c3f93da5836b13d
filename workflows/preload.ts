// Libraries the workflow code uses, loaded once per workflow thread (WORKFLOW_BUNDLE_OPTIONS in
// worker/create-worker.ts): the reusable V8 context shares a preloaded module, frozen, with every
// run, and evaluates every other module again for each run. Without this, each run built zod again
// (~3 ms) and the first decision it validated built Ed25519's base point table again (~17 ms).
//
// - Named here, not by package name: a package that declares `sideEffects: false` (both do) is
//   dropped from the bundler's preload list when nothing reads it. Hence PRELOADED.
// - zod as a namespace: every zod module is shared, none evaluated per run.
// - zod writes its global configuration (English messages, its memoizer) when it builds its first
//   schema; once the module is frozen that write would fail every workflow task, so one schema is
//   built and used here, before the freeze.
// - jitless: our schemas (lib/intake/decisions.ts) are built again in every run, and each is parsed
//   once or twice there; compiling a parser for each (zod's default) cost more than it saved.
// - Nothing of ours with state may be preloaded: it would leak from one run into the next. This
//   module holds none; the libraries keep only caches of pure results.
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { z } from 'zod';

z.config({ jitless: true });
z.object({ warm: z.string() }).safeParse({ warm: '' });

export const PRELOADED = { ed25519, sha256, z };
