import { z } from 'zod';
import { LOCAL_JWKS_PATH } from '../../lib/identity';
import { defineRoute, type Method, type Route } from '../routing/route';
import { AppError } from '../http/errors';
import * as C from '../openapi/components';
import { portalUrlOf, PUBLIC_BASE } from '../routing/bases';
import { RETIRED_TAG } from '../openapi/documents';

/** Local API-key management moved to the identity provider's partner portal: these answer 410. */
export const RETIRED_KEY_ROUTES = [`${PUBLIC_BASE}/api-keys`, `${PUBLIC_BASE}/api-keys/{keyId}`, `${PUBLIC_BASE}/auth/api-keys`, `${PUBLIC_BASE}/auth/api-keys/{keyId}`] as const;
/** The methods key management once answered; any other method is 405 like everywhere else. */
const RETIRED_METHODS: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];
const keyIdParams = z.object({ keyId: z.string() });

export function identityRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'public', method: 'get', path: LOCAL_JWKS_PATH, operationId: 'jwks', tag: 'meta', auth: 'public',
      summary: "The local identity provider's public keys", ok: { 200: ['JWKS', C.Jwks] }, problems: [404],
      // Fetched by jose's remote JWKS like any external IdP's.
      handler({ deps, res }) {
        if (!deps.localSigningKey) throw new AppError('not_found', 'This deployment uses an external identity provider.');
        res.set('cache-control', 'public, max-age=300');
        return { keys: [deps.localSigningKey.publicJwk] };
      },
    }),
    ...RETIRED_KEY_ROUTES.flatMap((path) =>
      RETIRED_METHODS.map((method) =>
        defineRoute({
          doc: 'public', method, path, operationId: `retired_${method}_${path.replace(/[^a-z]+/gi, '_')}`, tag: RETIRED_TAG, auth: 'public', deprecated: true,
          summary: 'Retired: keys are managed in the partner portal (/portal, or PARTNER_PORTAL_URL with an external identity provider)',
          ...(path.includes('{keyId}') ? { params: keyIdParams } : {}),
          ok: {}, problems: [410],
          handler({ deps }) {
            const portal = portalUrlOf(deps);
            throw new AppError(
              'route_retired',
              `Local API-key management is retired; keys are created, rotated and revoked in the partner portal${portal ? ` at ${portal}` : ''}.`,
              portal ? { headers: { Link: `<${portal}>; rel="help"` } } : {},
            );
          },
        }),
      ),
    ),
  ];
}
