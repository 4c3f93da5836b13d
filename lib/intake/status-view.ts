// The contract's status view of a submission (2.3), one definition for every reader: the status
// routes, the list, the webhook payloads and the events feed.
import { renditionPath } from '../media/renditions';
import type { SubmissionTimes } from './submissions';
import { partnerStatus, reviewPending, type IntakeView } from './vocabulary';

/**
 * The contract's status view (2.3): no storage pointers, review notes or credential details; with
 * the times and the public asset's URL (additive) when the caller has them.
 */
export function statusView(s: IntakeView, t?: { times: SubmissionTimes; publicBaseUrl: string }) {
  return {
    submissionId: s.submissionId,
    artistCanonicalId: s.artistCanonicalId,
    intakeStatus: partnerStatus(s.intakeStatus),
    reviewStatus: s.reviewStatus,
    mediaStoreDocumentId: s.mediaStoreDocumentId,
    ...(s.failureCode ? { failureReason: s.failureCode } : {}),
    ...(s.rejectReasonCode ? { rejectReason: s.rejectReasonCode } : {}),
    ...(t ? timesView(t.times, t.publicBaseUrl) : {}),
    governance: {
      reviewRequired: reviewPending(s.reviewStatus),
      promotedToMediaStore: s.intakeStatus === 'promoted_to_media_store',
      publicSurfaceActivated: false as const,
      canonicalRuntimeMutationExecuted: false as const,
    },
  };
}

export function timesView(t: SubmissionTimes, publicBaseUrl: string) {
  return {
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    ...(t.awaitingSince ? { awaitingReviewSince: t.awaitingSince.toISOString() } : {}),
    ...(t.decidedAt ? { decidedAt: t.decidedAt.toISOString() } : {}),
    ...(t.publicAssetId ? { publicAssetUrl: `${publicBaseUrl}${renditionPath(t.publicAssetId, 'large')}` } : {}),
    ...(t.takenDownAt ? { takenDownAt: t.takenDownAt.toISOString() } : {}),
  };
}

