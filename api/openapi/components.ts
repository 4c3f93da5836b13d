// Response and error schemas of the documents, in zod like the request schemas: the request side
// is the routes' own validation schemas, imported as they are; the response side is declared here
// and checked against real answers by the tests and by schemathesis.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ERROR_STATUS, TITLES } from '../http/errors';
import { intakeStatuses, reviewStatuses, verificationFailureCodes, rejectReasonCodes } from '../../lib/intake/vocabulary';
import { studioAnswerFields } from '../../lib/directory/fields/studio';

extendZodWithOpenApi(z);

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    success: z.literal(false),
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]).describe('stable machine-readable code'),
    requestId: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional().describe('one entry per invalid field'),
  })
  .openapi('Problem', { description: 'RFC 9457 problem details with the house extensions success, code, requestId and errors[]' });

export type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

const PROBLEM_HEADERS: Partial<Record<ProblemStatus, Record<string, { description: string; schema: { type: 'string' } }>>> = {
  405: { Allow: { description: 'the methods this resource answers', schema: { type: 'string' } } },
  429: {
    'Retry-After': { description: 'seconds until the window has room again', schema: { type: 'string' } },
    'RateLimit-Policy': { description: 'the limit: `"<family>";q=<requests>;w=<seconds>` (IETF RateLimit headers draft)', schema: { type: 'string' } },
    RateLimit: { description: 'what is left: `"<family>";r=<remaining>;t=<seconds to reset>`', schema: { type: 'string' } },
  },
  503: { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'string' } } },
};

const WHEN: Record<ProblemStatus, string> = {
  400: 'invalid input (`validation_failed`, `invalid_json`); `errors[]` names each field',
  401: 'no credential, or an invalid one',
  403: 'valid credential without a mapping, the permission, the scope or operator status',
  404: 'no such resource, or not yours',
  405: 'method not answered on this resource (`Allow` lists what is)',
  409: 'not possible in the current state',
  410: 'retired route',
  413: 'body too large',
  415: 'unsupported body encoding',
  422: 'idempotency key reused with a different body',
  429: 'too many requests (`rate_limited`: the credential\'s or address\'s limit for this kind of request) or a quota reached (`quota_exceeded`)',
  503: 'a dependency (Temporal, worker, identity provider, database) is unavailable; retry after `Retry-After`',
};

export function problems(...statuses: ProblemStatus[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: `${TITLES[s] ?? 'Error'}: ${WHEN[s]}`,
        ...(PROBLEM_HEADERS[s] ? { headers: PROBLEM_HEADERS[s] } : {}),
        content: { 'application/problem+json': { schema: Problem } },
      },
    ]),
  );
}

export function json(description: string, schema: z.ZodType) {
  return { description, content: { 'application/json': { schema } } };
}

/** `{success: true, data}` around one record. */
export function envelope(schema: z.ZodType) {
  return z.object({ success: z.literal(true), data: schema });
}

// ---- intake ----

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
    intakeStatus: z.enum(intakeStatuses),
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
      submission: z.object({ submissionId: z.string(), intakeStatus: z.enum(intakeStatuses), reviewStatus: z.enum(reviewStatuses) }),
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
      rightsPosture: z.string(),
      consentPosture: z.string(),
      awaitingSince: z.string(),
      ageSeconds: z.number().int(),
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

// ---- directory ----

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
 * Bounded totals (issue 16), as Lucene-based engines count them (track_total_hits): exact up to
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

export const Artist = z
  .object({
    id: z.string(),
    name: z.string(),
    studio_id: z.string().nullable(),
    specialties: z.array(z.string()),
    is_active: z.boolean(),
    bio: z.string(),
    years_experience: z.number().int(),
    hourly_rate: z.number().nullable(),
  })
  .openapi('Artist');
export const ArtistListItem = Artist.extend({ created_at: z.string() }).openapi('ArtistListItem');

export const ArtistsPage = z.object({
  success: z.literal(true),
  data: z.array(ArtistListItem),
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }),
});
export const ArtistEnvelope = z.object({ success: z.literal(true), data: Artist });

const mediaPagination = z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() });

export const Rendition = z
  .object({
    name: z.enum(['large', 'small']).describe('large: long edge at most 2048 px; small: at most 640 px'),
    width: z.number().int(),
    height: z.number().int(),
    content_type: z.string().describe('image/webp'),
    url: z.string().describe('absolute URL under the public base; cached for 5 minutes (ETag revalidation), 410 after a takedown'),
  })
  .openapi('Rendition');
const renditions = z
  .array(Rendition)
  .describe('Public renditions, largest first: re-encoded, metadata stripped. Empty for records imported with an external image_url.');

export const PortfolioAsset = z
  .object({
    id: z.string(),
    artist_id: z.string(),
    title: z.string(),
    image_url: z.string().nullable().describe('the large rendition for assets published through intake'),
    renditions,
    tags: z.array(z.string()),
    is_public: z.boolean(),
    publish_state: z.enum(['draft', 'private', 'owner_only', 'published_public', 'archived']),
    ...records,
  })
  .openapi('PortfolioAsset');
export const Design = PortfolioAsset.extend({
  description: z.string(),
  price: z.number().nullable(),
  runtime_trust_proof: z.record(z.string(), z.unknown()),
}).openapi('Design');

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

// ---- health and keys ----

export const Live = z.object({ status: z.literal('ok'), timestamp: z.string(), uptime: z.number(), service: z.string() });

export const Readiness = z
  .object({
    status: z.enum(['ready', 'blocked']),
    service: z.string(),
    publicApiBaseUrl: z.string(),
    timestamp: z.string(),
    dependencies: z.array(
      z.object({
        id: z.string(),
        group: z.string(),
        status: z.enum(['ready', 'blocked', 'not_configured']),
        required: z.boolean(),
        configuredEnv: z.array(z.string()).describe('variable names only, never values'),
        missingEnv: z.array(z.string()),
      }),
    ),
    flows: z.array(z.object({ id: z.string(), status: z.enum(['ready', 'blocked']), blockedBy: z.array(z.string()) })),
    safetyPosture: z.record(z.string(), z.literal(false)),
  })
  .openapi('Readiness');

export const LegacyHealth = z
  .object({
    status: z.enum(['healthy', 'degraded', 'unhealthy']),
    timestamp: z.string(),
    version: z.string(),
    uptime: z.number(),
    environment: z.string(),
    services: z.record(z.string(), z.unknown()),
    runtime: z.record(z.string(), z.unknown()),
  })
  .openapi('LegacyHealth');

export const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

export const OpenApiDocument = z.record(z.string(), z.unknown()).describe('an OpenAPI 3.1 document');
