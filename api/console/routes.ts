// The review console's API (issue 14; in the route list since issue 27, so OpenAPI, the auth
// cases, the 405 table and the request metrics cover it). Auth kind `console`: the session cookie of
// a mapped human operator with portfolio_intake:review, plus X-Console-CSRF on writes
// (api/console/session.ts). The operations are the API's own (api/operations/): a console decision
// is the approve / reject route's decision, signed and claim-checked the same way.
import { z } from 'zod';
import '../openapi/components'; // extends zod with .openapi() before the schemas below use it
import { artistProfiles, consoleDrafts, decisionsSince, queueFigures, recentDecisions, reviewQueue, submissionDetail } from '../../lib/console/review';
import { listArtists } from '../../lib/directory/artists';
import { claim, releaseClaim } from '../../lib/console/sessions';
import { flaggedMatchesOf } from '../../lib/intake/similar';
import { findSubmission } from '../../lib/intake/submissions';
import { filterText } from '../../lib/validation/text';
import { AppError } from '../http/errors';
import { defineRoute, type Route } from '../routing/route';
import * as C from '../openapi/components';
import { decide, requestIdOf, signalAnswer } from '../operations/decisions';
import { resolutionIdParams, resolutionListQuery, resolutionsPage, verifyEvidenceOp, verifyEvidenceSchema } from '../operations/evidence';
import { previewBytes, previewQuery } from '../operations/previews';
import { assetIdParams, documentIdParams, publishOp, publishSchema, settleOp, settlePosturesSchema, unpublishOp, unpublishSchema } from '../operations/publishing';
import { EvidenceVerified, ResolutionReviewPage } from '../routes/intake/evidence-review';
import { PublishAnswer, SettlementAnswer, TakedownAnswer } from '../routes/intake/publishing';
import { approveSchema, rejectSchema, submissionIdParams } from '../routes/intake/schemas';
import { SimilarMatch } from '../routes/intake/similar';
import { consoleSurface } from './session';
import { sessionRoutes } from '../routes/session-routes';

/** How long opening an item claims it. */
export const CLAIM_SECONDS = 300;

const BASE = '/console/api';
const review = { doc: 'intake', tag: 'review console', auth: 'console', permission: 'portfolio_intake:review' } as const;
const publishing = { ...review, permission: 'portfolios:publish' } as const;

// The console's queue filters: the API's page and limit, plus who sent it and how long it waited.
export const consoleQueueQuery = z
  .object({
    tenantId: filterText(200).optional(),
    partner: filterText(200).optional().describe('a partner actor or partner organization'),
    minAgeMinutes: z.coerce.number().int().min(0).max(525_600).optional().describe('only items waiting at least this long'),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();
// acknowledgeMatches: the operator ticked that they looked at the similar images flagged as another
// artist's work, and their notes say why approving is right.
const consoleApproveSchema = approveSchema.extend({
  acknowledgeMatches: z.boolean().optional().describe('the operator looked at the flagged matches; needed to approve over one'),
});
const statusQuery = z
  .object({ since: z.string().datetime({ offset: true }).optional().describe('count decisions from this instant (the operator\'s local midnight); default: 24 hours ago') })
  .strict();
const artistLookupQuery = z.object({ q: filterText(200, 2).describe('part of the artist\'s name (2..200 characters)') }).strict();
const draftsQuery = z.object({ publication: z.enum(['draft', 'published', 'unpublished']).optional() }).strict();

const Me = z
  .object({ success: z.literal(true), data: z.object({ actorId: z.string(), organizationId: z.string().nullable(), csrf: z.string(), expiresAt: z.string() }) })
  .openapi('ConsoleMe');
const SignedIn = z.object({ success: z.literal(true), data: z.object({ actorId: z.string(), csrf: z.string(), expiresAt: z.string() }) }).openapi('ConsoleSignedIn');
const queueItem = z.object({
  submissionId: z.string(),
  fileName: z.string(),
  title: z.string().nullable(),
  partnerActorId: z.string(),
  partnerOrganizationId: z.string().nullable(),
  tenantId: z.string(),
  artistCanonicalId: z.string(),
  artistEvidence: z.enum(['verified_by_operator', 'evidence_on_file', 'no_evidence']),
  artistHasProfile: z.boolean().describe('the artist has a runtime profile: its profile link, or the canonical id is a listed artist'),
  artistProfileId: z.string().nullable().describe('the runtime artist profile (GET /api/v1/artists/{id}) it is published under'),
  artistOrganizations: z.array(z.string()),
  rightsPosture: z.string(),
  consentPosture: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  imageOrientation: z.number().int().nullable().describe('the EXIF orientation: 5 to 8 turn the image a quarter (width and height are as stored)'),
  awaitingSince: z.string().nullable(),
  ageSeconds: z.number().int(),
  claimedBy: z.string().nullable(),
  claimedUntil: z.string().nullable(),
});
const Queue = z
  .object({
    success: z.literal(true),
    data: z.array(queueItem.extend({ similarFlag: z.boolean().describe('the image matches another artist\'s published or pending work') })),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  })
  .openapi('ConsoleQueue');
const Detail = z
  .object({
    success: z.literal(true),
    data: queueItem.extend({
      intakeStatus: z.string(),
      reviewStatus: z.string(),
      verifiedSha256: z.string().nullable(),
      imageFormat: z.string().nullable(),
      imageFrames: z.number().int().nullable(),
      description: z.string().nullable(),
      tags: z.array(z.string()),
      styleIds: z.array(z.string()),
      placement: z.string().nullable(),
      createdAt: z.string(),
      events: z.array(z.object({ at: z.string(), fromStatus: z.string().nullable(), toStatus: z.string(), trigger: z.string(), actorId: z.string(), note: z.string().nullable() })),
    }),
  })
  .openapi('ConsoleSubmission');
const Decisions = z
  .object({
    success: z.literal(true),
    data: z.array(z.object({ submissionId: z.string(), fileName: z.string(), decision: z.enum(['approved', 'rejected']), actorId: z.string(), at: z.string(), note: z.string().nullable(), intakeStatus: z.string() })),
  })
  .openapi('ConsoleDecisions');
const Similar = z
  .object({ success: z.literal(true), data: z.object({ matches: z.array(SimilarMatch.extend({ flagged: z.boolean().describe('another artist\'s published or pending work') })) }) })
  .openapi('ConsoleSimilarImages');
const Claimed = z
  .object({ success: z.literal(true), data: z.object({ mine: z.boolean(), claimedBy: z.string(), claimedUntil: z.string() }) })
  .openapi('ConsoleClaim');
const Status = z
  .object({
    success: z.literal(true),
    data: z.object({
      waiting: z.number().int().describe('submissions awaiting review'),
      oldestWaitSeconds: z.number().int().describe('how long the oldest has waited (0 when none)'),
      byStatus: z.record(z.string(), z.number().int()).describe('submissions by intake status'),
      decisions: z.object({ since: z.string(), approved: z.number().int(), rejected: z.number().int() }),
    }),
  })
  .openapi('ConsoleStatus');
const ArtistMatches = z
  .object({
    success: z.literal(true),
    data: z.array(z.object({ id: z.string(), name: z.string(), studioName: z.string().nullable(), city: z.string().nullable(), country: z.string().nullable() })),
  })
  .openapi('ConsoleArtistProfiles');
const Drafts = z
  .object({
    success: z.literal(true),
    data: z.array(
      z.object({
        documentId: z.string(),
        submissionId: z.string(),
        fileName: z.string(),
        title: z.string().nullable(),
        tenantId: z.string(),
        artistCanonicalId: z.string(),
        rightsPosture: z.string(),
        consentPosture: z.string(),
        approvedBy: z.string(),
        createdAt: z.string(),
        assetId: z.string().nullable(),
        publication: z.enum(['draft', 'published', 'unpublished']),
      }),
    ),
  })
  .openapi('ConsoleDrafts');

export function consoleRoutes(): Route[] {
  return [
    // Signing in: a bearer token (the provider's with an external IdP), or the one-time link `npm start` prints.
    ...sessionRoutes({
      surface: consoleSurface, name: 'review console', tag: 'review console', auth: 'console', permission: 'portfolio_intake:review',
      linkSummary: 'A one-time sign-in link (npm start prints one; npm run iam -- console-link): sets the session cookie and opens the console',
      signedIn: {
        description: 'signed in: the cookie is set; send csrf as X-Console-CSRF on writes', schema: SignedIn,
        data: ({ actor, csrf, expiresAt }) => ({ actorId: actor.actorId, csrf, expiresAt: expiresAt.toISOString() }),
      },
      me: {
        description: 'the signed-in operator', schema: Me,
        data: (c) => ({ actorId: c.actor.actorId, organizationId: c.actor.organizationId, csrf: c.csrf, expiresAt: c.expiresAt.toISOString() }),
      },
    }),

    defineRoute({
      ...review, method: 'get', path: `${BASE}/status`, operationId: 'consoleStatus', query: statusQuery,
      summary: 'Where things stand: how many wait, the oldest wait, decisions since a time (the queue figures are the metrics\' own query)',
      ok: { 200: ['the figures', Status] },
      async handler({ deps, query, res }) {
        const since = query.since ? new Date(query.since) : new Date(Date.now() - 24 * 3600 * 1000);
        const [f, d] = await Promise.all([queueFigures(deps.sql), decisionsSince(deps.sql, since)]);
        res.json({ success: true, data: { waiting: f.queueDepth, oldestWaitSeconds: f.oldestAgeSeconds, byStatus: f.byStatus, decisions: { since: since.toISOString(), ...d } } });
      },
    }),

    // Reviewing.
    defineRoute({
      ...review, method: 'get', path: `${BASE}/queue`, operationId: 'consoleQueue', query: consoleQueueQuery,
      summary: 'Submissions awaiting review, oldest first, with what an operator needs to decide and who has each open',
      ok: { 200: ['one page of the queue', Queue] },
      async handler({ deps, query: q, res }) {
        const { items: rows, total } = await reviewQueue(deps.sql, q);
        // The flag of a row whose image matches another artist's published or pending work.
        const items = await Promise.all(rows.map(async (s) => ({ ...s, similarFlag: (await flaggedMatchesOf(deps.sql, s.submissionId)).some((m) => m.flagged) })));
        res.json({ success: true, data: items, pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) } });
      },
    }),
    defineRoute({
      ...review, method: 'get', path: `${BASE}/decisions`, operationId: 'consoleDecisions', summary: 'The latest 50 decisions, newest first, with who made them and their notes',
      ok: { 200: ['the decisions', Decisions] },
      async handler({ deps, res }) {
        res.json({ success: true, data: await recentDecisions(deps.sql, 50) });
      },
    }),
    defineRoute({
      ...review, method: 'get', path: `${BASE}/submissions/{submissionId}`, operationId: 'consoleSubmission', params: submissionIdParams,
      summary: 'One submission as the reviewer sees it, with its whole event history', problems: [404],
      ok: { 200: ['the submission', Detail] },
      async handler({ deps, params, res }) {
        const d = await submissionDetail(deps.sql, params.submissionId);
        if (!d) throw new AppError('not_found', 'No such submission.');
        res.json({ success: true, data: d });
      },
    }),
    defineRoute({
      ...review, method: 'get', path: `${BASE}/submissions/{submissionId}/similar`, operationId: 'consoleSimilarImages', params: submissionIdParams,
      summary: 'The similar images of a submission, each marked when it is another artist\'s published or pending work', problems: [404],
      ok: { 200: ['the matches, nearest first', Similar] },
      async handler({ deps, params, res }) {
        if (!(await findSubmission(deps.sql, params.submissionId))) throw new AppError('not_found', 'No such submission.');
        res.json({ success: true, data: { matches: await flaggedMatchesOf(deps.sql, params.submissionId, { publicBaseUrl: '' }) } });
      },
    }),
    defineRoute({
      ...review, method: 'get', path: `${BASE}/submissions/{submissionId}/preview`, operationId: 'consolePreview', params: submissionIdParams, query: previewQuery,
      summary: 'The review preview (WebP, upright, metadata stripped)', okContentType: 'image/webp', problems: [404, 503],
      ok: { 200: ['the preview', C.PreviewImage] },
      async handler({ deps, params, query, res }) {
        const bytes = await previewBytes(deps, params.submissionId, query.size);
        res.set('x-content-type-options', 'nosniff').type('image/webp').send(bytes);
      },
    }),
    defineRoute({
      ...review, method: 'post', path: `${BASE}/submissions/{submissionId}/claim`, operationId: 'consoleClaim', params: submissionIdParams,
      summary: `Open a submission for review: it is yours for ${CLAIM_SECONDS / 60} minutes (mine: false when another operator has it)`, problems: [404],
      ok: { 200: ['who has it, until when', Claimed] },
      async handler({ deps, params, res, actor }) {
        if (!(await findSubmission(deps.sql, params.submissionId))) throw new AppError('not_found', 'No such submission.');
        const c = await claim(deps.sql, params.submissionId, actor().actorId, CLAIM_SECONDS);
        res.json({ success: true, data: { mine: c.mine, claimedBy: c.claim.actorId, claimedUntil: c.claim.claimedUntil.toISOString() } });
      },
    }),
    defineRoute({
      ...review, method: 'delete', path: `${BASE}/submissions/{submissionId}/claim`, operationId: 'consoleRelease', params: submissionIdParams,
      summary: 'Close a submission without deciding: your claim ends',
      ok: { 204: ['released (or it was not yours)', null] },
      async handler({ deps, params, res, actor }) {
        await releaseClaim(deps.sql, params.submissionId, actor().actorId);
        res.status(204).end();
      },
    }),
    defineRoute({
      ...review, method: 'post', path: `${BASE}/submissions/{submissionId}/approve`, operationId: 'consoleApprove', params: submissionIdParams, body: consoleApproveSchema,
      summary: 'Approve, as POST /submissions/{submissionId}/approve does (signed, claim-checked); over a flagged match only with acknowledgeMatches', problems: [404, 409],
      ok: { 200: ['promoted_to_media_store (or verification_failed: object_changed)', C.SignalEnvelope], 202: ['still promoting, or the outcome is unknown; read the status', C.SignalEnvelope] },
      async handler({ deps, params, body, req, res, actor }) {
        const { acknowledgeMatches, ...approval } = body;
        // A match is advice, never a refusal: approving over one only needs the operator to say so.
        if (!acknowledgeMatches && (await flaggedMatchesOf(deps.sql, params.submissionId)).some((m) => m.flagged))
          throw new AppError('matches_not_acknowledged', 'The image matches another artist\'s published or pending work: look at the matches, say in the notes why approving is right, and acknowledge them.');
        const result = await decide(deps, actor(), params.submissionId, { decision: 'approve', ...approval }, requestIdOf(req));
        // Best effort once the decision went out: a lost database must not turn it into a 503 (claims lapse on their own).
        await releaseClaim(deps.sql, params.submissionId, actor().actorId).catch(() => undefined);
        signalAnswer(res, result);
      },
    }),
    defineRoute({
      ...review, method: 'post', path: `${BASE}/submissions/{submissionId}/reject`, operationId: 'consoleReject', params: submissionIdParams, body: rejectSchema,
      summary: 'Reject with a reason code, as POST /submissions/{submissionId}/reject does', problems: [404, 409],
      ok: { 200: ['rejected', C.SignalEnvelope], 202: ['still recording, or the outcome is unknown; read the status', C.SignalEnvelope] },
      async handler({ deps, params, body, req, res, actor }) {
        const result = await decide(deps, actor(), params.submissionId, { decision: 'reject', ...body }, requestIdOf(req));
        await releaseClaim(deps.sql, params.submissionId, actor().actorId).catch(() => undefined);
        signalAnswer(res, result);
      },
    }),

    // Publishing: the API's publishing operations, portfolios:publish.
    defineRoute({
      ...publishing, method: 'get', path: `${BASE}/drafts`, operationId: 'consoleDrafts', query: draftsQuery,
      summary: 'Promoted drafts, newest first (100), with whether their asset is public',
      ok: { 200: ['the drafts', Drafts] },
      async handler({ deps, query, res }) {
        res.json({ success: true, data: await consoleDrafts(deps.sql, { publication: query.publication, limit: 100 }) });
      },
    }),
    defineRoute({
      ...publishing, method: 'post', path: `${BASE}/drafts/{documentId}/publish`, operationId: 'consolePublish', params: documentIdParams, body: publishSchema, bodyLimit: '4kb',
      summary: 'Publish a draft (dry run unless "dryRun": false), as POST /media-documents/{documentId}/publish does', problems: [404, 409],
      ok: { 200: ['the plan, or the published asset', PublishAnswer] },
      async handler({ deps, params, body, res, actor }) {
        res.json({ success: true, data: await publishOp(deps, actor(), params.documentId, body) });
      },
    }),
    defineRoute({
      ...publishing, method: 'post', path: `${BASE}/drafts/{documentId}/postures`, operationId: 'consoleSettlePostures', params: documentIdParams, body: settlePosturesSchema, bodyLimit: '16kb',
      summary: 'Settle a draft\'s review_required posture with a note, as POST /media-documents/{documentId}/postures does', problems: [404, 409],
      ok: { 200: ['the draft\'s postures now', SettlementAnswer] },
      async handler({ deps, params, body, res, actor }) {
        res.json({ success: true, data: await settleOp(deps, actor(), params.documentId, body) });
      },
    }),
    defineRoute({
      ...publishing, method: 'post', path: `${BASE}/assets/{assetId}/unpublish`, operationId: 'consoleUnpublish', params: assetIdParams, body: unpublishSchema, bodyLimit: '16kb',
      summary: 'Take a published asset down (dry run unless "dryRun": false), as POST /portfolio-assets/{assetId}/unpublish does', problems: [404],
      ok: { 200: ['what would come down, or what came down', TakedownAnswer] },
      async handler({ deps, params, body, res, actor }) {
        res.json({ success: true, data: await unpublishOp(deps, actor(), params.assetId, body) });
      },
    }),

    defineRoute({
      ...publishing, method: 'get', path: `${BASE}/artist-profiles`, operationId: 'consoleArtistProfiles', query: artistLookupQuery,
      summary: 'Runtime artist profiles by name (word prefixes, as GET /api/v1/artists?search= matches), with their studio and city, to publish a draft under',
      ok: { 200: ['the best 10 matches', ArtistMatches] },
      async handler({ deps, query, res }) {
        // GET /api/v1/artists?search=: every word of the query starts a word of the name, bio or specialties.
        const found = await listArtists(deps.sql, { search: query.q, page: 1, limit: 10, sortBy: 'name', sortOrder: 'asc', isActive: true });
        res.json({ success: true, data: await artistProfiles(deps.sql, found.rows.map((r) => r.id)) });
      },
    }),

    // Identity evidence waiting for an operator.
    defineRoute({
      ...review, method: 'get', path: `${BASE}/resolutions`, operationId: 'consoleResolutions', query: resolutionListQuery,
      summary: 'Artist resolutions waiting for an operator\'s review of their identity evidence, oldest first',
      ok: { 200: ['one page of resolutions', ResolutionReviewPage] },
      async handler({ deps, query: q, res }) {
        res.json(await resolutionsPage(deps.sql, q));
      },
    }),
    defineRoute({
      ...review, method: 'post', path: `${BASE}/resolutions/{resolutionId}/verify`, operationId: 'consoleVerifyEvidence', params: resolutionIdParams, body: verifyEvidenceSchema, bodyLimit: '16kb',
      summary: 'Link a resolution\'s evidence to an artist as verified_by_operator, as POST /artist-resolutions/{resolutionId}/verify does', problems: [404, 409],
      ok: { 200: ['the evidence is verified_by_operator', EvidenceVerified] },
      async handler({ deps, params, body, res, actor }) {
        res.json({ success: true, data: await verifyEvidenceOp(deps.sql, actor(), params.resolutionId, body) });
      },
    }),
  ];
}
