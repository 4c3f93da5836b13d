// The two OpenAPI 3.1 documents, generated from the route definitions with zod-to-openapi.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Problem, problems } from './components';
import type { DocumentId, Route } from '../http/route';
import { operations, problemStatusesOf, type Operation } from './operations';

export const SECURITY_SCHEMES = {
  ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'partner or machine key (organization API key)' },
  BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "a person's access token from the identity provider" },
} as const;

export function securityOf(op: Operation): Record<string, string[]>[] {
  switch (op.auth) {
    case 'public':
      return [];
    case 'api_key':
      return [{ ApiKeyAuth: [] }];
    case 'operator':
      return [{ BearerAuth: [] }];
    case 'any':
      return [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
  }
}

const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'];

function routeConfig(op: Operation): RouteConfig {
  const responses: RouteConfig['responses'] = {};
  for (const [status, [description, schema]] of Object.entries(op.ok))
    responses[status] = schema ? { description, content: { [op.okContentType ?? 'application/json']: { schema } } } : { description };
  Object.assign(responses, problems(...problemStatusesOf(op)));
  const request: RouteConfig['request'] = {
    ...(op.query ? { query: op.query } : {}),
    ...(op.params ? { params: op.params } : {}),
    ...(op.body ? { body: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    ...(op.rawBody
      ? { body: { required: true, content: Object.fromEntries(MEDIA_TYPES.map((t) => [t, { schema: { type: 'string', contentMediaType: t } as never }])) } }
      : {}),
  };
  const who = op.auth === 'operator' ? 'Bearer token of a mapped human operator' : op.auth === 'api_key' ? 'X-API-Key' : op.auth === 'any' ? 'X-API-Key or bearer token' : 'no credential';
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    description: `Credential: ${who}${op.permission ? `; permission \`${op.permission}\`` : ''}.`,
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

export function buildDocument(doc: DocumentId, routes: readonly Route[], o: { serverUrl?: string } = {}) {
  const registry = new OpenAPIRegistry();
  registry.register('Problem', Problem);
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) registry.registerComponent('securitySchemes', name, scheme);
  for (const op of operations(routes).filter((x) => x.doc === doc)) registry.registerPath(routeConfig(op));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: INFO[doc],
    ...(o.serverUrl ? { servers: [{ url: o.serverUrl }] } : {}),
  });
}
