// What a workflow Update validator asks of a decision before anything is written to history: its
// shape (its payload schema, ./decisions), a proof, a proof whose claims name this submission, this decision, this
// operator, this credential and this request, not older than a decision may wait, and, when the
// run knows the API's public keys, a signature that verifies. Pure and synchronous (validators
// cannot await): workflow code imports it. The activity that acts on a decision still verifies the
// proof with the worker's key and re-checks the operator; this check keeps floods out of history.
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { checkDecisionShape, DECISION_KINDS, type DecisionKind, type DecisionPayload } from './decisions';
import { problemsLine } from './signal-shapes';
import type { ActorRef, DecisionProof } from './vocabulary';

/** How old a proof may be (as lib/intake/decision-proof.ts DECISION_PROOF_MAX_AGE_SECONDS). */
const MAX_AGE_SECONDS = 24 * 3600;
const CLOCK_TOLERANCE_SECONDS = 30;
const TYP = 'intake-decision+jwt';

/** Why a decision was refused before it reached history. */
export type EarlyRefusal = 'signal_malformed' | 'proof_missing' | 'proof_invalid' | 'proof_expired' | 'proof_mismatch';

export type DecisionCheck<T> =
  | { ok: true; value: T }
  | { ok: false; reason: EarlyRefusal; detail: string; requestId: string | null; by: Partial<ActorRef>; proofActorId?: string | undefined };

/** The API's decision keys a run knows: key id -> raw Ed25519 public key, base64url. */
export type DecisionKeys = Record<string, string>;

/**
 * What an API-signed proof vouches for: an operator's decision, a classifier's classification
 * (lib/agents/vocabulary.ts), or a partner's upload-complete (the partner the API authenticated).
 */
export const SIGNED_ACTS = [...DECISION_KINDS, 'classify', 'upload_complete'] as const;
export type SignedAct = (typeof SIGNED_ACTS)[number];
export const isSignedAct = (v: unknown): v is SignedAct => (SIGNED_ACTS as readonly unknown[]).includes(v);

/** sha256 of a text (UTF-8), hex: the details hash a validator compares with a proof's (pure JS, deterministic). */
export function sha256Hex(text: string): string {
  return [...sha256(new TextEncoder().encode(text))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_INDEX: Record<string, number> = Object.fromEntries([...B64].map((c, i) => [c, i]));

/** base64url (no padding) to bytes; null when it is not base64url. */
export function base64urlBytes(s: string): Uint8Array | null {
  if (s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const c of s) {
    const v = B64_INDEX[c];
    if (v === undefined) return null;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  return out.subarray(0, at);
}

const asciiBytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

function jsonPart(s: string): Record<string, unknown> | null {
  const bytes = base64urlBytes(s);
  if (!bytes) return null;
  try {
    const v: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The proof's own problems: its header and claims against the act (and, when given, the details
 * hash the proof must carry), then its signature.
 */
export function proofProblem(
  kind: SignedAct,
  d: { requestId: string; by: Pick<ActorRef, 'actorId' | 'credentialId'>; proof: DecisionProof; detailsHash?: string },
  ctx: { submissionId: string; nowMs: number; keys?: DecisionKeys | undefined },
): { reason: EarlyRefusal; detail: string; proofActorId?: string } | null {
  const header = jsonPart(d.proof.protected);
  const claims = jsonPart(d.proof.payload);
  if (!header || !claims || header.alg !== 'EdDSA' || header.typ !== TYP || typeof header.kid !== 'string')
    return { reason: 'proof_invalid', detail: 'the proof is not a signed decision' };
  const mismatch = [
    claims.sid !== ctx.submissionId && 'submission',
    claims.dec !== kind && 'decision',
    (claims.sub !== d.by.actorId || claims.cred !== d.by.credentialId) && 'operator',
    claims.jti !== d.requestId && 'request',
    d.detailsHash !== undefined && claims.dtl !== d.detailsHash && 'details',
  ].filter(Boolean);
  if (mismatch.length)
    return { reason: 'proof_mismatch', detail: `the proof does not match (${mismatch.join(', ')})`, ...(typeof claims.sub === 'string' ? { proofActorId: claims.sub } : {}) };
  const iat = claims.iat;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return { reason: 'proof_invalid', detail: 'the proof has no issue time' };
  const age = ctx.nowMs / 1000 - iat;
  if (age > MAX_AGE_SECONDS + CLOCK_TOLERANCE_SECONDS || age < -CLOCK_TOLERANCE_SECONDS)
    return { reason: 'proof_expired', detail: 'the proof is older than a decision may wait' };
  // A key the run does not know (the API's key rotated after the run started) is left to the
  // activity, which holds the worker's current keys.
  const key = ctx.keys?.[header.kid];
  if (key === undefined) return null;
  const publicKey = base64urlBytes(key);
  const signature = base64urlBytes(d.proof.signature);
  let valid = false;
  if (publicKey?.length === 32 && signature?.length === 64) {
    try {
      valid = ed25519.verify(signature, asciiBytes(`${d.proof.protected}.${d.proof.payload}`), publicKey);
    } catch {
      valid = false;
    }
  }
  return valid ? null : { reason: 'proof_invalid', detail: 'the proof does not verify' };
}

/** A decision (any kind of ./decisions) as an Update validator sees it. */
export function checkDecision<K extends DecisionKind>(
  kind: K,
  payload: unknown,
  ctx: { submissionId: string; nowMs: number; keys?: DecisionKeys | undefined },
): DecisionCheck<DecisionPayload<K>> {
  const shape = checkDecisionShape(kind, payload);
  if (!shape.ok) return { ok: false, reason: 'signal_malformed', detail: problemsLine(shape.problems), requestId: shape.requestId, by: shape.by };
  const d = shape.value;
  const refused = (reason: EarlyRefusal, detail: string, proofActorId?: string) => ({ ok: false as const, reason, detail, requestId: d.requestId, by: d.by, proofActorId });
  if (!d.proof) return refused('proof_missing', 'the decision carries no proof');
  const problem = proofProblem(kind, { requestId: d.requestId, by: d.by, proof: d.proof }, ctx);
  if (problem) return refused(problem.reason, problem.detail, problem.proofActorId);
  return { ok: true, value: d };
}
