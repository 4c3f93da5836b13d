// What the partner portal's API answers: the key as a zod schema (the server's answer schema and its
// TypeScript type, inferred), and the page's other shapes (the page imports types only).
import { z } from 'zod';
import { permissionSchema } from '../identity/permissions';

export const PortalKey = z.object({
  keyId: z.string(),
  name: z.string(),
  prefix: z.string().describe('the key\'s first characters (tpk_<keyId>), never the secret'),
  permissions: z.array(permissionSchema),
  scopes: z
    .object({ studios: z.array(z.string()), artists: z.array(z.string()) })
    .describe('where the key may act: studio and artist ids (empty: no limit of that kind); a rotation keeps them'),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  replacedBy: z.string().nullable().describe('the key that replaced this one in a rotation'),
  status: z.enum(['active', 'expiring', 'expired', 'revoked']),
});
export type PortalKey = z.infer<typeof PortalKey>;

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
