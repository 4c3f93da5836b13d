// Request and answer schemas of the partners' webhook endpoints and events feed: they
// validate requests and describe them in the intake OpenAPI document, webhooks section included.
import { z } from './zod';
import { limitParam } from '../../lib/directory/params';
import { plainText } from '../../lib/validation/text';
import { EVENT_TYPES } from '../../lib/intake/outbox';
import { deliveryStatuses } from '../../lib/webhooks/deliveries';
import { SubmissionStatus } from './components';

const opaque = (what: string, shape: RegExp) =>
  z
    .string()
    .max(200)
    .transform((v, ctx) => {
      const decoded = Buffer.from(v, 'base64url').toString('utf8');
      if (!shape.test(decoded)) {
        ctx.addIssue({ code: 'custom', message: `not a ${what} this API gave out (use it as it came)` });
        return z.NEVER;
      }
      return decoded;
    });

/** Events and delivery pages are keyed by the event's sequence number, opaque to clients. */
export const encodeSeq = (seq: string) => Buffer.from(seq).toString('base64url');
const seqCursor = (what: string) => opaque(what, /^\d{1,19}$/);

export const createEndpointSchema = z
  .object({
    url: z.string().max(2000).describe('where to POST events; https:// with a public address in production (loopback allowed outside production)'),
    description: plainText(500).optional(),
    eventTypes: z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length).optional().describe('only these types; omitted: every type, including types added later'),
  })
  .strict();

export const endpointIdParams = z.object({ endpointId: z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/, 'not an endpoint id') });
export const deliveryParams = endpointIdParams.extend({ deliveryId: z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/, 'not a delivery id') });

export const rotateSecretSchema = z
  .object({
    overlapSeconds: z.number().int().min(0).max(7 * 86400).default(86400).describe('how long the previous secret keeps signing beside the new one (default 24 h)'),
  })
  .strict();

export const deliveriesQuery = z
  .object({
    status: z.enum(deliveryStatuses).optional(),
    limit: limitParam(20, 100),
    cursor: seqCursor('cursor').optional().describe('next_cursor of the previous page'),
  })
  .strict();

export const eventsQuery = z
  .object({
    cursor: seqCursor('cursor').optional().describe('next_cursor of the previous read (the same name as on every list); omitted: from the oldest event'),
    after: seqCursor('after').optional().describe('the older name of `cursor`, still accepted'),
    limit: limitParam(50, 200),
  })
  .strict()
  .refine((q) => q.cursor === undefined || q.after === undefined || q.cursor === q.after, { message: 'give cursor or its older name after, not two different cursors', path: ['cursor'] });

// ---------------------------------------------------------------- answers

export const WebhookEndpoint = z
  .object({
    endpointId: z.string(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.enum(EVENT_TYPES)).describe('the event types this endpoint receives'),
    allEventTypes: z.boolean().describe('registered without eventTypes: every type, including types added later'),
    createdAt: z.string(),
  })
  .openapi('WebhookEndpoint');

export const WebhookEndpointCreated = z
  .object({
    success: z.literal(true),
    data: WebhookEndpoint.extend({ secret: z.string().describe('whsec_...: shown once, now; store it to verify signatures') }),
  })
  .openapi('WebhookEndpointCreated');

export const WebhookEndpointEnvelope = z.object({ success: z.literal(true), data: WebhookEndpoint });
export const WebhookEndpointList = z.object({ success: z.literal(true), data: z.array(WebhookEndpoint) }).openapi('WebhookEndpointList');

export const SecretRotated = z
  .object({
    success: z.literal(true),
    data: z.object({
      secret: z.string().describe('the new whsec_ secret: shown once'),
      previousSecretExpiresAt: z.string().describe('until then deliveries carry a signature under each secret'),
    }),
  })
  .openapi('SecretRotated');

export const WebhookDelivery = z
  .object({
    deliveryId: z.string(),
    eventId: z.string().describe('the webhook-id header of every attempt'),
    eventType: z.enum(EVENT_TYPES),
    submissionId: z.string(),
    status: z.enum(deliveryStatuses),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable().describe('when the next retry runs (status delivering)'),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    log: z.array(z.object({ attempt: z.number().int(), at: z.string(), statusCode: z.number().int().nullable(), error: z.string().nullable(), durationMs: z.number().int() })),
  })
  .openapi('WebhookDelivery');

export const DeliveryList = z
  .object({ success: z.literal(true), data: z.array(WebhookDelivery), next_cursor: z.string().nullable() })
  .openapi('WebhookDeliveryList');

export const Redelivery = z.object({ success: z.literal(true), data: z.object({ deliveryId: z.string(), status: z.literal('pending') }) });

/** The body of every webhook (Standard Webhooks: type, timestamp, data). */
export const WebhookPayload = z
  .object({
    type: z.enum(EVENT_TYPES),
    timestamp: z.string().describe('when it happened (RFC 3339)'),
    data: SubmissionStatus.extend({ assetId: z.string().optional().describe('asset.published / asset.unpublished') }),
  })
  .openapi('WebhookPayload');

export const PartnerEventItem = WebhookPayload.extend({ id: z.string().describe('the same id as the webhook-id header') }).openapi('PartnerEvent');

export const EventFeed = z
  .object({
    success: z.literal(true),
    data: z.array(PartnerEventItem),
    next_cursor: z.string().describe('pass as `cursor` next time (the same cursor again when nothing was new)'),
    has_more: z.boolean(),
  })
  .openapi('EventFeed');
