// Request schemas of the private intake API (contract 2.1, 2.4, 2.5). They validate requests and
// describe them in the OpenAPI document: one source of truth.
import { z } from 'zod';
import { plainText, trimmedText } from '../../../lib/validation/text';
import { CLASSIFICATION_LIMITS, PLACEMENTS, STYLES, SUBJECTS } from '../../../lib/agents/vocabulary';
import { limitParam } from '../../../lib/directory/params';
import { consentPostures, partnerStatuses, rejectReasonCodes, type IntakeStatus, rightsPostures, submissionSources } from '../../../lib/intake/vocabulary';
import { mimeTypes } from '../../../lib/media/vocabulary';
import type { DecisionFields, DecisionKind } from '../../../lib/intake/decisions';
import { SIGNAL_LIMITS } from '../../../lib/intake/signal-shapes';

const id = trimmedText(200);

export function createSubmissionSchema(maxMediaBytes: number) {
  return z
    .object({
      idempotencyKey: plainText(200, 8),
      tenantId: id,
      studioCanonicalId: id.optional(),
      artistCanonicalId: id,
      source: z.enum(submissionSources),
      sourceMessageId: id.optional(),
      fileName: trimmedText(255),
      mimeType: z.enum(mimeTypes),
      sizeBytes: z.number().int().min(1).max(maxMediaBytes),
      title: plainText(300).optional(),
      description: plainText(5000).optional(),
      styleIds: z.array(id).max(50).optional(),
      placement: plainText(100).optional(),
      tags: z.array(trimmedText(100)).max(50).optional(),
      rightsPosture: z.enum(rightsPostures),
      consentPosture: z.enum(consentPostures),
    })
    .strict();
}

export const submissionIdParams = z.object({ submissionId: z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'not a submission id') });

/** The ids of the similar-image matches the operator was shown (GET …/similar `id`s): covered by the decision's proof and recorded with it. */
export const seenMatchesSchema = z
  .array(z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'not a match id'))
  .max(50)
  .describe('the ids of the similar-image matches the operator was shown (at most 50); the signed decision covers them');

const approveSchema = z
  .object({
    reviewNotes: plainText(SIGNAL_LIMITS.notes, 3),
    seenMatches: seenMatchesSchema.optional(),
    acknowledgeMatches: z.boolean().optional().describe('the operator looked at the similar images flagged as another artist\'s work; the review console needs it to approve over one'),
    accepted: z
      .object({
        classificationId: z.string().min(1).max(100),
        styleIds: z.array(z.enum(STYLES)).max(CLASSIFICATION_LIMITS.styles).default([]).describe('styles of the classification: they replace the partner\'s in the draft'),
        placement: z.enum(PLACEMENTS).optional().describe('the classification\'s placement: the draft\'s own'),
        tags: z.array(z.enum(SUBJECTS)).max(CLASSIFICATION_LIMITS.subjects).default([]).describe('subjects of the classification, added to the draft\'s tags'),
      })
      .strict()
      .optional()
      .describe('machine-suggested labels the operator takes into the draft (docs/agents.md): each must be in the current classification named; the decision\'s proof covers them'),
  })
  .strict();

const rejectSchema = z
  .object({ reasonCode: z.enum(rejectReasonCodes), reviewNotes: plainText(SIGNAL_LIMITS.notes, 3) })
  .strict();

/**
 * The request body of each decision's route (lib/intake/decisions.ts): what the operator sends,
 * within the API's limits (smaller than the Update's). Total over the kinds; each body is at least
 * the decision's fields (a route's guard takes any others off: signals.ts).
 */
export const decisionBodies = { approve: approveSchema, reject: rejectSchema } satisfies { [K in DecisionKind]: z.ZodType<DecisionFields<K>> };

export const reviewQueueQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();

/** The list cursor: where the previous page ended (opaque to clients: base64url JSON). */
const cursorShape = z.object({ t: z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?$/), i: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/) });

export function encodeCursor(c: { createdAt: string; submissionId: string }): string {
  return Buffer.from(JSON.stringify({ t: c.createdAt, i: c.submissionId })).toString('base64url');
}

export const listSubmissionsQuery = z
  .object({
    intakeStatus: z.enum(partnerStatuses as [IntakeStatus, ...IntakeStatus[]]).optional(),
    tenantId: id.optional(),
    createdAfter: z.iso.datetime({ offset: true }).optional().describe('RFC 3339; only submissions created after it'),
    createdBefore: z.iso.datetime({ offset: true }).optional().describe('RFC 3339; only submissions created before it'),
    limit: limitParam(20, 100),
    cursor: z
      .string()
      .max(600)
      .transform((v, ctx) => {
        try {
          const c = cursorShape.parse(JSON.parse(Buffer.from(v, 'base64url').toString('utf8')));
          return { createdAt: c.t, submissionId: c.i };
        } catch {
          ctx.addIssue({ code: 'custom', message: 'not a cursor this API gave out (use next_cursor as it came)' });
          return z.NEVER;
        }
      })
      .optional()
      .describe('next_cursor of the previous page'),
  })
  .strict();

export const artistResolutionSchema = z
  .object({
    idempotencyKey: plainText(200, 8),
    tenantId: id,
    studioCanonicalId: id.optional(),
    sourceMessageId: id.optional(),
    source: z.enum(['permanent_messaging', 'partner_api']),
    displayName: trimmedText(200).optional(),
    phoneHash: z.string().regex(/^sha256:[a-f0-9]{64}$/).optional(),
    instagramHandle: z.string().regex(/^@?[A-Za-z0-9._]{1,30}$/).optional(),
    marketplaceProfileUrl: z.url({ protocol: /^https$/ }).max(500).optional(),
  })
  .strict();
