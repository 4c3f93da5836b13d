// What the evidence review answers, declared once: zod schemas, the TypeScript types inferred from
// them (lib/identity/evidence-review.ts fills them; the intake API names them in its document).
import { z } from 'zod';

export const EVIDENCE_KINDS = ['mapping', 'phone_hash', 'instagram_handle', 'marketplace_profile_url'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

export const ResolutionReview = z.object({
  resolutionId: z.string(),
  tenantId: z.string(),
  actorId: z.string().describe('the partner actor that asked'),
  status: z.string(),
  artistCanonicalId: z.string().nullable(),
  reviewRequired: z.boolean(),
  matchedEvidence: z.string().nullable().describe('the evidence kind that matched, if any'),
  evidence: z
    .object(Object.fromEntries(EVIDENCE_KINDS.map((k) => [k, z.string().optional()])) as Record<EvidenceKind, z.ZodOptional<z.ZodString>>)
    .describe('the normalized evidence the request carried, by kind (phone numbers only as hashes)'),
  createdAt: z.string(),
  review: z.object({ by: z.string(), at: z.string(), artistCanonicalId: z.string(), note: z.string() }).nullable(),
  legalKycVerified: z.literal(false),
});
export type ResolutionReview = z.infer<typeof ResolutionReview>;

export const VerifyEvidenceResult = z.object({
  resolutionId: z.string(),
  status: z.literal('verified_by_operator'),
  changed: z.boolean().describe('false when the same review had already been recorded (a retry): nothing changed'),
  artistCanonicalId: z.string(),
  tenantId: z.string(),
  evidence: z.array(z.enum(EVIDENCE_KINDS)),
  verifiedBy: z.string(),
  verifiedAt: z.string(),
  legalKycVerified: z.literal(false),
});
export type VerifyEvidenceResult = z.infer<typeof VerifyEvidenceResult>;
