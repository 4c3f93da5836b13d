// The portal's client: openapi-fetch typed by api-types.ts, which openapi-typescript generates from
// the route list's /portal/api operations (npm run console:types). Same origin, the session cookie,
// and X-Portal-CSRF on every write.
import { mustWith, sessionClient } from '../../web-shared/client';
import type { components, paths } from './api-types';
import { messageOf, problemText, type Problem } from './format';

export type Schemas = components['schemas'];
export type Me = Schemas['PortalMe']['data'];
export type Key = Schemas['PortalKey'];
export type KeyStatus = Key['status'];
export type Permission = Schemas['PortalKeyList']['selectablePermissions'][number];
/** A key just made: created, or rotated (then with the key it replaces). */
export type NewKey = Schemas['PortalNewKey']['data'] & Partial<Pick<Schemas['PortalRotatedKey']['data'], 'previousKeyId' | 'previousExpiresAt'>>;
/** The overlaps a key rotation offers. */
export type KeyOverlapSeconds = NonNullable<paths['/portal/api/keys/{keyId}/rotate']['post']['requestBody']>['content']['application/json']['overlapSeconds'];
export type DocsHandoff = Schemas['PortalDocsHandoff'];
export type Endpoint = Schemas['WebhookEndpoint'];
export type Delivery = Schemas['WebhookDelivery'];
export type DeliveryStatus = Delivery['status'];

const session = sessionClient<paths>(location.origin, 'x-portal-csrf');
export const api = session.client;
export const setCsrf = session.setCsrf;

/** The data of an answer, or an Error carrying the problem in plain words. */
export const must = mustWith<Problem>(problemText);

/** Run a call; the words of its failure go to `onError`. */
export async function attempt(onError: (message: string) => void, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (e) {
    onError(messageOf(e));
  }
}
