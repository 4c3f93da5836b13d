// The limits every message's check keeps and a proof's shape for the classify Update's plain check
// (the upload-complete and the decisions' payloads are zod schemas in ./decisions.ts, within these
// limits). Anyone who can reach the Temporal frontend can
// send an Update (the CLI, the Web UI, a script), so a payload is untrusted data until it passes:
// a malformed one is never handed to an activity. Pure: workflow code imports it (no I/O, no
// imports but ./vocabulary).
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

/** A proof's shape, when there is one (the classify Update's check uses it too). */
export function checkProof(s: Obj, problems: string[]) {
  const p = s.proof;
  // A missing proof is a well-formed decision the worker refuses (proof_missing), as before.
  if (p === undefined) return;
  if (!isObj(p)) return void problems.push('proof: expected an object with protected, payload and signature');
  for (const k of ['protected', 'payload', 'signature'] as const) {
    const v = p[k];
    if (typeof v !== 'string' || v.length === 0 || v.length > SIGNAL_LIMITS.proofPart) problems.push(`proof.${k}: expected a non-empty string of at most ${SIGNAL_LIMITS.proofPart} characters`);
  }
}

/** One line for the refusal record and the log: what was wrong, at most `max` characters. */
export function problemsLine(problems: string[], max = 1000): string {
  const line = problems.join('; ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
