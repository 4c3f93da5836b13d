// One similar image of a submission, declared once: the zod schema (the API's answer) and its type.
import { z } from 'zod';
import { GUARANTEED_DISTANCE } from '../media/fingerprints/index';

export const SimilarMatch = z.object({
  kind: z.enum(['published_asset', 'draft', 'submission']),
  id: z.string().describe('the asset id (pfa_…), the media-store document id (mdoc_…) or the submission id, as kind says'),
  submissionId: z.string(),
  assetId: z.string().nullable(),
  artistCanonicalId: z.string(),
  partnerOrganizationId: z.string().nullable(),
  status: z.string().describe('published | taken_down (published_asset), draft, or the submission\'s intake status'),
  distance: z.number().int().min(0).max(GUARANTEED_DISTANCE).describe(`Hamming distance of the nearest pHash pair (0..${GUARANTEED_DISTANCE})`),
  sameBytes: z.boolean().describe('the verified bytes are identical (same sha256)'),
  previewUrl: z.string().nullable(),
});
export type SimilarMatch = z.infer<typeof SimilarMatch>;
export type MatchKind = SimilarMatch['kind'];
