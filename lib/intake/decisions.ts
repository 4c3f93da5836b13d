// The human decisions, once: each kind an operator can make on a submission awaiting review, with
// everything that differs between kinds. The kind's name is its Update's name, its lifecycle
// trigger, the `dec` claim of its proof, the last segment of its route and the `decision` column
// of decision_refusals and decision_matches. Each kind declares its Update payload (a zod schema:
// the Update validator's shape check, in the workflow bundle), the details its proof covers, its
// transition (lifecycle.ts derives the row), the note and facts the transition records, its route's
// documentation, what the route answers when the state does not take it, and its console label.
//
// A new kind: add it to DECISION_KINDS and DECISION_TABLE here; the compiler then names the rest (its
// request body in api/routes/intake/schemas.ts decisionBodies). The Update definitions, handlers,
// lifecycle rows, routes, refusal texts and records, proof checks and console counts follow.
// Pure (zod, ./vocabulary, ./signal-shapes): workflow code imports it.
import { z } from 'zod';
import { claimedOf, problemsOf, proofShape, say, SIGNAL_LIMITS, type ShapeCheck } from './signal-shapes';
import { firstReviewStatuses, isDecidingStatus, heldStatuses, HELD_STATES, type FirstReviewStatus, rejectReasonCodes, type HeldStatus, type IntakeStatus, type RejectReasonCode, type ReviewStatus } from './vocabulary';

/** Every human decision, in the order routes, triggers and counts list them. */
export const DECISION_KINDS = ['approve', 'reject'] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];
/** The triggers of held decisions (DecisionSpec.held): the first of two operators. */
export const HELD_TRIGGERS = ['first_approval'] as const;
export type HeldTrigger = (typeof HELD_TRIGGERS)[number];
/** The states a decision is taken in: awaiting_review, and each state a held decision waits in for its second operator (vocabulary.ts HELD_STATES). */
export type DecidingStatus = FirstReviewStatus | HeldStatus;
export const DECIDING: readonly DecidingStatus[] = [...firstReviewStatuses, ...heldStatuses];
export const isDeciding = (s: IntakeStatus): s is DecidingStatus => isDecidingStatus(s);

// Payload parts: each refusal names the field and what was expected (the refusal record's detail).
const ID = `expected a string of 1-${SIGNAL_LIMITS.id} characters`;
const id = z.string(say(ID)).min(1, say(ID)).max(SIGNAL_LIMITS.id, say(ID));
const by = z.object({ actorId: id, credentialId: id }, say('expected an object with actorId and credentialId'));
const NOTES = `expected a string of at most ${SIGNAL_LIMITS.notes} characters`;
const notes = z.string(say(NOTES)).max(SIGNAL_LIMITS.notes, say(NOTES));
const proof = proofShape;
const SEEN = `expected at most ${SIGNAL_LIMITS.seenMatches} ids`;
const seenMatches = z.array(z.string(say(SEEN)).min(1, say(SEEN)).max(SIGNAL_LIMITS.id, say(SEEN)), say(SEEN)).max(SIGNAL_LIMITS.seenMatches, say(SEEN));
const LABELS = `expected at most ${SIGNAL_LIMITS.acceptedLabels} ids`;
const label = (error: string) => z.string(say(error)).min(1, say(error)).max(SIGNAL_LIMITS.label, say(error));
const labels = z.array(label(LABELS), say(LABELS)).max(SIGNAL_LIMITS.acceptedLabels, say(LABELS));
/** Labels of a machine classification the operator took into the draft (docs/agents.md); ids only here, the API checked them against the classification. */
const REASONS = `expected at most ${SIGNAL_LIMITS.secondReviewReasons} reasons`;
/** Why the second-review policy asks for another operator (lib/intake/second-review.ts reasons), as the API found them; covered by the proof. */
const secondReview = z.array(z.string(say(REASONS)).min(1, say(REASONS)).max(SIGNAL_LIMITS.id, say(REASONS)), say(REASONS)).max(SIGNAL_LIMITS.secondReviewReasons, say(REASONS));
const accepted = z.strictObject(
  { classificationId: z.string(say('expected an id')).min(1, say('expected an id')).max(SIGNAL_LIMITS.id, say('expected an id')), styleIds: labels, placement: label('expected an id').optional(), tags: labels },
  say('expected an object'),
);
export type AcceptedSuggestion = z.output<typeof accepted>;
/** What every decision's payload starts with: the request id (the Update id) and who the API says decided; each carries the API's proof too. */
const common = { requestId: id, by };

/** What a proof covers besides the act, the operator and the bytes: the details hash (decision-proof.ts detailsHash) is over these. */
export interface DecisionDetails {
  reviewNotes: string;
  reasonCode?: RejectReasonCode | undefined;
  seenMatches?: string[] | undefined;
  accepted?: AcceptedSuggestion | undefined;
  secondReview?: string[] | undefined;
}

export interface DecisionSpec<P extends z.ZodType = z.ZodType> {
  /** The Update's payload as the API sends it: the validator's shape check (unknown fields are let through, as older payloads carry some). */
  payload: P;
  /** The fields of the payload its proof covers (also what the deciding activity is handed besides who and what). */
  details(p: z.output<P>): DecisionDetails;
  /** Its row in the lifecycle (lifecycle.ts): from each state that awaits a decision (DECIDING) -> `to`, with the review status after. A `to` that is a work step is entered with the decision; any other is written with it. */
  transition: { to: IntakeStatus; review: ReviewStatus };
  /**
   * Where one operator is not enough (the second-review policy, lib/intake/second-review.ts): from
   * the state `to` is shown as (vocabulary.ts HELD_STATES), a decision whose payload names `reasons`
   * is held as `trigger` in `to`, with that state's review status (written with its signed decision,
   * the reasons among the row's facts), until a different operator decides there; the same operator
   * deciding again is refused (`same_operator`). `doing`: the Web UI's details line while it waits.
   */
  held?: { trigger: HeldTrigger; to: HeldStatus; reasons(p: z.output<P>): string[]; doing: string };
  /** The note its transition records. */
  note(p: z.output<P>): string;
  /** The facts its transition records, when it has some. */
  facts?(p: z.output<P>): { rejectReasonCode?: RejectReasonCode };
  /** POST …/submissions/{submissionId}/<kind>: its OpenAPI operation id, summary and the descriptions of its answers. */
  route: { operationId: string; summary: string; ok200: string; ok202: string };
  /** What the route answers (409) when the submission's state does not take it. */
  refused(status: IntakeStatus): string;
  /** What the console calls a decision of this kind (recent decisions, counts): past tense. */
  label: string;
  /**
   * Its action in the review console (the detail answer lists the decisions a state takes, and the
   * console draws one button each): the button's words, its tone, and the reason codes the operator
   * picks from when its body takes one. Every decision body takes the operator's notes.
   */
  console: { action: string; tone: 'primary' | 'danger'; reasonCodes?: readonly string[] };
}

/** The schema is not inferred through the table's `satisfies`: each kind's functions see their own payload. */
const decision = <P extends z.ZodType>(spec: DecisionSpec<P>) => spec;

const undecidable = (s: IntakeStatus) => `Only a submission awaiting review can be decided (status ${s}).`;

export const DECISION_TABLE = {
  approve: decision({
    payload: z.object({ ...common, reviewNotes: notes, proof, seenMatches: seenMatches.optional(), accepted: accepted.optional(), secondReview: secondReview.optional() }, say('expected an object')),
    details: (p) => ({
      reviewNotes: p.reviewNotes,
      ...(p.seenMatches ? { seenMatches: p.seenMatches } : {}),
      ...(p.accepted ? { accepted: p.accepted } : {}),
      ...(p.secondReview?.length ? { secondReview: p.secondReview } : {}),
    }),
    transition: { to: 'promoting', review: 'approved' },
    held: { trigger: 'first_approval', to: 'awaiting_second_review', reasons: (p) => p.secondReview ?? [], doing: 'approved once; awaiting a second, different operator' },
    note: (p) => p.reviewNotes,
    route: {
      operationId: 'approveSubmission',
      summary: 'Approve: the verified bytes become a private draft in the media store (the API signs the decision; the worker verifies it and re-checks the operator before anything moves)',
      ok200: 'promoted_to_media_store (or verification_failed: object_changed)',
      ok202: 'still promoting (outcome accepted), or the outcome is unknown (outcome pending); read the status',
    },
    refused: undecidable,
    label: 'approved',
    console: { action: 'Approve', tone: 'primary' },
  }),
  reject: decision({
    payload: z.object({ ...common, reasonCode: z.enum(rejectReasonCodes, say(`expected one of ${rejectReasonCodes.join(', ')}`)), reviewNotes: notes.optional(), proof }, say('expected an object')),
    details: (p) => ({ reviewNotes: p.reviewNotes ?? '', reasonCode: p.reasonCode }),
    transition: { to: 'rejected', review: 'rejected' },
    note: (p) => `${p.reasonCode}: ${p.reviewNotes ?? ''}`,
    facts: (p) => ({ rejectReasonCode: p.reasonCode }),
    route: {
      operationId: 'rejectSubmission',
      summary: 'Reject with a reason code (signed and re-checked like approve)',
      ok200: 'rejected',
      ok202: 'still recording (outcome accepted), or the outcome is unknown (outcome pending); read the status',
    },
    refused: undecidable,
    label: 'rejected',
    console: { action: 'Reject', tone: 'danger', reasonCodes: rejectReasonCodes },
  }),
} as const satisfies Record<DecisionKind, DecisionSpec<any>>;

/** A decision's Update payload, as its schema admits it. */
export type DecisionPayload<K extends DecisionKind = DecisionKind> = z.output<(typeof DECISION_TABLE)[K]['payload']>;
/** What the operator decided besides who and the proof: a route's body as the decision carries it. */
export type DecisionFields<K extends DecisionKind = DecisionKind> = Omit<DecisionPayload<K>, 'requestId' | 'by' | 'proof'>;
/** A decision offered to the run by an Update: its kind and its payload. */
export type Decision = { [K in DecisionKind]: { kind: K; signal: DecisionPayload<K> } }[DecisionKind];
/** What the console calls the decisions (DECISION_TABLE[kind].label). */
export type DecisionLabel = (typeof DECISION_TABLE)[DecisionKind]['label'];
export const DECISION_LABELS = DECISION_KINDS.map((k) => DECISION_TABLE[k].label) as DecisionLabel[];

export function isDecisionKind(v: unknown): v is DecisionKind {
  return (DECISION_KINDS as readonly unknown[]).includes(v);
}

/** Something per kind, total over the kinds (in DECISION_KINDS order). */
export function byKind<T>(f: (kind: DecisionKind) => T): Record<DecisionKind, T> {
  return Object.fromEntries(DECISION_KINDS.map((k) => [k, f(k)])) as Record<DecisionKind, T>;
}

/** One spec whatever the kind (the payload's type is the caller's to keep straight). */
const specOf = (kind: DecisionKind) => DECISION_TABLE[kind] as DecisionSpec<z.ZodType<DecisionPayload>>;

/** The problems of a zod refusal, as lines `field: what was expected`. */

/**
 * The upload-complete Update's payload, a zod schema like the decisions' (the request id, who the
 * API says uploaded, and the API's proof of act `upload_complete`); unknown fields are let through.
 */
export const uploadCompletePayload = z.object({ ...common, proof }, say('expected an object'));
export type UploadCompletePayload = z.output<typeof uploadCompletePayload>;
export function checkUploadComplete(payload: unknown): ShapeCheck<UploadCompletePayload> {
  const r = uploadCompletePayload.safeParse(payload);
  return r.success ? { ok: true, value: payload as UploadCompletePayload } : { ok: false, problems: problemsOf(r.error), ...claimedOf(payload) };
}

/** A decision payload's shape check: its schema, with what a malformed payload still says of itself. */
export function checkDecisionShape<K extends DecisionKind>(kind: K, payload: unknown): ShapeCheck<DecisionPayload<K>> {
  const r = DECISION_TABLE[kind].payload.safeParse(payload);
  // The payload as sent (a validator does not rewrite what history records).
  return r.success ? { ok: true, value: payload as DecisionPayload<K> } : { ok: false, problems: problemsOf(r.error), ...claimedOf(payload) };
}

/** A decision's details as its proof covers them. */
export const decisionDetails = (d: Decision): DecisionDetails => specOf(d.kind).details(d.signal);
/** The note a decision's transition records. */
export const decisionNote = (d: Decision): string => specOf(d.kind).note(d.signal);
/** The facts a decision's transition records (undefined: none); a held one records why it is held. */
export function decisionFacts(d: Decision, trigger: DecisionTrigger = d.kind): { rejectReasonCode?: RejectReasonCode; secondReviewReasons?: string[] } | undefined {
  const spec = specOf(d.kind);
  if (trigger !== d.kind && spec.held) return { ...spec.facts?.(d.signal), secondReviewReasons: spec.held.reasons(d.signal) };
  return spec.facts?.(d.signal);
}

/** A kind's held rule (DecisionSpec.held), where it has one. */
export const heldOf = (kind: DecisionKind): DecisionSpec['held'] => specOf(kind).held;
/** The held rule that waits in `s`. */
export const heldIn = (s: HeldStatus): NonNullable<DecisionSpec['held']> => {
  const held = DECISION_KINDS.map(heldOf).find((h) => h?.to === s);
  if (!held) throw new Error(`no decision is held in ${s}`); // test/unit/decision-table.test.ts holds every held state to one
  return held;
};

/** The trigger a decision is taken as in `at`: held (the first of two operators) where its kind holds it and its payload names reasons; else its kind. */
export type DecisionTrigger = DecisionKind | HeldTrigger;
export function decisionTrigger(d: Decision, at: IntakeStatus): DecisionTrigger {
  const held = heldOf(d.kind);
  return held && at === HELD_STATES[held.to].shownAs && held.reasons(d.signal).length > 0 ? held.trigger : d.kind;
}
