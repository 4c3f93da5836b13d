// Activity signatures, imported as types by workflow code. Each work step receives the
// transition that enters it and the outcomes it can end in, all decided by the workflow from the
// transition table; the step persists them (lib/intake/transitions.ts) and decides nothing.
import type { StepOutcomes, Transition } from '../lib/intake/lifecycle';
import type { ActorRef, ImageFacts, MimeType, RejectReasonCode, VerificationFailureCode } from '../lib/intake/vocabulary';
import type { ArtistResolutionInput, ArtistResolutionResult } from '../workflows/messages';

export interface VerifyInput {
  submissionId: string;
  stagingKey: string;
  sizeBytes: number;
  mimeType: MimeType;
  by: ActorRef;
  /** staged -> verifying, and verification_passed / verification_failed. Absent in tasks scheduled before the lifecycle owner. */
  enter?: Transition;
  outcomes?: StepOutcomes;
}
/** `image` is absent in results recorded before verification decoded images. */
export type VerifyResult = { ok: true; sha256: string; image?: ImageFacts } | { ok: false; code: VerificationFailureCode };

export interface PromoteInput {
  submissionId: string;
  stagingKey: string;
  sha256: string;
  mimeType: MimeType;
  by: ActorRef;
  reviewNotes: string;
  /** awaiting_review -> promoting, and promotion_done / object_changed. Absent in tasks scheduled before the lifecycle owner. */
  enter?: Transition;
  outcomes?: StepOutcomes;
}

/** `object_changed` is permanent (a retry cannot bring the verified bytes back), so it is a result. */
export type PromoteResult = { ok: true; mediaStoreDocumentId: string } | { ok: false; code: 'object_changed' };

export interface ExpireInput {
  submissionId: string;
  stagingKey: string;
  /** staged -> expired. Absent in tasks scheduled before the lifecycle owner. */
  transition?: Transition;
}

/** Kept for workflows whose history already scheduled it; new runs use recordTransition. */
export interface LegacyRejectionInput {
  submissionId: string;
  by: ActorRef;
  reasonCode: RejectReasonCode;
  notes: string;
}

export interface IntakeActivities {
  verifyStagedMedia(input: VerifyInput): Promise<VerifyResult>;
  promoteToMediaStore(input: PromoteInput): Promise<PromoteResult>;
  /** A transition with no work attached (reject): the row, the event and the notification. */
  recordTransition(transition: Transition): Promise<void>;
  recordRejection(input: LegacyRejectionInput): Promise<void>;
  expireSubmission(input: ExpireInput): Promise<void>;
  resolveArtist(input: ArtistResolutionInput): Promise<ArtistResolutionResult>;
}
