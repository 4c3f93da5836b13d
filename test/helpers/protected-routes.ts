// Every protected route registers here with one line; test/integration/auth-cases.test.ts runs
// the shared auth cases (no credential, bad credential, unmapped, wrong permission, right) on each.
import type { Permission } from '../../lib/identity/permissions';
import type { CredentialKind } from '../../lib/identity/types';

export interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Permission the mapping must hold; omitted: any mapped actor. */
  permission?: Permission;
  /** Credential kinds accepted (default both). */
  credentials?: CredentialKind[];
  /** Only a mapped human operator (bearer). */
  operator?: boolean;
  body?: unknown;
}

const INTAKE = '/api/private/portfolio-intake/v1';

export const PROTECTED_ROUTES: ProtectedRoute[] = [
  { method: 'POST', path: `${INTAKE}/submissions`, permission: 'portfolio_intake:stage', body: {} },
  { method: 'GET', path: `${INTAKE}/submissions/sub_unknown`, permission: 'portfolio_intake:stage' },
  { method: 'POST', path: `${INTAKE}/submissions/sub_unknown/upload-complete`, permission: 'portfolio_intake:stage', credentials: ['api_key'] },
  { method: 'POST', path: `${INTAKE}/submissions/sub_unknown/approve`, permission: 'portfolio_intake:review', operator: true, body: { reviewNotes: 'fine' } },
  { method: 'POST', path: `${INTAKE}/submissions/sub_unknown/reject`, permission: 'portfolio_intake:review', operator: true, body: { reasonCode: 'other', reviewNotes: 'fine' } },
  { method: 'GET', path: `${INTAKE}/review-queue`, permission: 'portfolio_intake:review', operator: true },
];
PROTECTED_ROUTES.push({ method: 'POST', path: `${INTAKE}/artist-resolution-requests`, body: {} });

// Directory reads (public/beta API): studios is public; these need a mapped actor's read permission.
const V1 = '/api/v1';
PROTECTED_ROUTES.push(
  { method: 'GET', path: `${V1}/search?q=koi`, permission: 'search:read' },
  { method: 'GET', path: `${V1}/artists`, permission: 'artists:read' },
  { method: 'GET', path: `${V1}/artists/art_unknown`, permission: 'artists:read' },
  { method: 'GET', path: `${V1}/portfolios`, permission: 'portfolios:read' },
  { method: 'GET', path: `${V1}/designs`, permission: 'designs:read' },
  { method: 'GET', path: `${V1}/me/portfolio-assets`, permission: 'owner_portfolio_assets:read' },
  { method: 'GET', path: `${V1}/me/portfolio-assets/pa_unknown`, permission: 'owner_portfolio_assets:read' },
  { method: 'GET', path: `${V1}/me/designs`, permission: 'owner_portfolio_assets:read' },
  { method: 'GET', path: `${V1}/me/designs/dsn_unknown`, permission: 'owner_portfolio_assets:read' },
);
