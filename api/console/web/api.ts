// The console's client: openapi-fetch typed by api-types.ts, which openapi-typescript generates from
// the route list's console and operator operations (npm run console:types). Same origin, the session
// cookie (sent to the whole API: the operator routes take it), and X-Console-CSRF on every write.
import { mustWith, sessionClient } from '../../web-shared/client';
import type { components, paths } from './api-types';
import { problemText, type Problem } from './format-problem';

export { problemText, type Problem };

export type Schemas = components['schemas'];
export type QueueItem = Schemas['ConsoleQueue']['data'][number];
export type Submission = Schemas['ConsoleSubmission']['data'];
/** The approve body, as the operator route documents it. */
export type ApproveBody = NonNullable<paths['/api/private/portfolio-intake/v1/submissions/{submissionId}/approve']['post']['requestBody']>['content']['application/json'];
export type Match = Schemas['SimilarImages']['data']['matches'][number];
export type Draft = Schemas['ConsoleDrafts']['data'][number];
export type Plan = Schemas['PublicationPlan']['data'];
export type Me = Schemas['ConsoleMe']['data'];

const session = sessionClient<paths>(location.origin, 'x-console-csrf');
export const api = session.client;
export const setCsrf = session.setCsrf;

/** The data of an answer, or an Error carrying the problem in plain words. */
export const must = mustWith<Problem>(problemText);

export const previewUrl = (id: string, size: 'thumb' | 'large') => `/api/private/portfolio-intake/v1/submissions/${encodeURIComponent(id)}/preview?size=${size}`;
