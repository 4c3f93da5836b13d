// The console's client: openapi-fetch typed by api-types.ts, which openapi-typescript generates from
// the route list's console and operator operations (npm run console:types). Same origin, the session
// cookie (sent to the whole API: the operator routes take it), and X-Console-CSRF on every write.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './api-types';
import { problemText, type Problem } from './format-problem';

export { problemText, type Problem };

export type Schemas = components['schemas'];
export type QueueItem = Schemas['ConsoleQueue']['data'][number];
export type Submission = Schemas['ConsoleSubmission']['data'];
export type Match = Schemas['SimilarImages']['data']['matches'][number];
export type Draft = Schemas['ConsoleDrafts']['data'][number];
export type Plan = Schemas['PublicationPlan']['data'];
export type Me = Schemas['ConsoleMe']['data'];

let csrf = '';
export const setCsrf = (token: string) => void (csrf = token);

const withCsrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD') request.headers.set('x-console-csrf', csrf);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
api.use(withCsrf);

/** The data of an answer, or an Error carrying the problem in plain words. */
export async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const r = await call;
  if (r.error !== undefined || !r.response.ok) {
    const err = new Error(problemText(r.error as Problem, r.response.status)) as Error & { status: number; code?: string };
    err.status = r.response.status;
    err.code = (r.error as Problem | undefined)?.code;
    throw err;
  }
  return r.data as T;
}

export const previewUrl = (id: string, size: 'thumb' | 'large') => `/api/private/portfolio-intake/v1/submissions/${encodeURIComponent(id)}/preview?size=${size}`;
