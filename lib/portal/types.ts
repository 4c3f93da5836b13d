// What the partner portal's API answers about a key: shared by the server (lib/portal/keys.ts) and
// the page (api/portal/web), so it imports nothing.
export interface PortalKey {
  keyId: string;
  name: string;
  /** The key's first characters (`tpk_<keyId>`): enough to recognise it, never the secret. */
  prefix: string;
  permissions: string[];
  /** Where the key may act: studio and artist ids (empty: no limit of that kind). */
  scopes: { studios: string[]; artists: string[] };
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  /** The key that replaced this one in a rotation. */
  replacedBy: string | null;
  status: 'active' | 'expiring' | 'expired' | 'revoked';
}

/** A key just made (create or rotate): the whole key, shown once, and its docs handoff. */
export interface NewPortalKey extends PortalKey {
  key: string;
  docsHandoff: { token: string; expiresAt: string };
  previousKeyId?: string;
  previousExpiresAt?: string;
}

export interface PortalMe {
  subject: string;
  organizationId: string;
  csrfToken: string;
  permissions: string[];
  expiresAt: string;
}

/** A webhook endpoint as the partner API and the portal answer it (never its secret). */
export interface PortalEndpoint {
  endpointId: string;
  url: string;
  description: string;
  eventTypes: string[];
  allEventTypes: boolean;
  createdAt: string;
}

export interface PortalDelivery {
  deliveryId: string;
  eventId: string;
  eventType: string;
  submissionId: string;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  completedAt: string | null;
}
