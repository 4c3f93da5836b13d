// The intake API's answers (submissions, their status, decisions, the review queue, resolutions).
import { z } from './zod';
import { QueueItem } from '../../lib/console/answers';
import { consentPostures, partnerStatuses, rejectReasonCodes, reviewStatuses, rightsPostures, verificationFailureCodes, type IntakeStatus } from '../../lib/intake/vocabulary';

export const Governance = z.object({
  reviewRequired: z.boolean(),
  promotedToMediaStore: z.boolean(),
  publicSurfaceActivated: z.literal(false),
  canonicalRuntimeMutationExecuted: z.literal(false),
});

export const SubmissionStatus = z
  .object({
    submissionId: z.string(),
    artistCanonicalId: z.string(),
    intakeStatus: z.enum(partnerStatuses as [IntakeStatus, ...IntakeStatus[]]),
    reviewStatus: z.enum(reviewStatuses),
    mediaStoreDocumentId: z.string().nullable(),
    failureReason: z.enum(verificationFailureCodes).optional(),
    rejectReason: z.enum(rejectReasonCodes).optional(),
    createdAt: z.string().optional().describe('RFC 3339'),
    updatedAt: z.string().optional(),
    awaitingReviewSince: z.string().optional().describe('when verification passed and review began'),
    decidedAt: z.string().optional().describe('when an operator approved or rejected it'),
    publicAssetUrl: z.string().optional().describe('the published image once an operator published the draft'),
    takenDownAt: z.string().optional().describe('RFC 3339; when an operator took the published image down (it is gone from every public read); absent while it is public or was never published'),
    governance: Governance,
  })
  .openapi('SubmissionStatus');

export const StatusEnvelope = z.object({ success: z.literal(true), data: SubmissionStatus });
export const SignalEnvelope = z
  .object({
    success: z.literal(true),
    data: SubmissionStatus,
    outcome: z
      .enum(['settled', 'accepted', 'pending'])
      .describe('settled (200): the state the request leads to; accepted (202): the workflow has it and is still working; pending (202): a dependency was lost after the request went out, so whether it was applied is not known yet: read the status (a 503 always means not applied)'),
  })
  .openapi('SignalResult');
export const SubmissionList = z
  .object({
    success: z.literal(true),
    data: z.array(SubmissionStatus),
    next_cursor: z.string().nullable().describe('pass as `cursor` for the next page; null on the last'),
  })
  .openapi('SubmissionList');

export const CreatedSubmission = z
  .object({
    success: z.literal(true),
    data: z.object({
      submission: z.object({ submissionId: z.string(), intakeStatus: z.enum(partnerStatuses as [IntakeStatus, ...IntakeStatus[]]), reviewStatus: z.enum(reviewStatuses) }),
      upload: z
        .object({
          method: z.literal('PUT'),
          url: z.string().describe('signed upload URL'),
          expiresInSeconds: z.number().int(),
          headers: z.record(z.string(), z.string()).describe('send these headers with the PUT exactly as given; they are signed'),
        })
        .nullable()
        .describe('null once the upload is complete (a replay after upload-complete)'),
    }),
  })
  .openapi('CreatedSubmission');

export const ReviewQueue = z.object({
  success: z.literal(true),
  data: z.array(
    z.object({
      submissionId: z.string(),
      tenantId: z.string(),
      artistCanonicalId: z.string(),
      mimeType: z.string(),
      sizeBytes: z.number().int(),
      rightsPosture: z.enum(rightsPostures),
      consentPosture: z.enum(consentPostures),
      awaitingSince: z.string(),
      ageSeconds: z.number().int(),
      secondReview: QueueItem.shape.secondReview,
    }),
  ),
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
});

export const ArtistResolution = z.object({
  success: z.literal(true),
  data: z.object({
    status: z.enum(['unmatched', 'phone_matched', 'review_required', 'verified_by_operator']),
    artistCanonicalId: z.string().nullable(),
    reviewRequired: z.boolean(),
    legalKycVerified: z.literal(false),
  }),
});

export const PreviewImage = z.string().openapi({ type: 'string', format: 'binary', description: 'WebP bytes, no metadata' });
export const RenditionImage = z.string().openapi({ type: 'string', format: 'binary', description: 'WebP bytes, no metadata; ETag is the sha256 of the bytes' });

export const UploadAccepted = z.object({ success: z.literal(true), data: z.object({ bytes: z.number().int() }) });
