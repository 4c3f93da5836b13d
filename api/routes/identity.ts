import { Router } from 'express';
import { LOCAL_JWKS_PATH } from '../../lib/identity';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';

/** Local identity provider's public keys, fetched by jose's remote JWKS like any external IdP's. */
export function jwksRouter(deps: AppDeps): Router {
  const r = Router();
  r.get(LOCAL_JWKS_PATH, (_req, res) => {
    if (!deps.localSigningKey) throw new AppError('not_found', 'This deployment uses an external identity provider.');
    res.set('cache-control', 'public, max-age=300').json({ keys: [deps.localSigningKey.publicJwk] });
  });
  return r;
}

/** Local API-key management moved to the identity provider's partner portal: these answer 410. */
export const RETIRED_KEY_ROUTES = ['/api/v1/api-keys', '/api/v1/api-keys/:keyId', '/api/v1/auth/api-keys', '/api/v1/auth/api-keys/:keyId'] as const;

const retired = () => {
  throw new AppError('route_retired', 'Local API-key management is retired; keys are created, rotated and revoked in the partner portal.');
};

export function retiredRouter(): Router {
  const r = Router();
  for (const path of RETIRED_KEY_ROUTES) {
    // The methods key management once answered; any other method is 405 like everywhere else.
    r.route(path).get(retired).post(retired).put(retired).patch(retired).delete(retired);
  }
  return r;
}
