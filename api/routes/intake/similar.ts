// GET /submissions/{id}/similar: the near-duplicates of a submission's image among
// every other submission, draft and published asset, whoever's (lib/intake/similar.ts). Other
// partners' data: only a mapped human operator with portfolio_intake:review reads it.
import { z } from '../../openapi/zod';
import { flaggedMatchesOf } from '../../../lib/intake/similar';
import { SimilarMatch as Match } from '../../../lib/intake/similar-match';
import { GUARANTEED_DISTANCE } from '../../../lib/media/fingerprints/index';
import { findSubmission } from '../../../lib/intake/submissions';
import { AppError } from '../../http/errors';
import { defineRoute, type Route } from '../../routing/route';
import { INTAKE_BASE } from '../../routing/bases';
import { submissionIdParams } from './schemas';

export const SimilarMatch = Match.extend({ flagged: z.boolean().describe('another artist\'s published or pending work') }).openapi('SimilarMatch');

export const SimilarAnswer = z
  .object({ success: z.literal(true), data: z.object({ matches: z.array(SimilarMatch) }) })
  .openapi('SimilarImages');

export function similarRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'intake', method: 'get', path: `${INTAKE_BASE}/submissions/{submissionId}/similar`, operationId: 'similarImages', tag: 'review',
      auth: 'operator', permission: 'portfolio_intake:review', params: submissionIdParams,
      summary: `Near-duplicates of the submission's image (pHash within ${GUARANTEED_DISTANCE} bits, mirrored and centre-cropped views included, or the same bytes) among every other submission, draft and published asset, nearest first. Advice for the operator, never a refusal.`,
      ok: { 200: ['the matches, nearest first (at most 50)', SimilarAnswer] },
      problems: [404],
      async handler({ deps, params: { submissionId } }) {
        if (!(await findSubmission(deps.sql, submissionId))) throw new AppError('not_found', 'No such submission.');
        const matches = await flaggedMatchesOf(deps.sql, submissionId, { publicBaseUrl: deps.publicBaseUrl, intakeBase: INTAKE_BASE });
        return { data: { matches } };
      },
    }),
  ];
}
