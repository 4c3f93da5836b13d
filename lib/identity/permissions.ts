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
  // people of a partner organization who manage its API keys in the partner portal (/portal);
  // granted only by an operator's `npm run iam -- map` to a bearer identity, never on a key
  'partner_api_keys:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const permissionSchema = z.enum(PERMISSIONS);

/** The agent lane (docs/agents.md): approved service actors only, never a self-service mapping. */
export const AGENT_PERMISSIONS: readonly Permission[] = ['agent_context:read', 'portfolio_intake:classify'];

export const NOT_FOR_PARTNER_KEYS: readonly Permission[] = ['artists:write', 'bookings:manage', 'portfolios:publish', 'partner_api_keys:manage'];

/**
 * What a partner may give a key it creates in the portal: the beta reads and, as an advanced
 * choice, staging. The database enforces the same set (portal_self_service_permissions()).
 */
export const SELF_SERVICE_PERMISSIONS = ['studios:read', 'artists:read', 'search:read', 'portfolios:read', 'designs:read', 'portfolio_intake:stage'] as const satisfies readonly Permission[];

/** Internal capability: approved service actors only; never a self-service partner key. */
export const CAPABILITIES = ['portfolio_intake:stage_cross_tenant'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export const capabilitySchema = z.enum(CAPABILITIES);
