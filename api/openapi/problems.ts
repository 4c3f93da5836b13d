// The problem+json answer every error is, and the documents' helpers around answers.
import { z } from './zod';
import { ERROR_STATUS, TITLES, type ProblemStatus } from '../http/errors';

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    success: z.literal(false),
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]).describe('stable machine-readable code'),
    requestId: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional().describe('one entry per invalid field'),
  })
  .openapi('Problem', { description: 'RFC 9457 problem details with the house extensions success, code, requestId and errors[]' });

export type { ProblemStatus };

const PROBLEM_HEADERS: Partial<Record<ProblemStatus, Record<string, { description: string; schema: { type: 'string' } }>>> = {
  405: { Allow: { description: 'the methods this resource answers', schema: { type: 'string' } } },
  429: {
    'Retry-After': { description: 'seconds until the window has room again', schema: { type: 'string' } },
    'RateLimit-Policy': { description: 'the limit: `"<family>";q=<requests>;w=<seconds>` (IETF RateLimit headers draft)', schema: { type: 'string' } },
    RateLimit: { description: 'what is left: `"<family>";r=<remaining>;t=<seconds to reset>`', schema: { type: 'string' } },
  },
  503: { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'string' } } },
};

const WHEN: Record<ProblemStatus, string> = {
  400: 'invalid input (`validation_failed`, `invalid_json`); `errors[]` names each field',
  401: 'no credential, or an invalid one',
  403: 'valid credential without a mapping, the permission, the scope or operator status',
  404: 'no such resource, or not yours',
  405: 'method not answered on this resource (`Allow` lists what is)',
  409: 'not possible in the current state',
  410: 'retired route',
  413: 'body too large',
  415: 'unsupported body encoding',
  422: 'idempotency key reused with a different body',
  429: 'too many requests (`rate_limited`: the credential\'s or address\'s limit for this kind of request) or a quota reached (`quota_exceeded`)',
  503: 'a dependency (Temporal, worker, identity provider, database) is unavailable; retry after `Retry-After`',
};

export function problems(...statuses: ProblemStatus[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: `${TITLES[s] ?? 'Error'}: ${WHEN[s]}`,
        ...(PROBLEM_HEADERS[s] ? { headers: PROBLEM_HEADERS[s] } : {}),
        content: { 'application/problem+json': { schema: Problem } },
      },
    ]),
  );
}

export function json(description: string, schema: z.ZodType) {
  return { description, content: { 'application/json': { schema } } };
}

/** `{success: true, data}` around one record. */
export function envelope(schema: z.ZodType) {
  return z.object({ success: z.literal(true), data: schema });
}
