// The partner portal's cookie surface: people of a partner organization holding
// partner_api_keys:manage, with X-Portal-CSRF on writes. Served with the local identity provider only.
import type { Permission } from '../../lib/identity/permissions';
import { sessionSurface } from '../auth/session-surface';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';

export const PORTAL_PERMISSION: Permission = 'partner_api_keys:manage';

/** The portal is the local identity provider's: with IDP_DRIVER=external it is not served. */
export function requireLocalPortal(deps: AppDeps): void {
  if (deps.cfg.IDP_DRIVER !== 'local')
    throw new AppError('not_found', `The partner portal is your identity provider's${deps.cfg.PARTNER_PORTAL_URL ? `: ${deps.cfg.PARTNER_PORTAL_URL}` : ''}.`);
}

export const portalSurface = sessionSurface({
  id: 'portal',
  title: 'partner portal',
  home: '/portal',
  cookiePath: '/portal',
  cookie: 'portal_session',
  csrfHeader: 'X-Portal-CSRF',
  unmapped: 'Your credential has no active actor mapping: ask us to map you with partner_api_keys:manage.',
  allow(actor) {
    if (!actor.permissions.includes(PORTAL_PERMISSION)) throw new AppError('permission_denied', `The partner portal needs ${PORTAL_PERMISSION}.`);
  },
  // Each request: still mapped (the route's rule then asks for partner_api_keys:manage).
  eachRequest: { unmapped: 'Your sign-in has no active actor mapping any more.' },
  served: requireLocalPortal,
});
