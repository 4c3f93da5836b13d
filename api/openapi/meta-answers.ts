// Health, the identity provider's keys and the documents themselves.
import { z } from './zod';

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
        status: z.enum(['ready', 'blocked', 'not_configured', 'degraded']).describe('degraded: an optional dependency is away and its work is done another way (the search engine: /search answers from PostgreSQL)'),
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
