// What the review console's reads answer, declared once: the zod schemas below; the TypeScript types
// are inferred from them, lib/console/review.ts fills them, and api/console/routes.ts names them in
// the OpenAPI document. Times are ISO 8601 strings, as JSON carries them.
import { z } from 'zod';
import { consentPostures, intakeStatuses, reviewStatuses, rightsPostures } from '../intake/vocabulary';
import { DECISION_KINDS, DECISION_LABELS, type DecisionLabel } from '../intake/decisions';
import { Classification } from '../agents/answers';
import { CONTENT_FLAGS } from '../agents/vocabulary';

const iso = z.string().describe('ISO 8601');

export const QueueItem = z.object({
  submissionId: z.string(),
  fileName: z.string(),
  title: z.string().nullable(),
  partnerActorId: z.string(),
  partnerOrganizationId: z.string().nullable(),
  tenantId: z.string(),
  artistCanonicalId: z.string(),
  artistEvidence: z.enum(['verified_by_operator', 'evidence_on_file', 'no_evidence']),
  artistHasProfile: z.boolean().describe('the artist has a runtime profile: its profile link, or the canonical id is a listed artist'),
  artistProfileId: z.string().nullable().describe('the runtime artist profile (GET /api/v1/artists/{id}) it is published under'),
  artistOrganizations: z.array(z.string()).describe('the organizations the artist belongs to, shown beside the partner\'s own'),
  rightsPosture: z.enum(rightsPostures),
  consentPosture: z.enum(consentPostures),
  mimeType: z.string(),
  sizeBytes: z.number(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  imageOrientation: z.number().int().nullable().describe('the EXIF orientation: 5 to 8 turn the image a quarter (width and height are as stored)'),
  awaitingSince: iso,
  ageSeconds: z.number().int(),
  claimedBy: z.string().nullable(),
  claimedUntil: iso.nullable(),
  contentFlags: z
    .array(z.object({ id: z.enum(CONTENT_FLAGS), confidence: z.number(), actorId: z.string() }))
    .describe('content flags at or above FLAG_CONFIDENCE in current machine classifications, highest first: suggestions, never decisions'),
  secondReview: z
    .object({ firstApprovedBy: z.string(), firstApprovedAt: z.string(), firstNotes: z.string().nullable(), reasons: z.array(z.string()) })
    .nullable()
    .describe('approved once and waiting for a second, different operator (the second-review policy): who approved first, when, with what notes, and why a second is needed (similar_image:<id>, content_flag:<flag>:<confidence>); null otherwise'),
});
/** A machine's content flag at or above this confidence is shown in the queue. */
export const FLAG_CONFIDENCE = 0.5;
export type QueueItem = z.infer<typeof QueueItem>;

export const SubmissionDetail = QueueItem.extend({
  awaitingSince: iso.nullable(),
  intakeStatus: z.enum(intakeStatuses),
  reviewStatus: z.enum(reviewStatuses),
  verifiedSha256: z.string().nullable(),
  imageFormat: z.string().nullable(),
  imageFrames: z.number().int().nullable(),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  styleIds: z.array(z.string()),
  placement: z.string().nullable(),
  createdAt: iso,
  classifications: z.array(Classification).describe('the current machine classifications (one per classifier), newest first'),
  events: z.array(z.object({ at: iso, fromStatus: z.enum(intakeStatuses).nullable(), toStatus: z.enum(intakeStatuses), trigger: z.string(), actorId: z.string(), note: z.string().nullable() })),
  decisions: z
    .array(
      z.object({
        kind: z.enum(DECISION_KINDS),
        action: z.string().describe('the button\'s words'),
        tone: z.enum(['primary', 'danger']),
        reasonCodes: z.array(z.string()).nullable().describe('the reason codes its body takes one of; null: none'),
        refusedBecause: z.string().nullable().describe('why this operator cannot take it here (the second-review rule); null: they can'),
      }),
    )
    .describe('the decisions its state takes (lib/intake/decisions.ts, in table order), as the console offers them to this operator; empty when none'),
});
export type SubmissionDetail = z.infer<typeof SubmissionDetail>;

export const RecentDecision = z.object({
  submissionId: z.string(),
  fileName: z.string(),
  /** The decision, as the console calls its kind (lib/intake/decisions.ts label). */
  decision: z.enum(DECISION_LABELS),
  actorId: z.string(),
  at: iso,
  note: z.string().nullable(),
  intakeStatus: z.enum(intakeStatuses),
});
export type RecentDecision = z.infer<typeof RecentDecision>;

/** Decisions since a time, by kind (its console label): a count each. */
export const DecisionCounts = z.object(Object.fromEntries(DECISION_LABELS.map((l) => [l, z.number().int()])) as Record<DecisionLabel, z.ZodNumber>);
export type DecisionCounts = z.infer<typeof DecisionCounts>;

export const publications = ['draft', 'published', 'unpublished'] as const;
export const DraftRow = z.object({
  documentId: z.string(),
  submissionId: z.string(),
  fileName: z.string(),
  title: z.string().nullable(),
  tenantId: z.string(),
  artistCanonicalId: z.string(),
  rightsPosture: z.enum(rightsPostures),
  consentPosture: z.enum(consentPostures),
  approvedBy: z.string(),
  createdAt: iso,
  assetId: z.string().nullable(),
  publication: z.enum(publications).describe('draft (never published), published, unpublished'),
});
export type DraftRow = z.infer<typeof DraftRow>;

/** A timestamp as the answers carry it. */
export const isoOf = <T extends Date | null>(d: T): T extends Date ? string : string | null => (d === null ? null : d.toISOString()) as never;
