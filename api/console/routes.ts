// The review console's own reads and claims, in the route list like every endpoint. Auth kind
// `console`: the session cookie of a mapped human operator with portfolio_intake:review, plus
// X-Console-CSRF on writes (api/console/session.ts). Every operator action (decide, preview,
// similar images, publish, settle, unpublish, evidence) is the intake API's own route, which takes
// the console's session as a credential: one door.
import { z } from '../openapi/zod';
import { DecisionCounts, DraftRow, publications, QueueItem, RecentDecision, SubmissionDetail } from '../../lib/console/answers';
import { artistProfiles, consoleDrafts, decisionsSince, queueFigures, recentDecisions, reviewQueue, submissionDetail } from '../../lib/console/review';
import { listArtists } from '../../lib/directory/artists';
import { claim, releaseClaim } from '../../lib/console/sessions';
import { flaggedMatchesOf } from '../../lib/intake/similar';
import { findSubmission } from '../../lib/intake/submissions';
import { filterText } from '../../lib/validation/text';
import { AppError } from '../http/errors';
import { defineRoute, type Route } from '../routing/route';
import { submissionIdParams } from '../routes/intake/schemas';
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
const statusQuery = z
  .object({ since: z.string().datetime({ offset: true }).optional().describe('count decisions from this instant (the operator\'s local midnight); default: 24 hours ago') })
  .strict();
const artistLookupQuery = z.object({ q: filterText(200, 2).describe('part of the artist\'s name (2..200 characters)') }).strict();
const draftsQuery = z.object({ publication: z.enum(publications).optional() }).strict();

const Me = z
  .object({ success: z.literal(true), data: z.object({ actorId: z.string(), organizationId: z.string().nullable(), csrf: z.string(), expiresAt: z.string() }) })
  .openapi('ConsoleMe');
const SignedIn = z.object({ success: z.literal(true), data: z.object({ actorId: z.string(), csrf: z.string(), expiresAt: z.string() }) }).openapi('ConsoleSignedIn');
const Queue = z
  .object({
    success: z.literal(true),
    data: z.array(QueueItem.extend({ similarFlag: z.boolean().describe('the image matches another artist\'s published or pending work') })),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  })
  .openapi('ConsoleQueue');
const Detail = z.object({ success: z.literal(true), data: SubmissionDetail }).openapi('ConsoleSubmission');
const Decisions = z.object({ success: z.literal(true), data: z.array(RecentDecision) }).openapi('ConsoleDecisions');
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
      decisions: z.object({ since: z.string(), ...DecisionCounts.shape }),
    }),
  })
  .openapi('ConsoleStatus');
const ArtistMatches = z
  .object({
    success: z.literal(true),
    data: z.array(z.object({ id: z.string(), name: z.string(), studioName: z.string().nullable(), city: z.string().nullable(), country: z.string().nullable() })),
  })
  .openapi('ConsoleArtistProfiles');
const Drafts = z.object({ success: z.literal(true), data: z.array(DraftRow) }).openapi('ConsoleDrafts');

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
      async handler({ deps, query }) {
        const since = query.since ? new Date(query.since) : new Date(Date.now() - 24 * 3600 * 1000);
        const [f, d] = await Promise.all([queueFigures(deps.sql), decisionsSince(deps.sql, since)]);
        return { data: { waiting: f.queueDepth, oldestWaitSeconds: f.oldestAgeSeconds, byStatus: f.byStatus, decisions: { since: since.toISOString(), ...d } } };
      },
    }),

    // Reviewing.
    defineRoute({
      ...review, method: 'get', path: `${BASE}/queue`, operationId: 'consoleQueue', query: consoleQueueQuery,
      summary: 'Submissions awaiting review, oldest first, with what an operator needs to decide and who has each open',
      ok: { 200: ['one page of the queue', Queue] },
      async handler({ deps, query: q }) {
        const { items: rows, total } = await reviewQueue(deps.sql, q);
        // The flag of a row whose image matches another artist's published or pending work.
        const items = await Promise.all(rows.map(async (s) => ({ ...s, similarFlag: (await flaggedMatchesOf(deps.sql, s.submissionId)).some((m) => m.flagged) })));
        return { data: items, pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) } };
      },
    }),
    defineRoute({
      ...review, method: 'get', path: `${BASE}/decisions`, operationId: 'consoleDecisions', summary: 'The latest 50 decisions, newest first, with who made them and their notes',
      ok: { 200: ['the decisions', Decisions] },
      async handler({ deps }) {
        return { data: await recentDecisions(deps.sql, 50) };
      },
    }),
    defineRoute({
      ...review, method: 'get', path: `${BASE}/submissions/{submissionId}`, operationId: 'consoleSubmission', params: submissionIdParams,
      summary: 'One submission as the reviewer sees it, with its whole event history', problems: [404],
      ok: { 200: ['the submission', Detail] },
      async handler({ deps, params, actor }) {
        const d = await submissionDetail(deps.sql, params.submissionId, actor().actorId);
        if (!d) throw new AppError('not_found', 'No such submission.');
        return { data: d };
      },
    }),
    defineRoute({
      ...review, method: 'post', path: `${BASE}/submissions/{submissionId}/claim`, operationId: 'consoleClaim', params: submissionIdParams,
      summary: `Open a submission for review: it is yours for ${CLAIM_SECONDS / 60} minutes (mine: false when another operator has it)`, problems: [404],
      ok: { 200: ['who has it, until when', Claimed] },
      async handler({ deps, params, actor }) {
        if (!(await findSubmission(deps.sql, params.submissionId))) throw new AppError('not_found', 'No such submission.');
        const c = await claim(deps.sql, params.submissionId, actor().actorId, CLAIM_SECONDS);
        return { data: { mine: c.mine, claimedBy: c.claim.actorId, claimedUntil: c.claim.claimedUntil.toISOString() } };
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

    // Publishing: the API's publishing operations, portfolios:publish.
    defineRoute({
      ...publishing, method: 'get', path: `${BASE}/drafts`, operationId: 'consoleDrafts', query: draftsQuery,
      summary: 'Promoted drafts, newest first (100), with whether their asset is public',
      ok: { 200: ['the drafts', Drafts] },
      async handler({ deps, query }) {
        return { data: await consoleDrafts(deps.sql, { publication: query.publication, limit: 100 }) };
      },
    }),

    defineRoute({
      ...publishing, method: 'get', path: `${BASE}/artist-profiles`, operationId: 'consoleArtistProfiles', query: artistLookupQuery,
      summary: 'Runtime artist profiles by name (word prefixes, as GET /api/v1/artists?search= matches), with their studio and city, to publish a draft under',
      ok: { 200: ['the best 10 matches', ArtistMatches] },
      async handler({ deps, query }) {
        // GET /api/v1/artists?search=: every word of the query starts a word of the name, bio or specialties.
        const found = await listArtists(deps.sql, { search: query.q, page: 1, limit: 10, sortBy: 'name', sortOrder: 'asc', isActive: true });
        return { data: await artistProfiles(deps.sql, found.rows.map((r) => r.id)) };
      },
    }),

    // Identity evidence waiting for an operator.
  ];
}
