// The limits every message's check keeps and a proof's shape for the classify Update's plain check
// (the upload-complete and the decisions' payloads are zod schemas in ./decisions.ts, within these
// limits). Anyone who can reach the Temporal frontend can
// send an Update (the CLI, the Web UI, a script), so a payload is untrusted data until it passes:
// a malformed one is never handed to an activity. Pure: workflow code imports it (no I/O, no
// imports but zod and ./vocabulary).
import { z } from 'zod';
import type { ActorRef } from './vocabulary';

/** Longest id, notes and proof part a signal may carry (the decision routes' review notes take the same limit: api/routes/intake/schemas.ts). */
export const SIGNAL_LIMITS = { id: 200, notes: 2000, proofPart: 2048, seenMatches: 50, acceptedLabels: 10, label: 100, secondReviewReasons: 10 } as const;

export type ShapeCheck<T> = { ok: true; value: T } | { ok: false; problems: string[]; requestId: string | null; by: Partial<ActorRef> };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= SIGNAL_LIMITS.id;

/** What a malformed payload still says of itself, for the refusal record (never trusted). */
export function claimedOf(s: unknown): { requestId: string | null; by: Partial<ActorRef> } {
  const o = isObj(s) ? s : {};
  const by = isObj(o.by) ? o.by : {};
  return {
    requestId: isId(o.requestId) ? o.requestId : null,
    by: { ...(isId(by.actorId) ? { actorId: by.actorId } : {}), ...(isId(by.credentialId) ? { credentialId: by.credentialId } : {}) },
  };
}

// The message parts every Update's check shares (the decisions', upload-complete's, classify's):
// each refusal names the field and what was expected (the refusal record's detail).
export const say = (error: string) => ({ error });
const PART = `expected a non-empty string of at most ${SIGNAL_LIMITS.proofPart} characters`;
const part = z.string(say(PART)).min(1, say(PART)).max(SIGNAL_LIMITS.proofPart, say(PART));
/** A proof's shape; a missing proof is a well-formed message the worker refuses (proof_missing). */
export const proofShape = z.object({ protected: part, payload: part, signature: part }, say('expected an object with protected, payload and signature')).optional();

/** A zod refusal as the refusal record's lines: `field: what was expected`, an unknown field named as such. */
export function problemsOf(error: z.ZodError): string[] {
  const lines = error.issues.flatMap((i) => {
    // An array's items answer as the array (its message says what an item must be).
    const item = i.path.findIndex((p) => typeof p === 'number');
    const at = (item < 0 ? i.path : i.path.slice(0, item)).join('.');
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => `${at ? `${at}.` : ''}${k}: unknown field`);
    return [`${at || 'payload'}: ${i.message}`];
  });
  return [...new Set(lines)];
}

/** One line for the refusal record and the log: what was wrong, at most `max` characters. */
export function problemsLine(problems: string[], max = 1000): string {
  const line = problems.join('; ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
