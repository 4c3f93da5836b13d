// Signals, queries, payload types and the task queue name: defined once, imported by the API,
// the worker, the workflows and the tests. The intake's vocabulary and transition table live in
// lib/intake/ (pure modules this folder may import).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { ActorRef, DecisionProof, IntakeView, RejectReasonCode, SubmissionRef } from '../lib/intake/vocabulary';

export interface IntakeInput extends SubmissionRef {
  /** Upload window plus grace, in seconds: the workflow expires when no upload-complete arrives. */
  uploadDeadlineSeconds: number;
}

export interface UploadCompleteSignal {
  requestId: string;
  by: ActorRef;
}
export interface ApproveSignal {
  requestId: string;
  by: ActorRef;
  reviewNotes: string;
  /** The API's signature over this decision (lib/intake/decision-proof.ts); without a valid one the approval changes nothing. */
  proof?: DecisionProof;
  /** The ids of the similar-image matches the operator was shown (at most 50); covered by the proof's details hash. Absent in signals sent before similar images. */
  seenMatches?: string[];
}
export interface RejectSignal {
  requestId: string;
  by: ActorRef;
  reasonCode: RejectReasonCode;
  reviewNotes?: string;
  /** The name reject signals sent before the lifecycle owner used for reviewNotes. */
  notes?: string;
  /** As ApproveSignal.proof. */
  proof?: DecisionProof;
}

/** The workflow's view of itself. The HTTP status view is derived from it (without private pointers). */
export type IntakeState = IntakeView;

export const uploadCompleteSignal = defineSignal<[UploadCompleteSignal]>('uploadComplete');
export const approveSignal = defineSignal<[ApproveSignal]>('approve');
export const rejectSignal = defineSignal<[RejectSignal]>('reject');
export const intakeStateQuery = defineQuery<IntakeState>('intakeState');

export function intakeWorkflowId(submissionId: string): string {
  return `intake/${submissionId}`;
}

// Custom search attributes kept current by the intake workflow, so on-call staff can filter in
// the Temporal Web UI. Never PII, never a custom attribute named `Status`.
export const IntakeStatusKey = defineSearchAttributeKey('IntakeStatus', SearchAttributeType.KEYWORD);
export const ReviewStatusKey = defineSearchAttributeKey('ReviewStatus', SearchAttributeType.KEYWORD);
export const TenantIdKey = defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD);
export const ArtistCanonicalIdKey = defineSearchAttributeKey('ArtistCanonicalId', SearchAttributeType.KEYWORD);
export const PartnerActorIdKey = defineSearchAttributeKey('PartnerActorId', SearchAttributeType.KEYWORD);
export const AwaitingSinceKey = defineSearchAttributeKey('AwaitingSince', SearchAttributeType.DATETIME);
export const SEARCH_ATTRIBUTE_KEYS = [
  IntakeStatusKey,
  ReviewStatusKey,
  TenantIdKey,
  ArtistCanonicalIdKey,
  PartnerActorIdKey,
  AwaitingSinceKey,
] as const;

export const identityEvidenceStatuses = ['unmatched', 'phone_matched', 'review_required', 'verified_by_operator'] as const;
export type IdentityEvidenceStatus = (typeof identityEvidenceStatuses)[number];

export interface ArtistResolutionInput {
  tenantId: string;
  idempotencyKey: string;
  fingerprint: string;
  actorId: string;
  sourceMessageId?: string | undefined;
  phoneHash?: string | undefined;
  instagramHandle?: string | undefined;
  marketplaceProfileUrl?: string | undefined;
}

export interface ArtistResolutionResult {
  status: IdentityEvidenceStatus;
  artistCanonicalId: string | null;
  reviewRequired: boolean;
  legalKycVerified: false;
  fingerprint: string;
}

export function artistResolutionWorkflowId(tenantId: string, idempotencyKeyHash: string): string {
  return `artist-resolution/${tenantId}/${idempotencyKeyHash}`;
}
