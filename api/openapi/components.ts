// Response and error schemas of the documents, in zod like the request schemas: the request side
// is the routes' own validation schemas, imported as they are; the response side is declared here
// (the directory's) and in the modules re-exported below, and checked against real answers by the
// tests and by schemathesis.
import { z } from './zod';
import { studioAnswerFields } from '../../lib/directory/fields/studio';
import { artistAnswerFields } from '../../lib/directory/fields/artist';
import { designExtraFields, portfolioAnswerFields, RENDITION } from '../../lib/directory/fields/media';

export * from './problems';
export * from './intake-answers';
export * from './meta-answers';

const Provenance = z.object({
  recordState: z.enum(['raw', 'normalized', 'curated', 'verified', 'deprecated']),
  sourceType: z.string(),
  originAuthority: z.string(),
  sourceUrl: z.string().nullable(),
  sourceCollectedAt: z.string().nullable(),
  licenseStatus: z.string(),
  consentLevel: z.string(),
  sourceNotes: z.array(z.string()),
});
const Trust = z.object({
  verificationStatus: z.string(),
  approvalStatus: z.string(),
  visibility: z.enum(['public', 'private', 'owner_only']),
  culturalSensitivityLevel: z.string(),
  trustNotes: z.array(z.string()),
});
const records = { provenance: Provenance.openapi('Provenance'), trust: Trust.openapi('Trust') };

export const Studio = z
  .object({
    id: z.string(),
    ...studioAnswerFields,
    distance_km: z.number().nullable().optional().describe('only when latitude and longitude were given'),
    ...records,
  })
  .openapi('Studio');

/**
 * Bounded totals, as Lucene-based engines count them (track_total_hits): exact up to
 * SEARCH_TOTAL_CAP (default 10,000), beyond it the cap and the relation `gte`.
 */
const TOTAL_RULE =
  'exact up to the total cap (SEARCH_TOTAL_CAP, default 10,000); beyond it the cap itself, with the relation "gte" (a lower bound); page counts follow from this total';
const totalRelation = z.enum(['eq', 'gte']);

export const StudiosPage = z.object({
  data: z.array(Studio),
  pagination: z.object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().describe(TOTAL_RULE),
    totalPages: z.number().int(),
    hasNext: z.boolean(),
    hasPrev: z.boolean(),
  }),
  totalRelation: totalRelation.describe('"eq": pagination.total is exact; "gte": there are at least that many studios'),
  error: z.null(),
});

const FacetCounts = z.array(z.object({ value: z.union([z.string(), z.boolean()]), count: z.number().int() }));
export const SearchResult = z
  .object({
    type: z.enum(['studio', 'artist', 'design']),
    id: z.string(),
    name: z.string(),
    description: z.string(),
    rating: z.number().nullable(),
    review_count: z.number().int(),
    verified: z.boolean(),
    styles: z.array(z.string()),
    specialties: z.array(z.string()),
    location: z.object({ city: z.string().nullable(), state: z.string().nullable(), country: z.string().nullable() }),
    relevance_score: z
      .number()
      .describe(
        '0..1: 0.6 x full-text rank (cover density, name weighted above city / specialties above description, rank / (rank + 1)) + 0.3 x trigram similarity of name to q + 0.1 x static quality; 0 without q. With sort_by=relevance the first 500 matches in static-quality order are ordered by it',
      ),
    distance_km: z.number().nullable().optional(),
    ...records,
  })
  .openapi('SearchResult');

export const SearchPage = z.object({
  success: z.literal(true),
  data: z.object({
    results: z.array(SearchResult),
    total: z.number().int().describe(TOTAL_RULE),
    total_relation: totalRelation.describe('"eq": total is exact; "gte": there are at least total matches'),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total_pages: z.number().int(), has_next: z.boolean(), has_prev: z.boolean() }),
    corrected_query: z
      .string()
      .optional()
      .describe('present when a word of q is in no document and a near indexed word was searched instead: q as given, with each such word replaced by the word searched'),
    corrections: z
      .array(z.object({ word: z.string(), used_instead: z.string().nullable().describe('null: nothing near; the word was searched as given') }))
      .optional()
      .describe('with corrected_query, or when a word matched nothing near: each word of q found in no document'),
    facets: z
      .object({ types: FacetCounts, cities: FacetCounts, states: FacetCounts, countries: FacetCounts, styles: FacetCounts, specialties: FacetCounts, verified: FacetCounts })
      .optional()
      .describe(
        'with include_facets=true. Exact (over every match) when total_relation is "eq"; when it is "gte", counted over the first 500 matches in static-quality order (the candidates the relevance ranking re-scores), so they show the make-up of the best matches, not of all of them',
      ),
  }),
});

export const Artist = z.object({ id: z.string(), ...artistAnswerFields }).openapi('Artist');
export const ArtistListItem = Artist.extend({ created_at: z.string() }).openapi('ArtistListItem');

export const ArtistsPage = z.object({
  success: z.literal(true),
  data: z.array(ArtistListItem),
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }),
});
export const ArtistEnvelope = z.object({ success: z.literal(true), data: Artist });

const mediaPagination = z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() });

// a new object of the table's rendition fields: a schema made before zod is extended has no .openapi
export const Rendition = z.object(RENDITION.shape).openapi('Rendition');
const renditions = z
  .array(Rendition)
  .describe('Public renditions, largest first: re-encoded, metadata stripped. Empty for records imported with an external image_url.');

// renditions: the table's, as the registered Rendition
export const PortfolioAsset = z.object({ id: z.string(), ...portfolioAnswerFields, renditions, ...records }).openapi('PortfolioAsset');
export const Design = PortfolioAsset.extend(designExtraFields).openapi('Design');

export const PortfoliosPage = z.object({ success: z.literal(true), data: z.array(PortfolioAsset), pagination: mediaPagination });
export const DesignsPage = z.object({ success: z.literal(true), data: z.array(Design), pagination: mediaPagination });

export const OwnerAsset = z
  .object({
    id: z.string(),
    source: z.enum(['runtime', 'media_store_draft']),
    artist_id: z.string(),
    studio_id: z.string().nullable(),
    title: z.string(),
    description: z.string(),
    image_url: z.string().nullable(),
    renditions,
    tags: z.array(z.string()),
    style_ids: z.array(z.string()),
    featured: z.boolean(),
    is_public: z.boolean(),
    publish_state: z.string(),
    visibility: z.string(),
    rights_posture: z.string(),
    consent_posture: z.string(),
    created_at: z.string(),
    ...records,
  })
  .openapi('OwnerAsset');
export const OwnerDesign = OwnerAsset.omit({ source: true })
  .extend({ price: z.number().nullable(), runtime_trust_proof: z.record(z.string(), z.unknown()) })
  .openapi('OwnerDesign');
export const OwnerAssetsPage = z.object({ success: z.literal(true), data: z.array(OwnerAsset), pagination: mediaPagination });
export const OwnerDesignsPage = z.object({ success: z.literal(true), data: z.array(OwnerDesign), pagination: mediaPagination });
