// The two OpenAPI 3.1 documents, generated from the route definitions with zod-to-openapi.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Problem, problems } from './components';
import type { DocumentId, Route } from '../routing/route';
import { operations, problemStatusesOf, type Operation } from './operations';
import { z } from 'zod';
import { EVENT_DESCRIPTIONS, EVENT_TYPES } from '../../lib/intake/outbox';
import { WebhookPayload } from './webhook-schemas';

/** The intake document's 3.1 `webhooks`: one per event type, all with the same signed body. */
function registerWebhooks(registry: OpenAPIRegistry) {
  const headers = z.object({
    'webhook-id': z.string().describe('the event id: the same on every retry; dedupe on it'),
    'webhook-timestamp': z.string().describe('Unix seconds of this attempt; refuse old ones (the standardwebhooks libraries allow 5 minutes)'),
    'webhook-signature': z.string().describe('space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per valid secret (two during a rotation overlap)'),
  });
  for (const type of EVENT_TYPES)
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `webhook_${type.replace('.', '_')}`,
      summary: EVENT_DESCRIPTIONS[type],
      description:
        'Standard Webhooks (https://www.standardwebhooks.com/): verify the signature over the raw body with your whsec_ secret before trusting it. Delivered at least once, in order per submission, retried with exponential backoff for 24 hours on anything but a 2xx within 5 s; redirects are not followed.',
      tags: ['webhooks'],
      request: { headers, body: { required: true, content: { 'application/json': { schema: WebhookPayload } } } },
      responses: { 200: { description: 'any 2xx within 5 s acknowledges the event' } },
    });
}

export const SECURITY_SCHEMES = {
  ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'partner or machine key (organization API key)' },
  BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "a person's access token from the identity provider" },
  PortalSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'portal_session',
    description: 'the partner portal session (POST /portal/api/session with your bearer token); writes also send X-Portal-CSRF',
  },
  ConsoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'console_session',
    description: 'the review console session of a mapped human operator (POST /console/api/session with your bearer token, or a one-time link); writes also send X-Console-CSRF',
  },
} as const;

export function securityOf(op: Operation): Record<string, string[]>[] {
  switch (op.auth) {
    case 'public':
      return [];
    case 'api_key':
      return [{ ApiKeyAuth: [] }];
    case 'operator':
    case 'codec':
      // A mapped human operator's bearer token, or the review console's session (one door).
      return [{ BearerAuth: [] }, { ConsoleSession: [] }];
    case 'any':
      return [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
    case 'portal':
      return [{ PortalSession: [] }];
    case 'console':
      return [{ ConsoleSession: [] }];
  }
}

const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'];

function routeConfig(op: Operation): RouteConfig {
  const responses: RouteConfig['responses'] = {};
  const headers = op.okHeaders
    ? {
        headers: Object.fromEntries(
          Object.entries(op.okHeaders).map(([name, h]) => [
            name,
            { description: h.description, required: h.required ?? false, schema: { type: 'string' as const, ...(h.schema.enum ? { enum: [...h.schema.enum] } : {}) } },
          ]),
        ),
      }
    : {};
  for (const [status, [description, schema]] of Object.entries(op.ok))
    responses[status] = schema ? { description, ...headers, content: { [op.okContentType ?? 'application/json']: { schema } } } : { description, ...headers };
  Object.assign(responses, problems(...problemStatusesOf(op)));
  const request: RouteConfig['request'] = {
    ...(op.query ? { query: op.query } : {}),
    ...(op.params ? { params: op.params } : {}),
    ...(op.body ? { body: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    ...(op.rawBody
      ? { body: { required: true, content: Object.fromEntries(MEDIA_TYPES.map((t) => [t, { schema: { type: 'string', contentMediaType: t } as never }])) } }
      : {}),
  };
  const who =
    op.auth === 'operator'
      ? 'Bearer token of a mapped human operator'
      : op.auth === 'codec'
        ? 'Bearer token of a mapped human operator, or the review console session cookie (no X-Console-CSRF from this origin or the Temporal Web UI\'s)'
      : op.auth === 'api_key'
        ? 'X-API-Key'
        : op.auth === 'any'
          ? 'X-API-Key or bearer token'
          : op.auth === 'portal'
            ? 'partner portal session cookie (+ X-Portal-CSRF on writes)'
            : op.auth === 'console'
              ? 'review console session cookie of a mapped human operator (+ X-Console-CSRF on writes)'
              : 'no credential';
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    description: `Credential: ${who}${op.permission ? `; permission \`${op.permission}\`` : ''}${
      op.operatorPermission ? `; or the bearer token of a mapped human operator with \`${op.operatorPermission}\`` : ''
    }.`,
    tags: [op.tag],
    security: securityOf(op),
    ...(op.deprecated ? { deprecated: true } : {}),
    request,
    responses,
  };
}

const INFO: Record<DocumentId, { title: string; version: string; description: string }> = {
  intake: {
    title: 'Portfolio intake (private API)',
    version: '1.0.0',
    description:
      'Partners create a submission, PUT the bytes to the signed URL, and complete the upload; a human operator approves or rejects. Approval writes a private draft only. Errors are application/problem+json with a stable `code`.',
  },
  public: {
    title: 'Tattoo directory (public and beta API)',
    version: '1.0.0',
    description:
      'Health and studio discovery are public; search, artists, portfolios, designs and owner reads need a mapped credential. Envelopes and pagination key names differ per endpoint on purpose. Write methods answer 405.',
  },
};

/** The tag of operations that are no longer served (410); listed last. */
export const RETIRED_TAG = 'Retired';
/** The tag of routes that exist for compatibility only (410, naming where to go); listed before the retired ones. */
export const COMPATIBILITY_TAG = 'Compatibility';
const LAST_TAGS: Readonly<Record<string, string>> = {
  [COMPATIBILITY_TAG]: 'Routes older clients call, kept for compatibility: they touch no data and answer 410 naming where to go.',
  [RETIRED_TAG]: 'Operations that moved elsewhere: they answer 410 and say where.',
};

export function buildDocument(doc: DocumentId, routes: readonly Route[], o: { serverUrl?: string } = {}) {
  const registry = new OpenAPIRegistry();
  registry.register('Problem', Problem);
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) registry.registerComponent('securitySchemes', name, scheme);
  // What people came for first; retired operations last, under their own tag (Swagger UI orders
  // tags as the document lists them).
  const ops = operations(routes).filter((x) => x.doc === doc);
  const ordered = [...ops.filter((x) => !(x.tag in LAST_TAGS)), ...Object.keys(LAST_TAGS).flatMap((t) => ops.filter((x) => x.tag === t))];
  for (const op of ordered) registry.registerPath(routeConfig(op));
  if (doc === 'intake') registerWebhooks(registry);
  const tags = [...new Set(ordered.map((x) => x.tag))].map((name) => (name in LAST_TAGS ? { name, description: LAST_TAGS[name]! } : { name }));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: INFO[doc],
    tags,
    ...(o.serverUrl ? { servers: [{ url: o.serverUrl }] } : {}),
  });
}
