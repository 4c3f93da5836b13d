// The partner portal's API, in the route list like every endpoint: people of a partner
// organization holding partner_api_keys:manage sign in (their bearer token, or a one-time link from
// `npm run iam -- portal-link`) and list, create, rotate and revoke their organization's API keys.
// Auth kind `portal`: the session cookie, plus X-Portal-CSRF on writes (api/portal/session.ts).
import { z } from '../openapi/zod';
import { findSession } from '../../lib/console/sessions';
import { findActiveActor } from '../../lib/identity/actors';
import { SELF_SERVICE_PERMISSIONS, permissionSchema, type Permission } from '../../lib/identity/permissions';
import { openHandoff, sealHandoff } from '../../lib/portal/handoff';
import { createKey, findKey, listKeys, PortalKeyError, revokeKey, rotateKey } from '../../lib/portal/keys';
import { PortalKey } from '../../lib/portal/types';
import { trimmedText } from '../../lib/validation/text';
import type { Actor } from '../auth/middleware';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { defineRoute, reply, type Route } from '../routing/route';
import { PORTAL_WEBHOOK_SURFACE, webhookEndpointRoutes } from '../routes/intake/webhooks';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { PORTAL_PERMISSION, portalSurface } from './session';
import type { SessionLocals } from '../auth/session-surface';
import { sessionRoutes } from '../routes/session-routes';

/** The docs handoff the browser handed back, for /portal/api/docs-prefill only. */
export const HANDOFF_COOKIE = 'docs_handoff';

export { PORTAL_PERMISSION };
/** The overlaps a rotation offers: none, 1 h, 24 h, 7 d. */
export const ROTATION_OVERLAPS = [0, 3600, 86_400, 604_800] as const;

const portal = { doc: 'intake', tag: 'partner portal', auth: 'portal', permission: PORTAL_PERMISSION } as const;
const signin = { doc: 'intake', tag: 'partner portal', auth: 'public' } as const;

const KeyView = PortalKey.openapi('PortalKey');
const Me = z
  .object({
    success: z.literal(true),
    data: z.object({ subject: z.string(), organizationId: z.string(), csrfToken: z.string(), permissions: z.array(permissionSchema), expiresAt: z.string() }),
  })
  .openapi('PortalMe');
const KeyList = z.object({ success: z.literal(true), data: z.array(KeyView), selectablePermissions: z.array(permissionSchema) }).openapi('PortalKeyList');
const DocsHandoff = z
  .object({
    token: z.string().openapi({ description: 'an encrypted handoff (JWE) holding the key, for "Try it in the docs": POST it to /portal/api/docs-handoff' }),
    expiresAt: z.string(),
  })
  .openapi('PortalDocsHandoff');
const KeyWithSecret = z
  .object({ success: z.literal(true), data: KeyView.extend({ key: z.string().openapi({ description: 'the whole key: shown this once, never again' }), docsHandoff: DocsHandoff }) })
  .openapi('PortalNewKey');
const RotatedKey = z
  .object({
    success: z.literal(true),
    data: KeyView.extend({
      key: z.string(),
      docsHandoff: DocsHandoff,
      previousKeyId: z.string(),
      previousExpiresAt: z.string().openapi({ description: 'when the old key stops working' }),
    }),
  })
  .openapi('PortalRotatedKey');
const handoffBody = z.object({ handoff: z.string().min(20).max(4096) }).strict();
const Prefill = z
  .object({
    success: z.literal(true),
    data: z.object({ apiKey: z.string(), keyId: z.string(), prefix: z.string(), handoffExpiresAt: z.string() }).nullable(),
    reason: z
      .enum(['signed_out', 'not_permitted', 'no_handoff', 'invalid', 'expired', 'another_person', 'key_unusable'])
      .optional()
      .openapi({ description: 'why nothing is prefilled (data null): paste the key by hand' }),
  })
  .openapi('PortalDocsPrefill');
type PrefillReason = 'signed_out' | 'not_permitted' | 'no_handoff' | 'invalid' | 'expired' | 'another_person' | 'key_unusable';
const KeyEnvelope = z.object({ success: z.literal(true), data: KeyView }).openapi('PortalKeyEnvelope');

const keyIdParams = z.object({ keyId: z.string().regex(/^[A-Za-z0-9]{12,32}$/, 'a key id (the part after tpk_)') });
const createBody = z
  .object({
    name: trimmedText(100),
    permissions: z.array(permissionSchema).min(1).max(SELF_SERVICE_PERMISSIONS.length),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'optional: the key stops working then (at most two years ahead)' }),
  })
  .strict();
const rotateBody = z
  .object({
    overlapSeconds: z.union(ROTATION_OVERLAPS.map((s) => z.literal(s)) as [z.ZodLiteral<0>, z.ZodLiteral<3600>, z.ZodLiteral<86400>, z.ZodLiteral<604800>]).openapi({
      description: 'how long the old key keeps working: 0 (not at all), 3600 (1 h), 86400 (24 h) or 604800 (7 d)',
    }),
  })
  .strict();

/** A handoff for a key just made, for this person and organization (the answer carries it once). */
async function handoffFor(deps: AppDeps, me: Actor, key: PortalKey, secret: string) {
  const h = await sealHandoff(deps.portalHandoffKey, { key: secret, keyId: key.keyId, actorId: me.actorId, organizationId: me.organizationId }, deps.cfg.PORTAL_HANDOFF_TTL_SECONDS);
  return { token: h.token, expiresAt: h.expiresAt.toISOString() };
}

/**
 * The four conditions of the contract's section 5 rule 5 (the session and the permission are the
 * route's own checks): the handoff opens, it is this person's and organization's, it has not
 * expired, and its key is still usable.
 */
async function checkHandoff(deps: AppDeps, me: Actor, token: string): Promise<{ ok: true; key: PortalKey; apiKey: string; exp: number } | { ok: false; reason: PrefillReason }> {
  const opened = await openHandoff(deps.portalHandoffKey, token);
  if (!opened.ok) return opened;
  const c = opened.claims;
  if (c.actorId !== me.actorId || c.organizationId !== me.organizationId) return { ok: false, reason: 'another_person' };
  const key = await findKey(deps.sql, me.organizationId, c.keyId);
  if (!key || key.status === 'revoked' || key.status === 'expired') return { ok: false, reason: 'key_unusable' };
  return { ok: true, key, apiKey: c.key, exp: c.exp };
}

function keyError(err: unknown): never {
  if (err instanceof PortalKeyError && err.reason === 'not_found') throw new AppError('not_found', 'No such key in your organization (or it is revoked, expired or already rotated).');
  if (err instanceof PortalKeyError) throw new AppError('permission_not_selectable', 'That key holds permissions the portal cannot give; ask us to rotate it.');
  throw err;
}

const mePayload = (p: Pick<SessionLocals, 'actor' | 'subject' | 'csrf' | 'expiresAt'>) => ({
  subject: p.subject,
  organizationId: p.actor.organizationId,
  csrfToken: p.csrf,
  permissions: [...p.actor.permissions],
  expiresAt: p.expiresAt.toISOString(),
});

export function portalRoutes(): Route[] {
  return [
    ...sessionRoutes({
      surface: portalSurface, name: 'partner portal', tag: 'partner portal', auth: 'portal', permission: PORTAL_PERMISSION,
      linkSummary: 'A one-time sign-in link (npm run iam -- portal-link): sets the session cookie and opens the portal',
      signedIn: {
        description: 'signed in: the cookie is set; send csrfToken as X-Portal-CSRF on writes', schema: Me,
        data: ({ identity, actor, csrf, expiresAt }) => mePayload({ actor, subject: identity.subject, csrf, expiresAt }),
      },
      me: { description: 'the signed-in person', schema: Me, data: mePayload },
    }),
    defineRoute({
      ...portal, method: 'get', path: '/portal/api/keys', operationId: 'portalListKeys',
      summary: "Your organization's API keys (name, prefix, permissions, created, last used, expiry), newest first",
      ok: { 200: ['the keys, and the permissions a new key may hold', KeyList] },
      async handler({ deps, res }) {
        return { data: await listKeys(deps.sql, portalSurface.localsOf(res).actor.organizationId), selectablePermissions: [...SELF_SERVICE_PERMISSIONS] };
      },
    }),
    defineRoute({
      ...portal, method: 'post', path: '/portal/api/keys', operationId: 'portalCreateKey',
      summary: 'Create a key: the beta reads and, as an advanced choice, portfolio_intake:stage; the key is in this answer only',
      body: createBody, problems: [422],
      ok: { 201: ['created: `key` is shown this once', KeyWithSecret] },
      async handler({ deps, res, body }) {
        const refused = body.permissions.filter((p) => !(SELF_SERVICE_PERMISSIONS as readonly Permission[]).includes(p));
        if (refused.length) throw new AppError('permission_not_selectable', `Not available to a key made in the portal: ${refused.join(', ')}.`);
        let expiresAt: Date | undefined;
        if (body.expiresAt) {
          expiresAt = new Date(body.expiresAt);
          if (expiresAt.getTime() <= Date.now() + 60_000 || expiresAt.getTime() > Date.now() + 2 * 366 * 86_400_000)
            throw new AppError('validation_failed', 'expiresAt must be at least a minute and at most two years ahead.', { errors: [{ path: 'body.expiresAt', message: 'between one minute and two years ahead' }] });
        }
        const me = portalSurface.localsOf(res).actor;
        const made = await createKey(deps.sql, { organizationId: me.organizationId, by: me.actorId, name: body.name, permissions: [...new Set(body.permissions)], expiresAt }).catch(keyError);
        res.set('cache-control', 'no-store');
        return reply(201, { data: { ...made.view, key: made.key, docsHandoff: await handoffFor(deps, me, made.view, made.key) } });
      },
    }),
    defineRoute({
      ...portal, method: 'post', path: '/portal/api/keys/{keyId}/rotate', operationId: 'portalRotateKey',
      summary: 'Rotate a key: a new secret for the same actor (name, role, permissions, capabilities and scopes kept; its submissions stay its own); the old one works until the overlap ends, then answers 401',
      params: keyIdParams, body: rotateBody, problems: [404, 422],
      ok: { 200: ['the new key (shown this once) and when the old one stops', RotatedKey] },
      async handler({ deps, res, params, body }) {
        const me = portalSurface.localsOf(res).actor;
        const r = await rotateKey(deps.sql, { organizationId: me.organizationId, by: me.actorId, keyId: params.keyId, overlapSeconds: body.overlapSeconds }).catch(keyError);
        res.set('cache-control', 'no-store');
        return { data: { ...r.view, key: r.key, docsHandoff: await handoffFor(deps, me, r.view, r.key), previousKeyId: params.keyId, previousExpiresAt: r.previousExpiresAt },
        };
      },
    }),
    defineRoute({
      ...portal, method: 'post', path: '/portal/api/keys/{keyId}/revoke', operationId: 'portalRevokeKey',
      summary: 'Revoke a key: its next request answers 401',
      params: keyIdParams, problems: [404],
      ok: { 200: ['revoked', KeyEnvelope] },
      async handler({ deps, res, params }) {
        const me = portalSurface.localsOf(res).actor;
        const key: PortalKey = await revokeKey(deps.sql, { organizationId: me.organizationId, by: me.actorId, keyId: params.keyId }).catch(keyError);
        return { data: key };
      },
    }),
    defineRoute({
      ...portal, method: 'post', path: '/portal/api/docs-handoff', operationId: 'portalDocsHandoff',
      summary: '"Try it in the docs": hand a key\'s handoff to /docs (checked now, and again at every prefill)',
      body: handoffBody, problems: [422],
      ok: { 204: ['handed over: /docs prefills X-API-Key while the handoff holds', null] },
      async handler({ deps, res, body }) {
        const me = portalSurface.localsOf(res).actor;
        const checked = await checkHandoff(deps, me, body.handoff);
        if (!checked.ok) throw new AppError('handoff_refused', `This handoff cannot be used (${checked.reason}); paste the key in the docs by hand.`);
        const maxAge = Math.max(1, checked.exp - Math.floor(Date.now() / 1000));
        res.append('Set-Cookie', serializeCookie(HANDOFF_COOKIE, body.handoff, { httpOnly: true, sameSite: 'strict', path: '/portal/api', maxAge, secure: deps.cfg.NODE_ENV === 'production' }));
        res.status(204).end();
      },
    }),
    // Public, so that /docs asks it for everyone without an error in the console: it checks the
    // portal session and the person's permission itself, and answers null with the reason.
    defineRoute({
      ...signin, method: 'get', path: '/portal/api/docs-prefill', operationId: 'portalDocsPrefill',
      summary: 'What /docs may prefill as X-API-Key: the handed-over key while every condition holds (portal session, same person, permission, handoff and key alive), else null and why',
      ok: { 200: ['the key to prefill, or null with the reason', Prefill] },
      async handler({ deps, req, res }) {
        res.set('cache-control', 'private, no-store');
        const none = (reason: PrefillReason) => ({ data: null, reason });
        if (deps.cfg.IDP_DRIVER !== 'local') return none('signed_out');
        const sessionToken = portalSurface.sessionOf(req);
        const session = sessionToken ? await findSession(deps.sql, sessionToken, 'portal') : undefined;
        const me = session ? await findActiveActor(deps.sql, session.identity) : undefined;
        if (!session || !me) return none('signed_out');
        if (!me.permissions.includes(PORTAL_PERMISSION)) return none('not_permitted');
        const token = parseCookies(req.headers.cookie ?? '')[HANDOFF_COOKIE];
        const checked: Awaited<ReturnType<typeof checkHandoff>> = token ? await checkHandoff(deps, me, token) : { ok: false, reason: 'no_handoff' };
        if (!checked.ok) return none(checked.reason);
        await deps.sql`insert into access_audit (action, subject, detail)
          values ('docs_prefill', ${me.actorId}, ${deps.sql.json({ keyId: checked.key.keyId, organizationId: me.organizationId })})`;
        return { data: { apiKey: checked.apiKey, keyId: checked.key.keyId, prefix: checked.key.prefix, handoffExpiresAt: new Date(checked.exp * 1000).toISOString() } };
      },
    }),
    // The organization's webhook endpoints and their deliveries: the partner API's own operations,
    // for the signed-in person (api/routes/intake/webhooks.ts).
    ...webhookEndpointRoutes(PORTAL_WEBHOOK_SURFACE),
  ];
}
