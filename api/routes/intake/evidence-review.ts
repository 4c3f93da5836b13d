// Identity evidence review: artist resolutions waiting for an operator, and the
// operator's verification that links the evidence to an artist as `verified_by_operator`. Bearer
// of a mapped human operator with portfolio_intake:review. Review evidence only, never legal
// identity verification: every answer says `legalKycVerified: false`.
import { z } from '../../openapi/zod';
import { ResolutionReview, VerifyEvidenceResult } from '../../../lib/identity/evidence-answers';
import { defineRoute, type Route } from '../../routing/route';
import { resolutionIdParams, resolutionListQuery, resolutionsPage, verifyEvidenceOp, verifyEvidenceSchema } from '../../operations/evidence';
import { INTAKE_BASE } from '../../routing/bases';

export const ResolutionReviewPage = z
  .object({
    success: z.literal(true),
    data: z.array(ResolutionReview),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  })
  .openapi('ArtistResolutionReviewPage');

export const EvidenceVerified = z.object({ success: z.literal(true), data: VerifyEvidenceResult }).openapi('EvidenceVerified');

export function evidenceReviewRoutes(): Route[] {
  const review = { doc: 'intake', tag: 'artists', auth: 'operator', permission: 'portfolio_intake:review' } as const;
  return [
    defineRoute({
      ...review, method: 'get', path: `${INTAKE_BASE}/artist-resolutions`, operationId: 'listArtistResolutions', query: resolutionListQuery,
      summary: 'Artist resolutions waiting for an operator\'s review of their identity evidence, oldest first',
      ok: { 200: ['one page of resolutions', ResolutionReviewPage] },
      async handler({ deps, query: q }) {
        return resolutionsPage(deps.sql, q);
      },
    }),
    defineRoute({
      ...review, method: 'post', path: `${INTAKE_BASE}/artist-resolutions/{resolutionId}/verify`, operationId: 'verifyArtistEvidence',
      params: resolutionIdParams, body: verifyEvidenceSchema, bodyLimit: '16kb',
      summary: 'Link a resolution\'s evidence to an artist as verified_by_operator (review evidence, never legal identity verification)',
      ok: { 200: ['the evidence is verified_by_operator; the next resolution with it answers so', EvidenceVerified] }, problems: [404, 409],
      async handler({ deps, params, body, actor }) {
        return { data: await verifyEvidenceOp(deps.sql, actor(), params.resolutionId, body) };
      },
    }),
  ];
}
