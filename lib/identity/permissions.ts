import { z } from 'zod';

export const PERMISSIONS = [
  'studios:read',
  'artists:read',
  'search:read',
  'portfolios:read',
  'designs:read',
  'owner_portfolio_assets:read',
  'agent_context:read',
  'portfolio_intake:review',
  'portfolio_intake:classify',
  'portfolio_intake:stage',
  // never grantable to a v1 partner key (the mapping is refused); portfolios:publish (publish,
  // unpublish, settle a posture: api/routes/intake/publishing.ts) also needs a human operator mapping:
  'artists:write',
  'bookings:manage',
  'portfolios:publish',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const permissionSchema = z.enum(PERMISSIONS);

export const NOT_FOR_PARTNER_KEYS: readonly Permission[] = ['artists:write', 'bookings:manage', 'portfolios:publish'];

/** Internal capability: approved service actors only; never a self-service partner key. */
export const CAPABILITIES = ['portfolio_intake:stage_cross_tenant'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export const capabilitySchema = z.enum(CAPABILITIES);
