// Partners hear what happened: webhook endpoints of their organization (register, list, read,
// delete, rotate the secret), the delivery log with redelivery, and the events feed for partners
// that cannot receive webhooks. Everything is scoped to the caller's organization: another
// organization's endpoint, delivery or event looks exactly like a missing one.
import { EVENT_TYPES } from '../../../lib/intake/outbox';
import { webhookPolicyOf } from '../../../lib/config';
import { checkTarget, TargetRefused } from '../../../lib/webhooks/targets';
import {
  createEndpoint,
  deleteEndpoint,
  deliveryLog,
  deliveryStatus,
  eventsAfter,
  findEndpoint,
  listEndpoints,
  redeliver,
  rotateSecret,
  type Endpoint,
} from '../../../lib/webhooks/store';
import type { Permission } from '../../../lib/identity/permissions';
import type { AppDeps } from '../../deps';
import { AppError } from '../../http/errors';
import { defineRoute, reply, type Route } from '../../routing/route';
import { INTAKE_BASE } from '../../routing/bases';
import {
  createEndpointSchema,
  deliveriesQuery,
  DeliveryList,
  deliveryParams,
  encodeSeq,
  endpointIdParams,
  EventFeed,
  eventsQuery,
  Redelivery,
  rotateSecretSchema,
  SecretRotated,
  WebhookEndpointCreated,
  WebhookEndpointEnvelope,
  WebhookEndpointList,
} from '../../openapi/webhook-schemas';

const endpointView = (e: Endpoint) => ({
  endpointId: e.endpointId,
  url: e.url,
  description: e.description,
  eventTypes: e.eventTypes ?? [...EVENT_TYPES],
  allEventTypes: e.eventTypes === null,
  createdAt: e.createdAt.toISOString(),
});

async function ownEndpoint(deps: AppDeps, organizationId: string, endpointId: string): Promise<Endpoint> {
  const e = await findEndpoint(deps.sql, organizationId, endpointId);
  if (!e) throw new AppError('not_found', 'No such webhook endpoint.');
  return e;
}

/** Who may use a set of the endpoint operations, where, and under which operation ids. */
interface EndpointSurface {
  base: string;
  common: { doc: 'intake'; tag: string; auth: 'any' | 'portal'; permission: Permission };
  /** operationId as the partner API names it -> as this surface names it. */
  id: (operationId: string) => string;
}

/** The partner API's: its key (or a member's token) with portfolio_intake:stage. */
const API_SURFACE: EndpointSurface = {
  base: `${INTAKE_BASE}/webhook-endpoints`,
  common: { doc: 'intake', tag: 'webhooks', auth: 'any', permission: 'portfolio_intake:stage' },
  id: (x) => x,
};

/** The partner portal's: the same operations for a person signed in with partner_api_keys:manage. */
export const PORTAL_WEBHOOK_SURFACE: EndpointSurface = {
  base: '/portal/api/webhook-endpoints',
  common: { doc: 'intake', tag: 'partner portal', auth: 'portal', permission: 'partner_api_keys:manage' },
  id: (x) => `portal${x[0]!.toUpperCase()}${x.slice(1)}`,
};

export function webhookRoutes(): Route[] {
  return [...webhookEndpointRoutes(API_SURFACE), eventsRoute()];
}

/**
 * The endpoint operations (register, list, read, delete, rotate the secret, the delivery log,
 * redeliver) of one surface: the partner API's, or the portal's. One set of handlers for both;
 * each scoped to the caller's organization.
 */
export function webhookEndpointRoutes(surface: EndpointSurface): Route[] {
  const stage = surface.common;
  const base = surface.base;
  const id = surface.id;
  return [
    defineRoute({
      ...stage, method: 'post', path: base, operationId: id('createWebhookEndpoint'),
      summary: "Register a webhook endpoint for your organization (the signing secret is shown once)", body: createEndpointSchema,
      ok: { 201: ['registered; keep the secret', WebhookEndpointCreated] }, problems: [422],
      async handler({ deps, body, actor, res }) {
        try {
          await checkTarget(body.url, webhookPolicyOf(deps.cfg));
        } catch (err) {
          if (err instanceof TargetRefused) throw new AppError('webhook_target_refused', `This URL cannot receive webhooks: ${err.message}.`);
          throw err;
        }
        const { endpoint, secret } = await createEndpoint(deps.sql, deps.webhookSecrets, {
          organizationId: actor().organizationId,
          url: body.url,
          description: body.description ?? '',
          eventTypes: body.eventTypes ? [...new Set(body.eventTypes)] : null,
          createdBy: actor().actorId,
        });
        res.setHeader('Cache-Control', 'no-store');
        return reply(201, { data: { ...endpointView(endpoint), secret } });
      },
    }),
    defineRoute({
      ...stage, method: 'get', path: base, operationId: id('listWebhookEndpoints'),
      summary: "Your organization's webhook endpoints (never their secrets)",
      ok: { 200: ['the endpoints, oldest first', WebhookEndpointList] },
      async handler({ deps, actor }) {
        return { data: (await listEndpoints(deps.sql, actor().organizationId)).map(endpointView) };
      },
    }),
    defineRoute({
      ...stage, method: 'get', path: `${base}/{endpointId}`, operationId: id('getWebhookEndpoint'),
      summary: 'One webhook endpoint', params: endpointIdParams,
      ok: { 200: ['the endpoint', WebhookEndpointEnvelope] }, problems: [404],
      async handler({ deps, params, actor }) {
        return { data: endpointView(await ownEndpoint(deps, actor().organizationId, params.endpointId)) };
      },
    }),
    defineRoute({
      ...stage, method: 'delete', path: `${base}/{endpointId}`, operationId: id('deleteWebhookEndpoint'),
      summary: 'Delete a webhook endpoint: nothing more is sent to it; its open deliveries are cancelled', params: endpointIdParams,
      ok: { 204: ['deleted', null] }, problems: [404],
      async handler({ deps, params, actor, res }) {
        if (!(await deleteEndpoint(deps.sql, actor().organizationId, params.endpointId))) throw new AppError('not_found', 'No such webhook endpoint.');
        res.status(204).end();
      },
    }),
    defineRoute({
      ...stage, method: 'post', path: `${base}/{endpointId}/rotate-secret`, operationId: id('rotateWebhookSecret'),
      summary: 'A new signing secret; the previous one keeps signing during the overlap window', params: endpointIdParams, body: rotateSecretSchema,
      ok: { 200: ['the new secret, shown once', SecretRotated] }, problems: [404],
      async handler({ deps, params, body, actor, res }) {
        const e = await ownEndpoint(deps, actor().organizationId, params.endpointId);
        const r = await rotateSecret(deps.sql, deps.webhookSecrets, e.endpointId, body.overlapSeconds);
        res.setHeader('Cache-Control', 'no-store');
        return { data: { secret: r.secret, previousSecretExpiresAt: r.previousExpiresAt.toISOString() } };
      },
    }),
    defineRoute({
      ...stage, method: 'get', path: `${base}/{endpointId}/deliveries`, operationId: id('listWebhookDeliveries'),
      summary: 'What was sent to the endpoint: each event with its attempts, answers and next retry (newest first)', params: endpointIdParams, query: deliveriesQuery,
      ok: { 200: ['a page of deliveries', DeliveryList] }, problems: [404],
      async handler({ deps, params, query, actor }) {
        const e = await ownEndpoint(deps, actor().organizationId, params.endpointId);
        const { rows, more } = await deliveryLog(deps.sql, { endpointId: e.endpointId, status: query.status, beforeSeq: query.cursor, limit: query.limit });
        const last = rows.at(-1);
        return { data: rows.map(({ seq: _seq, ...d }) => ({
            ...d,
            nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
            createdAt: d.createdAt.toISOString(),
            completedAt: d.completedAt?.toISOString() ?? null,
            log: d.log.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
          })),
          next_cursor: more && last ? encodeSeq(last.seq) : null,
        };
      },
    }),
    defineRoute({
      ...stage, method: 'post', path: `${base}/{endpointId}/deliveries/{deliveryId}/redeliver`, operationId: id('redeliverWebhook'),
      summary: 'Send a delivery again (same webhook-id), whatever its state', params: deliveryParams,
      ok: { 202: ['queued; the delivery log shows the new attempts', Redelivery] }, problems: [404, 409],
      async handler({ deps, params, actor }) {
        const e = await ownEndpoint(deps, actor().organizationId, params.endpointId);
        if (!(await redeliver(deps.sql, e.endpointId, params.deliveryId))) {
          if (!(await deliveryStatus(deps.sql, e.endpointId, params.deliveryId))) throw new AppError('not_found', 'No such delivery for this endpoint.');
          throw new AppError('delivery_in_progress', 'This delivery is being delivered now; redeliver it once it has succeeded or failed.');
        }
        return reply(202, { data: { deliveryId: params.deliveryId, status: 'pending' } });
      },
    }),
  ];
}

/** The events feed, for partners that cannot receive webhooks (the partner API only). */
function eventsRoute(): Route {
  return defineRoute({
    ...API_SURFACE.common, method: 'get', path: `${INTAKE_BASE}/events`, operationId: 'listEvents',
    summary: "Your organization's events, oldest first, with the same ids as the webhooks (poll with next_cursor)", query: eventsQuery,
    ok: { 200: ['events after the cursor', EventFeed] },
    async handler({ deps, query, actor }) {
      const after = query.cursor ?? query.after ?? '0';
      const { events, more } = await eventsAfter(deps.sql, { organizationId: actor().organizationId, afterSeq: after, limit: query.limit, publicBaseUrl: deps.publicBaseUrl });
      const last = events.at(-1);
      return { data: events.map(({ seq: _seq, ...e }) => e), next_cursor: encodeSeq(last ? last.seq : after), has_more: more };
    },
  });
}
