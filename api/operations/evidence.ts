// The evidence-review operation (one module for what the API's routes and the console
// both do): an operator's verification that links a resolution's evidence to an artist as
// `verified_by_operator`, with its inputs. Review evidence only, never legal identity verification.
import { z } from '../openapi/zod';
import {
  EVIDENCE_KINDS,
  EvidenceReviewRefusedError,
  listArtistResolutions,
  REVIEWABLE_STATUSES,
  verifyArtistEvidence,
  type EvidenceReviewRefusal,
} from '../../lib/identity/evidence-review';
import { plainText, trimmedText } from '../../lib/validation/text';
import type { Sql } from '../../lib/db';
import type { Actor } from '../auth/middleware';
import { AppError, type ErrorCode } from '../http/errors';

export const resolutionListQuery = z
  .object({
    status: z.enum(REVIEWABLE_STATUSES).optional().describe('one status; default: review_required and unmatched'),
    state: z.enum(['open', 'reviewed', 'all']).default('open').describe('open (default): not reviewed yet'),
    tenantId: trimmedText(200).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();

export const resolutionIdParams = z.object({ resolutionId: z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'not a resolution id') });

export const verifyEvidenceSchema = z
  .object({
    artistCanonicalId: trimmedText(200).describe('the canonical artist the evidence belongs to, as you established it'),
    evidence: z.array(z.enum(EVIDENCE_KINDS)).min(1).max(4).optional().describe('which of the request\'s evidence to link; default: all it carried'),
    note: plainText(2000, 3).describe('how you established it (3..2000 characters)'),
  })
  .strict();

const CODE_OF: Record<EvidenceReviewRefusal, ErrorCode> = {
  operator_required: 'operator_required',
  resolution_not_found: 'not_found',
  evidence_missing: 'evidence_missing',
  already_reviewed: 'invalid_transition',
  note_required: 'validation_failed',
};

/** Verify a resolution's evidence as `a`: the one code path of the API route and the console. */
export async function verifyEvidenceOp(sql: Sql, a: Pick<Actor, 'actorId' | 'credential'>, resolutionId: string, body: z.output<typeof verifyEvidenceSchema>) {
  try {
    return await verifyArtistEvidence(sql, {
      resolutionId, artistCanonicalId: body.artistCanonicalId, evidence: body.evidence, note: body.note,
      operatorActorId: a.actorId, credentialId: a.credential.id,
    });
  } catch (err) {
    if (err instanceof EvidenceReviewRefusedError) throw new AppError(CODE_OF[err.reason], err.message);
    throw err;
  }
}


/** One page of the resolutions waiting for review, as the API route and the console answer it. */
export async function resolutionsPage(sql: Sql, q: z.output<typeof resolutionListQuery>) {
  const { items, total } = await listArtistResolutions(sql, q);
  return { data: items, pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) } };
}
