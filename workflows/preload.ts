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
// - Nothing of ours with state may be preloaded: it would leak from one run into the next. Our
//   pure modules are (issue 55 R8): the vocabularies (the directory's through lib/agents), the decision table and its schemas, the
//   lifecycle tables, the payload checks. They hold only constants and functions; evaluated again
//   in every run, they were most of what a cached run held (a sampling heap profile of the worker
//   with 500 runs cached: their module-level tables and zod schemas led the live allocations). The
//   workflows themselves (workflows/*) stay per run. A module listed here must never write to its
//   own module-level state: frozen, the write would fail the run's workflow task
//   (test/replay/workflow-preload.test.ts holds the list to that).
// - zod's object schemas cache their normalized shape on first parse (a write): each schema of
//   ours is parsed once here, before the freeze.
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { z } from 'zod';
import * as agents from '../lib/agents/vocabulary';
import * as identity from '../lib/identity/resolution';
import * as decisionCheck from '../lib/intake/decision-check';
import * as decisions from '../lib/intake/decisions';
import * as historyBounds from '../lib/intake/history-bounds';
import * as lifecycle from '../lib/intake/lifecycle';
import * as signalShapes from '../lib/intake/signal-shapes';
import * as vocabulary from '../lib/intake/vocabulary';

z.config({ jitless: true });
z.object({ warm: z.string() }).safeParse({ warm: '' });

/** Parse a schema and every object schema inside it once, so each has cached what it caches. */
function warm(schema: z.ZodType, seen = new Set<unknown>()): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  schema.safeParse({});
  schema.safeParse(undefined);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const inner = [def.innerType, def.element, def.in, def.out, ...(Array.isArray(def.options) ? def.options : []), ...(def.shape ? Object.values(def.shape as object) : [])];
  for (const x of inner) if (x && typeof x === 'object' && '_zod' in x) warm(x as z.ZodType, seen);
}
const ours = { agents, identity, decisionCheck, decisions, historyBounds, lifecycle, signalShapes, vocabulary };
const isSchema = (v: unknown): v is z.ZodType => typeof v === 'object' && v !== null && '_zod' in v;
for (const kind of decisions.DECISION_KINDS) warm(decisions.DECISION_TABLE[kind].payload as unknown as z.ZodType);
// Every schema a preloaded module exports (the upload-complete payload's among them): one left
// cold would fail every workflow task that parses with it.
for (const mod of Object.values(ours)) for (const v of Object.values(mod)) if (isSchema(v)) warm(v);

export const PRELOADED = { ed25519, sha256, z, ours };
