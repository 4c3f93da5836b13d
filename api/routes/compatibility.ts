// Routes the contract keeps for compatibility (section 4): public webhook ingress and the legacy
// sign-up / sign-in. They are not part of the promoted surface: each answers a documented 410
// naming where to go, touches no data, reads no body and is rate limited like any public route.
import { z } from 'zod';
import { defineRoute, type Route } from '../routing/route';
import { AppError } from '../http/errors';
import { INTAKE_BASE, portalUrlOf, PUBLIC_BASE } from '../routing/bases';
import { COMPATIBILITY_TAG } from '../openapi/documents';

/** The legacy account routes: people sign up and sign in through the partner portal now. */
export const LEGACY_ACCOUNT_PATHS = [`${PUBLIC_BASE}/auth/signup`, `${PUBLIC_BASE}/auth/signin`, `${PUBLIC_BASE}/auth/login`, `${PUBLIC_BASE}/auth/register`] as const;
/** Public webhook ingress: this service sends partner notifications; it takes none in. */
export const WEBHOOK_INGRESS_PATHS = [`${PUBLIC_BASE}/webhooks`, `${PUBLIC_BASE}/webhooks/{source}`] as const;

const sourceParams = z.object({ source: z.string().max(100) });
const operationIdOf = (path: string) => `compat_${path.replace(/[^a-z]+/gi, '_')}`;

export function compatibilityRoutes(): Route[] {
  return [
    ...LEGACY_ACCOUNT_PATHS.map((path) =>
      defineRoute({
        doc: 'public', method: 'post', path, operationId: operationIdOf(path), tag: COMPATIBILITY_TAG, auth: 'public', deprecated: true,
        summary: 'Legacy sign-up / sign-in: accounts and keys live in the partner portal (/portal, or PARTNER_PORTAL_URL with an external identity provider)',
        ok: {}, problems: [410],
        handler({ deps }) {
          const portal = portalUrlOf(deps);
          throw new AppError(
            'moved_to_portal',
            `Sign-up and sign-in moved to the partner portal${portal ? ` at ${portal}` : ''}; API keys are created there, bearer tokens come from your identity provider.`,
            portal ? { headers: { Link: `<${portal}>; rel="help"` } } : {},
          );
        },
      }),
    ),
    ...WEBHOOK_INGRESS_PATHS.map((path) =>
      defineRoute({
        doc: 'public', method: 'post', path, operationId: operationIdOf(path), tag: COMPATIBILITY_TAG, auth: 'public', deprecated: true,
        summary: 'Public webhook ingress: closed. This service sends partner notifications (Standard Webhooks) and takes none in',
        ...(path.includes('{source}') ? { params: sourceParams } : {}),
        ok: {}, problems: [410],
        handler() {
          throw new AppError(
            'webhook_ingress_closed',
            `This service takes no inbound webhooks. To be notified of your submissions, register an endpoint at ${INTAKE_BASE}/webhook-endpoints or in the partner portal (docs/partners.md).`,
          );
        },
      }),
    ),
  ];
}
