// Identity evidence review (issue 14, item 5): artist resolutions waiting for an operator, and the
// operator's verification that links the evidence to an artist as `verified_by_operator`. Bearer
// of a mapped human operator with portfolio_intake:review. Review evidence only, never legal
// identity verification: every answer says `legalKycVerified: false`.
import { z } from 'zod';
import '../../openapi/components'; // extends zod with .openapi() before the schemas below use it
import {
  EVIDENCE_KINDS,
  EvidenceReviewRefusedError,
  listArtistResolutions,
  REVIEWABLE_STATUSES,
  verifyArtistEvidence,
  type EvidenceReviewRefusal,
} from '../../../lib/identity/evidence-review';
import { plainText, trimmedText } from '../../../lib/validation/text';
import type { Sql } from '../../../lib/db';
import type { Actor } from '../../auth/middleware';
import { AppError, type ErrorCode } from '../../http/errors';
import { defineRoute, type Route } from '../../http/route';
import { INTAKE_BASE } from '../bases';

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

const review = z.object({ by: z.string(), at: z.string(), artistCanonicalId: z.string(), note: z.string() });
const resolution = z.object({
  resolutionId: z.string(),
  tenantId: z.string(),
  actorId: z.string(),
  status: z.string(),
  artistCanonicalId: z.string().nullable(),
  reviewRequired: z.boolean(),
  matchedEvidence: z.string().nullable(),
  evidence: z.object(Object.fromEntries(EVIDENCE_KINDS.map((k) => [k, z.string().optional()]))),
  createdAt: z.string(),
  review: review.nullable(),
  legalKycVerified: z.literal(false),
});

export const ResolutionReviewPage = z
  .object({
    success: z.literal(true),
    data: z.array(resolution),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  })
  .openapi('ArtistResolutionReviewPage');

export const EvidenceVerified = z
  .object({
    success: z.literal(true),
    data: z.object({
      resolutionId: z.string(),
      status: z.literal('verified_by_operator'),
      changed: z.boolean(),
      artistCanonicalId: z.string(),
      tenantId: z.string(),
      evidence: z.array(z.enum(EVIDENCE_KINDS)),
      verifiedBy: z.string(),
      verifiedAt: z.string(),
      legalKycVerified: z.literal(false),
    }),
  })
  .openapi('EvidenceVerified');

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

export function evidenceReviewRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'intake', method: 'get', path: `${INTAKE_BASE}/artist-resolutions`, operationId: 'listArtistResolutions', tag: 'artists',
      auth: 'operator', permission: 'portfolio_intake:review', query: resolutionListQuery,
      summary: 'Artist resolutions waiting for an operator\'s review of their identity evidence, oldest first',
      ok: { 200: ['one page of resolutions', ResolutionReviewPage] },
      async handler({ deps, query: q, res }) {
        const { items, total } = await listArtistResolutions(deps.sql, q);
        res.json({ success: true, data: items, pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) } });
      },
    }),
    defineRoute({
      doc: 'intake', method: 'post', path: `${INTAKE_BASE}/artist-resolutions/{resolutionId}/verify`, operationId: 'verifyArtistEvidence', tag: 'artists',
      auth: 'operator', permission: 'portfolio_intake:review', params: resolutionIdParams, body: verifyEvidenceSchema, bodyLimit: '16kb',
      summary: 'Link a resolution\'s evidence to an artist as verified_by_operator (review evidence, never legal identity verification)',
      ok: { 200: ['the evidence is verified_by_operator; the next resolution with it answers so', EvidenceVerified] }, problems: [404, 409],
      async handler({ deps, params, body, actor, res }) {
        res.json({ success: true, data: await verifyEvidenceOp(deps.sql, actor(), params.resolutionId, body) });
      },
    }),
  ];
}
