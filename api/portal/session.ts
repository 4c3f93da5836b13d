// The partner portal's cookie surface: people of a partner organization holding
// partner_api_keys:manage, with X-Portal-CSRF on writes. Served with the local identity provider only.
import { findActiveActor } from '../../lib/identity/actors';
import type { Permission } from '../../lib/identity/permissions';
import type { ProvenIdentity } from '../../lib/identity/types';
import type { Actor } from '../auth/middleware';
import { sessionSurface } from '../auth/session-surface';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';

export const PORTAL_PERMISSION: Permission = 'partner_api_keys:manage';

/** The portal is the local identity provider's: with IDP_DRIVER=external it is not served. */
export function requireLocalPortal(deps: AppDeps): void {
  if (deps.cfg.IDP_DRIVER !== 'local')
    throw new AppError('not_found', `The partner portal is your identity provider's${deps.cfg.PARTNER_PORTAL_URL ? `: ${deps.cfg.PARTNER_PORTAL_URL}` : ''}.`);
}

/** The person behind a proven bearer identity, if they may use the portal. */
async function personOf(deps: AppDeps, identity: ProvenIdentity): Promise<Actor> {
  const actor = await findActiveActor(deps.sql, identity);
  if (!actor) throw new AppError('actor_not_mapped', 'Your credential has no active actor mapping: ask us to map you with partner_api_keys:manage.');
  if (!actor.permissions.includes(PORTAL_PERMISSION)) throw new AppError('permission_denied', `The partner portal needs ${PORTAL_PERMISSION}.`);
  return actor;
}

export const portalSurface = sessionSurface({
  id: 'portal',
  title: 'partner portal',
  home: '/portal',
  cookiePath: '/portal',
  cookie: 'portal_session',
  csrfHeader: 'X-Portal-CSRF',
  admit: personOf,
  // Each request: still mapped (the route's rule then asks for partner_api_keys:manage).
  async current(deps, identity) {
    const actor = await findActiveActor(deps.sql, identity);
    if (!actor) throw new AppError('actor_not_mapped', 'Your sign-in has no active actor mapping any more.');
    return actor;
  },
  served: requireLocalPortal,
});
