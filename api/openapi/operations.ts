// Every operation the API answers, once: method, path, who may call it, the request schemas the
// route itself validates with, the answers it gives. The OpenAPI documents are generated from this
// table, and test/integration/openapi.test.ts compares it with the routes Express really has.
import { z } from 'zod';
import { LOCAL_JWKS_PATH } from '../../lib/identity';
import { RETIRED_KEY_ROUTES } from '../routes/identity';
import { artistParams, artistsQuery } from '../routes/directory/artists';
import { designsQuery } from '../routes/directory/designs';
import { ownerItemParams, ownerListQuery } from '../routes/directory/me';
import { portfoliosQuery } from '../routes/directory/portfolios';
import { searchQuery } from '../routes/directory/search';
import { studiosQuery } from '../routes/directory/studios';
import { uploadKeyParams, uploadQuery } from '../routes/intake/uploads';
import {
  approveSchema,
  artistResolutionSchema,
  createSubmissionSchema,
  rejectSchema,
  reviewQueueQuery,
  submissionIdParams,
} from '../routes/intake/schemas';
import * as C from './components';
import type { ProblemStatus } from './components';

export const INTAKE_BASE = '/api/private/portfolio-intake/v1';
export const PUBLIC_BASE = '/api/v1';

export type DocumentId = 'intake' | 'public';
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** public: no credential; any: X-API-Key or bearer; api_key: X-API-Key only; operator: bearer of a mapped human operator. */
export type Auth = 'public' | 'any' | 'api_key' | 'operator';

export interface Operation {
  doc: DocumentId;
  method: Method;
  /** Full path in OpenAPI form: /api/v1/artists/{id}. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  auth: Auth;
  permission?: string;
  query?: z.ZodObject;
  params?: z.ZodObject;
  body?: z.ZodType;
  /** The body is the media bytes themselves (image/jpeg, image/png, image/webp, image/heic). */
  rawBody?: boolean;
  /** Success answers: status -> [description, schema]. */
  ok: Record<number, [string, z.ZodType]>;
  /** Problem answers besides the ones every operation of its kind has. */
  problems?: ProblemStatus[];
  deprecated?: boolean;
}

const keyIdParams = z.object({ keyId: z.string() });

const AUTH_PROBLEMS: ProblemStatus[] = [401, 403, 503];
/** Problem statuses an operation can answer, from what it is. */
export function problemStatusesOf(op: Operation): ProblemStatus[] {
  const s = new Set<ProblemStatus>(op.problems ?? []);
  if (op.auth !== 'public') for (const p of AUTH_PROBLEMS) s.add(p);
  if (op.query || op.params || op.body) s.add(400);
  if (op.body || op.rawBody) s.add(413);
  return [...s].sort((a, b) => a - b);
}

export function operations(o: { maxMediaBytes: number }): Operation[] {
  const I = INTAKE_BASE;
  const V = PUBLIC_BASE;
  const intake: Operation[] = [
    {
      doc: 'intake', method: 'post', path: `${I}/submissions`, operationId: 'createSubmission', tag: 'submissions', auth: 'any', permission: 'portfolio_intake:stage',
      summary: 'Create a submission (idempotent) and get a signed upload URL',
      body: createSubmissionSchema(o.maxMediaBytes),
      ok: { 201: ['created, or the same submission again for the same idempotencyKey and body (Idempotent-Replayed: true)', C.CreatedSubmission] },
      problems: [409, 422],
    },
    {
      doc: 'intake', method: 'get', path: `${I}/submissions/{submissionId}`, operationId: 'getSubmission', tag: 'submissions', auth: 'any', permission: 'portfolio_intake:stage',
      summary: 'Status of one of your submissions', params: submissionIdParams,
      ok: { 200: ['the status view', C.StatusEnvelope] }, problems: [404],
    },
    {
      doc: 'intake', method: 'post', path: `${I}/submissions/{submissionId}/upload-complete`, operationId: 'completeUpload', tag: 'submissions', auth: 'api_key', permission: 'portfolio_intake:stage',
      summary: 'Say the upload is done: the bytes are verified', params: submissionIdParams,
      ok: { 200: ['verified: awaiting_review, or verification_failed with failureReason', C.StatusEnvelope], 202: ['still verifying; poll the status', C.StatusEnvelope] },
      problems: [404, 409],
    },
    {
      doc: 'intake', method: 'post', path: `${I}/submissions/{submissionId}/approve`, operationId: 'approveSubmission', tag: 'review', auth: 'operator', permission: 'portfolio_intake:review',
      summary: 'Approve: the verified bytes become a private draft in the media store', params: submissionIdParams, body: approveSchema,
      ok: { 200: ['promoted_to_media_store (or verification_failed: object_changed)', C.StatusEnvelope], 202: ['still promoting; poll the status', C.StatusEnvelope] },
      problems: [404, 409],
    },
    {
      doc: 'intake', method: 'post', path: `${I}/submissions/{submissionId}/reject`, operationId: 'rejectSubmission', tag: 'review', auth: 'operator', permission: 'portfolio_intake:review',
      summary: 'Reject with a reason code', params: submissionIdParams, body: rejectSchema,
      ok: { 200: ['rejected', C.StatusEnvelope], 202: ['still recording; poll the status', C.StatusEnvelope] },
      problems: [404, 409],
    },
    {
      doc: 'intake', method: 'get', path: `${I}/review-queue`, operationId: 'reviewQueue', tag: 'review', auth: 'operator', permission: 'portfolio_intake:review',
      summary: 'Submissions awaiting review, oldest first', query: reviewQueueQuery,
      ok: { 200: ['one page of the queue', C.ReviewQueue] },
    },
    {
      doc: 'intake', method: 'post', path: `${I}/artist-resolution-requests`, operationId: 'resolveArtist', tag: 'artists', auth: 'any',
      summary: 'Resolve artist identity evidence (idempotent per idempotencyKey)', body: artistResolutionSchema,
      ok: { 200: ['the resolution', C.ArtistResolution] }, problems: [422],
    },
    {
      doc: 'intake', method: 'put', path: `${I}/uploads/{key}`, operationId: 'uploadBytes', tag: 'uploads', auth: 'public',
      summary: 'The signed upload URL of the local storage driver (use the URL from createSubmission as given)',
      params: uploadKeyParams, query: uploadQuery, rawBody: true,
      ok: { 200: ['stored', C.UploadAccepted] },
      problems: [400, 403, 404, 409, 413],
    },
    {
      doc: 'intake', method: 'get', path: `${I}/openapi.json`, operationId: 'intakeOpenApi', tag: 'meta', auth: 'public',
      summary: 'This document', ok: { 200: ['OpenAPI 3.1', C.OpenApiDocument] },
    },
  ];

  const pub: Operation[] = [
    { doc: 'public', method: 'get', path: `${V}/health/live`, operationId: 'live', tag: 'health', auth: 'public', summary: 'Liveness', ok: { 200: ['the process runs', C.Live] } },
    {
      doc: 'public', method: 'get', path: `${V}/health/ready`, operationId: 'ready', tag: 'health', auth: 'public', summary: 'Readiness (503 when blocked)',
      ok: { 200: ['ready', C.Readiness], 503: ['blocked: `flows[].blockedBy` names what is missing', C.Readiness] },
    },
    { doc: 'public', method: 'get', path: `${V}/health`, operationId: 'legacyHealth', tag: 'health', auth: 'public', summary: 'Legacy health report (503 when unhealthy)', ok: { 200: ['healthy or degraded', C.LegacyHealth], 503: ['unhealthy: PostgreSQL is down', C.LegacyHealth] } },
    { doc: 'public', method: 'get', path: `${V}/studios`, operationId: 'listStudios', tag: 'studios', auth: 'public', summary: 'Studio discovery (legacy wrapper)', query: studiosQuery, ok: { 200: ['a page of studios', C.StudiosPage] } },
    { doc: 'public', method: 'get', path: `${V}/search`, operationId: 'search', tag: 'search', auth: 'any', permission: 'search:read', summary: 'Search studios, artists and designs', query: searchQuery, ok: { 200: ['results', C.SearchPage] } },
    { doc: 'public', method: 'get', path: `${V}/artists`, operationId: 'listArtists', tag: 'artists', auth: 'any', permission: 'artists:read', summary: 'Artists', query: artistsQuery, ok: { 200: ['a page of artists', C.ArtistsPage] } },
    { doc: 'public', method: 'get', path: `${V}/artists/{id}`, operationId: 'getArtist', tag: 'artists', auth: 'any', permission: 'artists:read', summary: 'One artist', params: artistParams, ok: { 200: ['the artist', C.ArtistEnvelope] }, problems: [404] },
    { doc: 'public', method: 'get', path: `${V}/portfolios`, operationId: 'listPortfolios', tag: 'portfolios', auth: 'any', permission: 'portfolios:read', summary: 'Public portfolio assets', query: portfoliosQuery, ok: { 200: ['a page of assets', C.PortfoliosPage] } },
    { doc: 'public', method: 'get', path: `${V}/designs`, operationId: 'listDesigns', tag: 'designs', auth: 'any', permission: 'designs:read', summary: 'Public designs', query: designsQuery, ok: { 200: ['a page of designs', C.DesignsPage] } },
    { doc: 'public', method: 'get', path: `${V}/me/portfolio-assets`, operationId: 'listOwnAssets', tag: 'owner', auth: 'any', permission: 'owner_portfolio_assets:read', summary: 'Your portfolio assets, drafts included', query: ownerListQuery, ok: { 200: ['a page', C.OwnerAssetsPage] } },
    { doc: 'public', method: 'get', path: `${V}/me/portfolio-assets/{id}`, operationId: 'getOwnAsset', tag: 'owner', auth: 'any', permission: 'owner_portfolio_assets:read', summary: 'One of your portfolio assets', params: ownerItemParams, ok: { 200: ['the asset', C.envelope(C.OwnerAsset)] }, problems: [404] },
    { doc: 'public', method: 'get', path: `${V}/me/designs`, operationId: 'listOwnDesigns', tag: 'owner', auth: 'any', permission: 'owner_portfolio_assets:read', summary: 'Your designs, drafts included', query: ownerListQuery, ok: { 200: ['a page', C.OwnerDesignsPage] } },
    { doc: 'public', method: 'get', path: `${V}/me/designs/{id}`, operationId: 'getOwnDesign', tag: 'owner', auth: 'any', permission: 'owner_portfolio_assets:read', summary: 'One of your designs', params: ownerItemParams, ok: { 200: ['the design', C.envelope(C.OwnerDesign)] }, problems: [404] },
    { doc: 'public', method: 'get', path: `${V}/openapi.json`, operationId: 'publicOpenApi', tag: 'meta', auth: 'public', summary: 'This document', ok: { 200: ['OpenAPI 3.1', C.OpenApiDocument] } },
    { doc: 'public', method: 'get', path: LOCAL_JWKS_PATH, operationId: 'jwks', tag: 'meta', auth: 'public', summary: "The local identity provider's public keys", ok: { 200: ['JWKS', C.Jwks] }, problems: [404] },
  ];
  // Retired key-management routes answer 410 to every method.
  for (const route of RETIRED_KEY_ROUTES) {
    const path = route.replace(/:(\w+)/g, '{$1}');
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      pub.push({
        doc: 'public', method, path, operationId: `retired_${method}_${path.replace(/[^a-z]+/gi, '_')}`, tag: 'retired', auth: 'public', deprecated: true,
        summary: 'Retired: keys are managed in the partner portal',
        ...(path.includes('{keyId}') ? { params: keyIdParams } : {}),
        ok: {}, problems: [410],
      });
    }
  }
  return [...intake, ...pub];
}
