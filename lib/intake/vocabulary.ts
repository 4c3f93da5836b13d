// The intake domain's words, once: statuses, reason codes and who caused a change (the image
// types are the media's: lib/media/vocabulary.ts). Pure data and types: workflow code imports this
// file (the lint fence allows it and keeps it free of I/O).
import type { MimeType } from '../media/vocabulary';

export const intakeStatuses = [
  'staged',
  'verifying',
  'awaiting_review',
  // Where a held decision waits (HELD_STATES below).
  'awaiting_second_review',
  'promoting',
  'promoted_to_media_store',
  'rejected',
  'verification_failed',
  'expired',
] as const;
export type IntakeStatus = (typeof intakeStatuses)[number];

export const reviewStatuses = ['review_required', 'second_review_required', 'approved', 'rejected', 'not_reviewed'] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

/**
 * The states a held decision waits in (lib/intake/decisions.ts DecisionSpec.held names the one it
 * holds in): each with the state partners see it as (where its first decision was taken: a hold is
 * the house's business, so partners hear of no new state and get no event) and the review status
 * it carries, which says why it takes longer. The statuses partners see, the events, the review
 * flag, the workflow's waits, the reconciler and the console's queries all follow from this map.
 */
export const HELD_STATES = {
  // Approved once where the second-review policy asks for two operators (lib/intake/second-review.ts).
  awaiting_second_review: { shownAs: 'awaiting_review', review: 'second_review_required' },
} as const satisfies Partial<Record<IntakeStatus, { shownAs: IntakeStatus; review: ReviewStatus }>>;
export type HeldStatus = keyof typeof HELD_STATES;
export const heldStatuses = Object.keys(HELD_STATES) as HeldStatus[];
export const isHeldStatus = (s: string): s is HeldStatus => Object.hasOwn(HELD_STATES, s);

/** The status partners see: a held state shows as where its first decision was taken. */
export const partnerStatus = (s: IntakeStatus): IntakeStatus => (isHeldStatus(s) ? HELD_STATES[s].shownAs : s);
/** The statuses partners see (and filter on). */
export const partnerStatuses = intakeStatuses.filter((s) => partnerStatus(s) === s);
/** The statuses partners see as `shown`. */
export const statusesShownAs = (shown: IntakeStatus): IntakeStatus[] => intakeStatuses.filter((s) => partnerStatus(s) === shown);
/** Review statuses that still wait for a human: review_required, and each held state's. */
export const reviewPending = (r: ReviewStatus): boolean => r === 'review_required' || Object.values(HELD_STATES).some((h) => h.review === r);

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
