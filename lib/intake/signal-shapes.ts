// The shape of every intake signal payload, checked in plain code before anything records it.
// Anyone who can reach the Temporal frontend can send a signal (the CLI, the Web UI, a script), so
// a payload is untrusted data until it passes here: a malformed one is never handed to an
// activity. Pure: workflow code imports it (no I/O, no imports but ./vocabulary).
import { rejectReasonCodes, type ActorRef, type DecisionProof, type RejectReasonCode } from './vocabulary';

/** Longest id, notes and proof part a signal may carry (the API's own limits are smaller). */
export const SIGNAL_LIMITS = { id: 200, notes: 4000, proofPart: 8192, seenMatches: 50, acceptedLabels: 10, label: 100 } as const;

export type ShapeCheck<T> = { ok: true; value: T } | { ok: false; problems: string[]; requestId: string | null; by: Partial<ActorRef> };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= SIGNAL_LIMITS.id;

/** What a malformed payload still says of itself, for the refusal record (never trusted). */
function claimed(s: unknown): { requestId: string | null; by: Partial<ActorRef> } {
  const o = isObj(s) ? s : {};
  const by = isObj(o.by) ? o.by : {};
  return {
    requestId: isId(o.requestId) ? o.requestId : null,
    by: { ...(isId(by.actorId) ? { actorId: by.actorId } : {}), ...(isId(by.credentialId) ? { credentialId: by.credentialId } : {}) },
  };
}

function checkCommon(s: unknown, problems: string[]): s is Obj {
  if (!isObj(s)) {
    problems.push('payload: expected an object');
    return false;
  }
  if (!isId(s.requestId)) problems.push(`requestId: expected a string of 1-${SIGNAL_LIMITS.id} characters`);
  if (!isObj(s.by)) problems.push('by: expected an object with actorId and credentialId');
  else {
    if (!isId(s.by.actorId)) problems.push(`by.actorId: expected a string of 1-${SIGNAL_LIMITS.id} characters`);
    if (!isId(s.by.credentialId)) problems.push(`by.credentialId: expected a string of 1-${SIGNAL_LIMITS.id} characters`);
  }
  return true;
}

function checkText(s: Obj, key: string, required: boolean, problems: string[]) {
  const v = s[key];
  if (v === undefined && !required) return;
  if (typeof v !== 'string' || v.length > SIGNAL_LIMITS.notes) problems.push(`${key}: expected a string of at most ${SIGNAL_LIMITS.notes} characters`);
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

function checkSeenMatches(s: Obj, problems: string[]) {
  const v = s.seenMatches;
  if (v === undefined) return;
  if (!Array.isArray(v) || v.length > SIGNAL_LIMITS.seenMatches || !v.every(isId))
    problems.push(`seenMatches: expected at most ${SIGNAL_LIMITS.seenMatches} ids`);
}

/** Labels of a machine classification the operator took into the draft (docs/agents.md); ids only here, the API checked them against the classification. */
export interface AcceptedSuggestion {
  classificationId: string;
  styleIds: string[];
  placement?: string;
  tags: string[];
}

const isLabel = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= SIGNAL_LIMITS.label;
const isLabels = (v: unknown) => Array.isArray(v) && v.length <= SIGNAL_LIMITS.acceptedLabels && v.every(isLabel);

function checkAccepted(s: Obj, problems: string[]) {
  const a = s.accepted;
  if (a === undefined) return;
  if (!isObj(a)) return void problems.push('accepted: expected an object');
  for (const k of Object.keys(a)) if (!['classificationId', 'styleIds', 'placement', 'tags'].includes(k)) problems.push(`accepted.${k}: unknown field`);
  if (!isId(a.classificationId)) problems.push('accepted.classificationId: expected an id');
  if (!isLabels(a.styleIds)) problems.push(`accepted.styleIds: expected at most ${SIGNAL_LIMITS.acceptedLabels} ids`);
  if (!isLabels(a.tags)) problems.push(`accepted.tags: expected at most ${SIGNAL_LIMITS.acceptedLabels} ids`);
  if (a.placement !== undefined && !isLabel(a.placement)) problems.push('accepted.placement: expected an id');
}

function done<T>(s: unknown, problems: string[]): ShapeCheck<T> {
  return problems.length ? { ok: false, problems, ...claimed(s) } : { ok: true, value: s as T };
}

export interface UploadCompletePayload {
  requestId: string;
  by: ActorRef;
}
export interface ApprovePayload {
  requestId: string;
  by: ActorRef;
  reviewNotes: string;
  proof?: DecisionProof;
  seenMatches?: string[];
  /** Suggested labels the operator accepted into the draft; the proof's details hash covers them. */
  accepted?: AcceptedSuggestion;
}
export interface RejectPayload {
  requestId: string;
  by: ActorRef;
  reasonCode: RejectReasonCode;
  reviewNotes?: string;
  proof?: DecisionProof;
}

export function checkUploadComplete(s: unknown): ShapeCheck<UploadCompletePayload> {
  const problems: string[] = [];
  checkCommon(s, problems);
  return done(s, problems);
}

export function checkApprove(s: unknown): ShapeCheck<ApprovePayload> {
  const problems: string[] = [];
  if (checkCommon(s, problems)) {
    checkText(s, 'reviewNotes', true, problems);
    checkProof(s, problems);
    checkSeenMatches(s, problems);
    checkAccepted(s, problems);
  }
  return done(s, problems);
}

export function checkReject(s: unknown): ShapeCheck<RejectPayload> {
  const problems: string[] = [];
  if (checkCommon(s, problems)) {
    if (!(rejectReasonCodes as readonly unknown[]).includes(s.reasonCode)) problems.push(`reasonCode: expected one of ${rejectReasonCodes.join(', ')}`);
    checkText(s, 'reviewNotes', false, problems);
    checkProof(s, problems);
  }
  return done(s, problems);
}

/** A decision's details as its signed decision carries them (the proof's details hash covers them). */
export function decisionDetails(
  d: { kind: 'approve'; signal: ApprovePayload } | { kind: 'reject'; signal: RejectPayload },
): { reviewNotes: string; reasonCode?: RejectReasonCode; seenMatches?: string[]; accepted?: AcceptedSuggestion } {
  if (d.kind === 'reject') return { reviewNotes: d.signal.reviewNotes ?? '', reasonCode: d.signal.reasonCode };
  return { reviewNotes: d.signal.reviewNotes, ...(d.signal.seenMatches ? { seenMatches: d.signal.seenMatches } : {}), ...(d.signal.accepted ? { accepted: d.signal.accepted } : {}) };
}

/** The note a decision's transition records: the review notes, after the reason code for a rejection. */
export function decisionNote(d: { kind: 'approve'; signal: ApprovePayload } | { kind: 'reject'; signal: RejectPayload }): string {
  return d.kind === 'reject' ? `${d.signal.reasonCode}: ${d.signal.reviewNotes ?? ''}` : d.signal.reviewNotes;
}

/** The check of each signal by name: the workflow's handlers and the deciding activities use the same one. */
export const SIGNAL_CHECKS = { uploadComplete: checkUploadComplete, approve: checkApprove, reject: checkReject } as const;
export type CheckedSignal = keyof typeof SIGNAL_CHECKS;

/** One line for the refusal record and the log: what was wrong, at most `max` characters. */
export function problemsLine(problems: string[], max = 1000): string {
  const line = problems.join('; ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
