// The review console (issue 14) at /console: a page and its assets served from the project (htm +
// Preact from npm, no CDN, strict CSP), operator sessions in an HttpOnly SameSite=Strict cookie,
// and the console's JSON API under /console/api. Every request re-checks the operator's mapping;
// every write needs the session's CSRF token and a same-origin request. Decisions go through the
// same path as the API's approve / reject (signed proof, claim check).
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { PROJECT_ROOT } from '../../lib/config';
import { consoleDrafts, consoleQueue, recentDecisions, submissionDetail } from '../../lib/console/review';
import { listArtistResolutions } from '../../lib/identity/evidence-review';
import { claim, createSession, findSession, redeemSigninCode, releaseClaim, revokeSession } from '../../lib/console/sessions';
import { findActiveActor } from '../../lib/identity/actors';
import { InvalidCredentialError, ProviderUnavailableError, type ProvenIdentity } from '../../lib/identity/types';
import { flaggedMatchesOf } from '../../lib/intake/similar';
import { findSubmission } from '../../lib/intake/submissions';
import { rejectReasonCodes } from '../../lib/intake/vocabulary';
import { plainText } from '../../lib/validation/text';
import type { Actor } from '../auth/middleware';
import { isOperatorWith } from '../auth/middleware';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { sameOrigin } from '../http/same-origin';
import { parseInput } from '../http/validate';
import { previewBytes } from '../routes/intake/previews';
import { decide, signalAnswer, type DecisionInput } from '../routes/intake/signals';
import { seenMatchesSchema } from '../routes/intake/schemas';
import { resolutionListQuery, verifyEvidenceOp, verifyEvidenceSchema } from '../routes/intake/evidence-review';
import { publishOp, publishSchema, settleOp, settlePosturesSchema, unpublishOp, unpublishSchema } from '../routes/intake/publishing';

export const CONSOLE_COOKIE = 'console_session';
/** How long opening an item claims it. */
export const CLAIM_SECONDS = 300;
/** A session never outlives this, whatever the token's own expiry. */
const MAX_SESSION_SECONDS = 12 * 3600;

const STATIC_DIR = path.join(PROJECT_ROOT, 'api', 'console', 'static');
const ASSETS: Record<string, { file: string; type: string }> = {
  'app.js': { file: path.join(STATIC_DIR, 'app.js'), type: 'text/javascript; charset=utf-8' },
  'console.css': { file: path.join(STATIC_DIR, 'console.css'), type: 'text/css; charset=utf-8' },
  'htm-preact.js': { file: path.join(PROJECT_ROOT, 'node_modules', 'htm', 'preact', 'standalone.module.js'), type: 'text/javascript; charset=utf-8' },
};
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const submissionParam = z.object({ id: z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'not a submission id') });
const queueQuery = z
  .object({
    tenantId: z.string().trim().min(1).max(200).optional(),
    partner: z.string().trim().min(1).max(200).optional(),
    minAgeMinutes: z.coerce.number().int().min(0).max(525_600).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();
const previewQuery = z.object({ size: z.enum(['thumb', 'large']).default('thumb') }).strict();
// acknowledgeMatches: the operator ticked that they looked at the similar images flagged as another
// artist's work, and their notes say why approving is right; seenMatches: the match ids shown.
const approveBody = z.object({ reviewNotes: plainText(2000, 3), acknowledgeMatches: z.boolean().optional(), seenMatches: seenMatchesSchema.optional() }).strict();
const rejectBody = z.object({ reasonCode: z.enum(rejectReasonCodes), reviewNotes: plainText(2000, 3) }).strict();
const sessionBody = z.object({ token: z.string().min(20).max(8192) }).strict();
const signinQuery = z.object({ code: z.string().min(20).max(200) }).strict();

interface ConsoleLocals {
  actor: Actor;
  csrf: string;
  expiresAt: Date;
}

const wrap = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => void fn(req, res).catch(next);
/** A middleware: next() when fn passes, the error handler when it throws. */
const guard = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) =>
  void fn(req, res).then(() => next(), next);

/** The operator behind a proven credential, if it is still an active human operator who may review. */
async function operatorOf(deps: AppDeps, identity: ProvenIdentity): Promise<Actor> {
  const actor = await findActiveActor(deps.sql, identity);
  if (!actor) throw new AppError('actor_not_mapped', 'The credential has no active actor mapping (any more).');
  if (!isOperatorWith(actor, 'portfolio_intake:review')) throw new AppError('operator_required', 'The console is for mapped human operators with portfolio_intake:review.');
  return actor;
}

function setSessionCookie(deps: AppDeps, res: Response, token: string, expiresAt: Date) {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  res.append(
    'Set-Cookie',
    serializeCookie(CONSOLE_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/console', maxAge, secure: deps.cfg.NODE_ENV === 'production' }),
  );
}

export function consoleRouter(deps: AppDeps): Router {
  const r = express.Router();
  const json = express.json({ limit: '16kb' });

  // The page: the same document for every console URL; it asks /console/api/me who is signed in.
  const page = (_req: Request, res: Response) => {
    res.set('content-security-policy', CSP).set('cache-control', 'no-store').type('html').send(INDEX_HTML);
  };
  r.get('/console', page);
  r.get('/console/', page);
  r.get('/console/assets/:name', (req, res, next) => {
    const asset = ASSETS[req.params.name!];
    if (!asset) return next();
    res.set('cache-control', 'no-cache').set('cross-origin-resource-policy', 'same-origin').type(asset.type);
    fs.createReadStream(asset.file).on('error', next).pipe(res);
  });

  // The one-time link `npm start` prints: the code becomes a session, then the page.
  r.get(
    '/console/signin',
    wrap(async (req, res) => {
      const { code } = parseInput(signinQuery, req.query, 'query');
      const redeemed = await redeemSigninCode(deps.sql, code);
      if (!redeemed) {
        res.redirect(303, '/console?signin=expired');
        return;
      }
      await operatorOf(deps, redeemed.identity);
      const { token } = await createSession(deps.sql, redeemed.identity, redeemed.sessionExpiresAt);
      setSessionCookie(deps, res, token, redeemed.sessionExpiresAt);
      res.redirect(303, '/console');
    }),
  );

  // Sign-in with the operator's bearer token (the provider's token with an external IdP).
  r.post(
    '/console/api/session',
    json,
    wrap(async (req, res) => {
      if (!sameOrigin(req)) throw new AppError('csrf_failed', 'Sign in from the console page itself.');
      const { token } = parseInput(sessionBody, req.body, 'body');
      let identity: ProvenIdentity;
      try {
        identity = await deps.identity.verifyBearer(token);
      } catch (err) {
        if (err instanceof InvalidCredentialError) throw new AppError('invalid_credential', 'The token is not valid.');
        if (err instanceof ProviderUnavailableError) throw new AppError('identity_provider_unavailable', 'The identity provider cannot be reached; try again shortly.');
        throw err;
      }
      const actor = await operatorOf(deps, identity);
      const exp = decodeJwt(token).exp;
      const expiresAt = new Date(Math.min(Date.now() + MAX_SESSION_SECONDS * 1000, exp ? exp * 1000 : Date.now() + 3600 * 1000));
      const session = await createSession(deps.sql, identity, expiresAt);
      setSessionCookie(deps, res, session.token, expiresAt);
      res.status(201).set('cache-control', 'no-store').json({ success: true, data: { actorId: actor.actorId, csrf: session.csrf, expiresAt: expiresAt.toISOString() } });
    }),
  );

  // Everything below needs a live session of a still-mapped operator; writes need the CSRF token.
  r.use(
    '/console/api',
    guard(async (req, res) => {
      const token = parseCookies(req.headers.cookie ?? '')[CONSOLE_COOKIE];
      const session = token ? await findSession(deps.sql, token) : undefined;
      if (!session) throw new AppError('unauthenticated', 'Sign in to the console first.');
      const actor = await operatorOf(deps, session.identity);
      if (req.method !== 'GET' && req.method !== 'HEAD' && (!sameOrigin(req) || req.headers['x-console-csrf'] !== session.csrf))
        throw new AppError('csrf_failed', 'This console request lacks its CSRF token or comes from another origin.');
      res.locals.console = { actor, csrf: session.csrf, expiresAt: session.expiresAt } satisfies ConsoleLocals;
      res.locals.consoleToken = token;
      res.set('cache-control', 'private, no-store');
    }),
  );
  const who = (res: Response) => res.locals.console as ConsoleLocals;

  r.get('/console/api/me', (_req, res) => {
    const c = who(res);
    res.json({ success: true, data: { actorId: c.actor.actorId, organizationId: c.actor.organizationId, csrf: c.csrf, expiresAt: c.expiresAt.toISOString() } });
  });
  r.delete(
    '/console/api/session',
    wrap(async (_req, res) => {
      await revokeSession(deps.sql, res.locals.consoleToken as string);
      res.append('Set-Cookie', serializeCookie(CONSOLE_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/console', maxAge: 0 }));
      res.status(204).end();
    }),
  );

  r.get(
    '/console/api/queue',
    wrap(async (req, res) => {
      const q = parseInput(queueQuery, req.query, 'query');
      const { items: rows, total } = await consoleQueue(deps.sql, q);
      // The flag of a row whose image matches another artist's published or pending work.
      const items = await Promise.all(rows.map(async (s) => ({ ...s, similarFlag: (await flaggedMatchesOf(deps.sql, s.submissionId)).some((m) => m.flagged) })));
      res.json({ success: true, data: items, pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) } });
    }),
  );
  r.get(
    '/console/api/decisions',
    wrap(async (_req, res) => {
      res.json({ success: true, data: await recentDecisions(deps.sql, 50) });
    }),
  );
  r.get(
    '/console/api/submissions/:id',
    wrap(async (req, res) => {
      const { id } = parseInput(submissionParam, req.params, 'path');
      const d = await submissionDetail(deps.sql, id);
      if (!d) throw new AppError('not_found', 'No such submission.');
      res.json({ success: true, data: d });
    }),
  );
  r.get(
    '/console/api/submissions/:id/similar',
    wrap(async (req, res) => {
      const { id } = parseInput(submissionParam, req.params, 'path');
      if (!(await findSubmission(deps.sql, id))) throw new AppError('not_found', 'No such submission.');
      res.json({ success: true, data: { matches: await flaggedMatchesOf(deps.sql, id, { publicBaseUrl: '' }) } });
    }),
  );
  r.get(
    '/console/api/submissions/:id/preview',
    wrap(async (req, res) => {
      const { id } = parseInput(submissionParam, req.params, 'path');
      const { size } = parseInput(previewQuery, req.query, 'query');
      const bytes = await previewBytes(deps, id, size);
      res.set('x-content-type-options', 'nosniff').type('image/webp').send(bytes);
    }),
  );
  r.post(
    '/console/api/submissions/:id/claim',
    wrap(async (req, res) => {
      const { id } = parseInput(submissionParam, req.params, 'path');
      if (!(await findSubmission(deps.sql, id))) throw new AppError('not_found', 'No such submission.');
      const c = await claim(deps.sql, id, who(res).actor.actorId, CLAIM_SECONDS);
      res.json({ success: true, data: { mine: c.mine, claimedBy: c.claim.actorId, claimedUntil: c.claim.claimedUntil.toISOString() } });
    }),
  );
  r.delete(
    '/console/api/submissions/:id/claim',
    wrap(async (req, res) => {
      const { id } = parseInput(submissionParam, req.params, 'path');
      await releaseClaim(deps.sql, id, who(res).actor.actorId);
      res.status(204).end();
    }),
  );
  const decision = (kind: 'approve' | 'reject') =>
    wrap(async (req, res) => {
      const { id } = parseInput(submissionParam, req.params, 'path');
      let input: DecisionInput;
      if (kind === 'approve') {
        const { acknowledgeMatches, ...body } = parseInput(approveBody, req.body, 'body');
        // A match is advice, never a refusal: approving over one only needs the operator to say so.
        if (!acknowledgeMatches && (await flaggedMatchesOf(deps.sql, id)).some((m) => m.flagged))
          throw new AppError('matches_not_acknowledged', 'The image matches another artist\'s published or pending work: look at the matches, say in the notes why approving is right, and acknowledge them.');
        input = { decision: 'approve', ...body };
      } else input = { decision: 'reject', ...parseInput(rejectBody, req.body, 'body') };
      const result = await decide(deps, who(res).actor, id, input, String(req.id ?? ''));
      // Best effort once the decision went out: a lost database must not turn it into a 503 (claims lapse on their own).
      await releaseClaim(deps.sql, id, who(res).actor.actorId).catch(() => undefined);
      signalAnswer(res, result);
    });
  r.post('/console/api/submissions/:id/approve', json, decision('approve'));
  r.post('/console/api/submissions/:id/reject', json, decision('reject'));

  // Published assets: the same operations as the API's publishing routes, portfolios:publish.
  const publisher = (res: Response) => {
    const a = who(res).actor;
    if (!isOperatorWith(a, 'portfolios:publish')) throw new AppError('permission_denied', 'Publishing needs portfolios:publish.');
    return a;
  };
  const documentParam = z.object({ documentId: z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'not a document id') });
  const assetParam = z.object({ assetId: z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'not an asset id') });
  const draftsQuery = z.object({ publication: z.enum(['draft', 'published', 'unpublished']).optional() }).strict();
  r.get(
    '/console/api/drafts',
    wrap(async (req, res) => {
      const q = parseInput(draftsQuery, req.query, 'query');
      res.json({ success: true, data: await consoleDrafts(deps.sql, { publication: q.publication, limit: 100 }) });
    }),
  );
  r.post(
    '/console/api/drafts/:documentId/publish',
    json,
    wrap(async (req, res) => {
      const { documentId } = parseInput(documentParam, req.params, 'path');
      res.json({ success: true, data: await publishOp(deps, publisher(res), documentId, parseInput(publishSchema, req.body ?? {}, 'body')) });
    }),
  );
  r.post(
    '/console/api/drafts/:documentId/postures',
    json,
    wrap(async (req, res) => {
      const { documentId } = parseInput(documentParam, req.params, 'path');
      res.json({ success: true, data: await settleOp(deps, publisher(res), documentId, parseInput(settlePosturesSchema, req.body, 'body')) });
    }),
  );
  r.post(
    '/console/api/assets/:assetId/unpublish',
    json,
    wrap(async (req, res) => {
      const { assetId } = parseInput(assetParam, req.params, 'path');
      res.json({ success: true, data: await unpublishOp(deps, publisher(res), assetId, parseInput(unpublishSchema, req.body, 'body')) });
    }),
  );

  // Identity evidence waiting for an operator.
  const resolutionParam = z.object({ resolutionId: z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'not a resolution id') });
  r.get(
    '/console/api/resolutions',
    wrap(async (req, res) => {
      const q = parseInput(resolutionListQuery, req.query, 'query');
      const { items, total } = await listArtistResolutions(deps.sql, q);
      res.json({ success: true, data: items, pagination: { page: q.page, limit: q.limit, total } });
    }),
  );
  r.post(
    '/console/api/resolutions/:resolutionId/verify',
    json,
    wrap(async (req, res) => {
      const { resolutionId } = parseInput(resolutionParam, req.params, 'path');
      res.json({ success: true, data: await verifyEvidenceOp(deps.sql, who(res).actor, resolutionId, parseInput(verifyEvidenceSchema, req.body, 'body')) });
    }),
  );
  return r;
}

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script type="module" src="/console/assets/app.js"></script>
</head>
<body><main id="app"><p class="muted">Loading…</p></main></body>
</html>
`;
