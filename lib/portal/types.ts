// What the partner portal's API answers about a key, declared once: the zod schema (the server's
// answer schema) and its TypeScript type, inferred. The page's types are generated from the route list.
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
  rotatable: z
    .boolean()
    .describe('the portal may rotate it: every permission is one a partner could choose here (a service key an operator made is rotated by an operator)'),
});
export type PortalKey = z.infer<typeof PortalKey>;
