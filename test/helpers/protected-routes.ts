// The shared auth cases (no credential, bad credential, unmapped, wrong permission, right) run on
// every route whose definition asks for a credential: the list is derived from the definitions.
import { allRoutes } from '../../api/route-list';
import { authRuleOf, isOperation } from '../../api/routing/route';
import type { Permission } from '../../lib/identity/permissions';
import type { CredentialKind } from '../../lib/identity/types';

export interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Permission the mapping must hold; omitted: any mapped actor. */
  permission?: Permission;
  /** Credential kinds accepted (default both). */
  credentials?: readonly CredentialKind[];
  /** Only a mapped human operator (bearer). */
  operator?: boolean;
  /** A session cookie, not a header credential: the partner portal's or the review console's (a person's bearer identity). */
  session?: 'portal' | 'console';
  body?: unknown;
}

/** A concrete URL for a definition's path: unknown but well-formed ids. */
export const exampleUrl = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => `x_unknown_${name}`);

export const PROTECTED_ROUTES: ProtectedRoute[] = allRoutes({ maxMediaBytes: 50 * 1024 * 1024 })
  .filter(isOperation)
  .filter((op) => op.auth !== 'public')
  .map((op) => {
    const rule = authRuleOf(op);
    return {
      method: op.method.toUpperCase() as ProtectedRoute['method'],
      path: exampleUrl(op.path),
      ...(rule.permission ? { permission: rule.permission } : {}),
      ...(rule.credentials ? { credentials: rule.credentials } : {}),
      ...(rule.operator ? { operator: true } : {}),
      ...(op.auth === 'portal' || op.auth === 'console' ? { session: op.auth } : {}),
      ...(op.body ? { body: {} } : {}),
    };
  });
