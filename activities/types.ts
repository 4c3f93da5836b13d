// Activity signatures, imported as types by workflow code.
import type { ActorRef, ArtistResolutionInput, ArtistResolutionResult, MimeType, RejectReasonCode, VerificationFailureCode } from '../workflows/messages';

export interface VerifyInput {
  submissionId: string;
  stagingKey: string;
  sizeBytes: number;
  mimeType: MimeType;
  by: ActorRef;
}
export type VerifyResult = { ok: true; sha256: string } | { ok: false; code: VerificationFailureCode };

export interface PromoteInput {
  submissionId: string;
  stagingKey: string;
  sha256: string;
  mimeType: MimeType;
  by: ActorRef;
  reviewNotes: string;
}

/** `object_changed` is permanent (a retry cannot bring the verified bytes back), so it is a result. */
export type PromoteResult = { ok: true; mediaStoreDocumentId: string } | { ok: false; code: 'object_changed' };

export interface IntakeActivities {
  verifyStagedMedia(input: VerifyInput): Promise<VerifyResult>;
  promoteToMediaStore(input: PromoteInput): Promise<PromoteResult>;
  recordRejection(input: { submissionId: string; by: ActorRef; reasonCode: RejectReasonCode; notes: string }): Promise<void>;
  expireSubmission(input: { submissionId: string; stagingKey: string }): Promise<void>;
  resolveArtist(input: ArtistResolutionInput): Promise<ArtistResolutionResult>;
}
