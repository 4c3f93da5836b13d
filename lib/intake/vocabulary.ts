// The intake domain's words, once: statuses, reason codes and who caused a change (the image
// types are the media's: lib/media/vocabulary.ts). Pure data and types: workflow code imports this
// file (the lint fence allows it and keeps it free of I/O).
import type { MimeType } from '../media/vocabulary';

export const reviewStatuses = ['review_required', 'second_review_required', 'approved', 'rejected', 'not_reviewed'] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

/** What a state says of itself, once (INTAKE_STATES). */
interface StateSpec {
  /**
   * Where decisions are taken: `first`, the review queue partners see (classifications, agent
   * previews and the second-review policy work there); `held`, where a held decision waits for a
   * different operator (lib/intake/decisions.ts DecisionSpec.held names the one it holds in).
   */
  decides?: 'first' | 'held';
  /**
   * A held state's face: the state partners see it as (where its first decision was taken: a hold
   * is the house's business, so partners hear of no new state and get no event) and the review
   * status it carries, which says why it takes longer.
   */
  held?: { shownAs: string; review: ReviewStatus };
  /** The partner event a transition into it writes (lib/intake/outbox.ts) and what the OpenAPI webhooks say of it; none for work steps and held states. */
  event?: { type: `submission.${string}`; description: string };
  /** The Web UI's details line (workflows/intake-details.ts) for a state that is neither a work step (lifecycle.ts WORK says) nor held (decisions.ts held says). */
  details?: (s: DetailsFacts) => string;
}

/** What a details line may name. */
export interface DetailsFacts {
  when: string;
  uploadDeadline: string;
  failureCode: string | null;
  rejectReasonCode: string | null;
  mediaStoreDocumentId: string | null;
}

/**
 * Every intake status, declared once, in lifecycle order: the statuses, the held states, the
 * deciding states, partners' events and their descriptions, the details lines and every status
 * check in code derive from this table (test/unit/state-table.test.ts fails on a status compared
 * by hand outside it). Which transitions join them: lib/intake/lifecycle.ts.
 */
export const INTAKE_STATES = {
  staged: {
    event: { type: 'submission.staged', description: 'a submission was created and waits for its upload' },
    details: (s) => `waiting for the upload and upload-complete until ${s.uploadDeadline}`,
  },
  verifying: {},
  awaiting_review: {
    decides: 'first',
    event: { type: 'submission.awaiting_review', description: 'the upload decoded as the declared image and waits for a human decision' },
    details: (s) => `awaiting review since ${s.when}`,
  },
  // Approved once where the second-review policy asks for two operators (lib/intake/second-review.ts).
  awaiting_second_review: { decides: 'held', held: { shownAs: 'awaiting_review', review: 'second_review_required' } },
  promoting: {},
  promoted_to_media_store: {
    event: { type: 'submission.promoted', description: 'an operator approved it and the verified bytes are a private draft' },
    details: (s) => `promoted to the private media store as ${s.mediaStoreDocumentId ?? '?'} (${s.when})`,
  },
  rejected: {
    event: { type: 'submission.rejected', description: 'an operator rejected it (rejectReason says why)' },
    details: (s) => `rejected by an operator: ${s.rejectReasonCode ?? 'no reason code'} (${s.when})`,
  },
  verification_failed: {
    event: { type: 'submission.verification_failed', description: 'the upload was refused (failureReason says why)' },
    details: (s) => `verification failed: ${s.failureCode ?? 'unknown'} (${s.when})`,
  },
  expired: {
    event: { type: 'submission.expired', description: 'no upload-complete arrived within the upload window' },
    details: (s) => `expired: no upload-complete within the upload window (${s.when})`,
  },
} as const satisfies Record<string, StateSpec>;

type States = typeof INTAKE_STATES;
export type IntakeStatus = keyof States;
export const intakeStatuses = Object.keys(INTAKE_STATES) as IntakeStatus[];
const spec = (s: IntakeStatus): StateSpec => INTAKE_STATES[s];

/** The states a held decision waits in, each with the state partners see it as and its review status. */
export type HeldStatus = { [K in IntakeStatus]: States[K] extends { decides: 'held' } ? K : never }[IntakeStatus];
/** The state where the first decision is taken: the review queue partners see. */
export type FirstReviewStatus = { [K in IntakeStatus]: States[K] extends { decides: 'first' } ? K : never }[IntakeStatus];
/** Each held state's face, typed as declared (the lifecycle's held rows start from its `shownAs`). */
export const HELD_STATES = Object.fromEntries(intakeStatuses.flatMap((s) => (spec(s).held ? [[s, spec(s).held]] : []))) as { [K in HeldStatus]: States[K] extends { held: infer H extends { shownAs: IntakeStatus; review: ReviewStatus } } ? H : never };
export const heldStatuses = Object.keys(HELD_STATES) as HeldStatus[];
export const isHeldStatus = (s: string): s is HeldStatus => Object.hasOwn(HELD_STATES, s);
/** The first-review states (one today): where a submission waits for its first decision. */
export const firstReviewStatuses = intakeStatuses.filter((s) => spec(s).decides === 'first') as FirstReviewStatus[];
export const isFirstReview = (s: string): s is FirstReviewStatus => (firstReviewStatuses as readonly string[]).includes(s);
/** Where a decision is taken: a first review or a held state. */
export const isDecidingStatus = (s: string): s is FirstReviewStatus | HeldStatus => isFirstReview(s) || isHeldStatus(s);

/** The status partners see: a held state shows as where its first decision was taken. */
export const partnerStatus = (s: IntakeStatus): IntakeStatus => (isHeldStatus(s) ? HELD_STATES[s].shownAs : s);
/** The statuses partners see (and filter on). */
export const partnerStatuses = intakeStatuses.filter((s) => partnerStatus(s) === s);
/** The statuses partners see as `shown`. */
export const statusesShownAs = (shown: IntakeStatus): IntakeStatus[] => intakeStatuses.filter((s) => partnerStatus(s) === shown);
/** Review statuses that still wait for a human: review_required, and each held state's. */
export const reviewPending = (r: ReviewStatus): boolean => r === 'review_required' || Object.values(HELD_STATES).some((h) => h.review === r);

/** The partner events of the statuses (outbox.ts adds the assets'), and the status each is written on entering. */
export type StatusEventType = { [K in IntakeStatus]: States[K] extends { event: { type: infer T } } ? T : never }[IntakeStatus];
export const STATUS_EVENTS = Object.fromEntries(intakeStatuses.flatMap((s) => { const e = spec(s).event; return e ? [[s, e]] : []; })) as Partial<Record<IntakeStatus, { type: StatusEventType; description: string }>>;

/** The details line of a state that declares one (neither a work step nor held). */
export const detailsLineOf = (s: IntakeStatus, facts: DetailsFacts): string | undefined => spec(s).details?.(facts);

export const verificationFailureCodes = [
  'object_missing',
  'size_mismatch',
  'magic_bytes_mismatch',
  // The bytes do not decode as an image at all.
  'undecodable',
  // They decode, but as another type than the declared one.
  'type_mismatch',
  // The header declares more pixels than MAX_IMAGE_PIXELS: refused before decoding.
  'dimensions_exceeded',
  // Found at promotion: the staged bytes no longer hash to what verification saw.
  'object_changed',
  // Verification could not run to an answer within its attempts (storage or database away for
  // minutes): nothing is known to be wrong with the bytes; the partner may submit them again.
  'verification_error',
] as const;
export type VerificationFailureCode = (typeof verificationFailureCodes)[number];

export const rejectReasonCodes = ['rights_unclear', 'consent_missing', 'quality_insufficient', 'content_policy', 'duplicate', 'other'] as const;
export type RejectReasonCode = (typeof rejectReasonCodes)[number];

export const rightsPostures = ['owner_attested', 'artist_attested', 'review_required'] as const;
export const consentPostures = ['client_consented', 'not_required', 'review_required'] as const;
export const submissionSources = ['permanent_messaging', 'partner_api', 'operator_upload'] as const;

/** Who caused a transition, recorded in intake_events. */
export interface ActorRef {
  actorId: string;
  credentialId: string;
}

/** The actor of transitions nobody asked for (the upload window passing). */
export const SYSTEM_ACTOR: ActorRef = { actorId: 'system:intake-workflow', credentialId: 'none' };

/** What identifies a submission and its declared bytes: the workflow's input and the row share it. */
export interface SubmissionRef {
  submissionId: string;
  tenantId: string;
  artistCanonicalId: string;
  partnerActorId: string;
  credentialId: string;
  mimeType: MimeType;
  sizeBytes: number;
  stagingKey: string;
}

/** A submission's state as the workflow holds it and as its row records it. */
export interface IntakeView {
  submissionId: string;
  artistCanonicalId: string;
  intakeStatus: IntakeStatus;
  reviewStatus: ReviewStatus;
  mediaStoreDocumentId: string | null;
  failureCode: VerificationFailureCode | null;
  rejectReasonCode: RejectReasonCode | null;
}

/**
 * The API's signed statement that it verified a mapped human operator making this decision
 * (lib/intake/decision-proof.ts): the three parts of a compact JWS (EdDSA), kept apart so a
 * history reads as data. Only the API holds the signing key; the worker holds the public key.
 */
export interface DecisionProof {
  protected: string;
  payload: string;
  signature: string;
}
