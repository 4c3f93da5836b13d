// In production the API answers only for its own names: a request whose Host is neither
// PUBLIC_BASE_URL's host nor one of ALLOWED_HOSTS is refused with 421 (a DNS-rebinding page sends
// the attacker's name). Liveness and readiness probes are exempt: orchestrators probe a pod by its
// address. Outside production every Host is answered (a developer's loopback stack).
import type { RequestHandler } from 'express';
import type { ApiConfig } from '../../lib/config';
import { AppError } from './errors';
import { isProbe } from './request-log';

export function allowedHostsOf(cfg: Pick<ApiConfig, 'PUBLIC_BASE_URL' | 'ALLOWED_HOSTS'>): Set<string> {
  return new Set([...(cfg.PUBLIC_BASE_URL ? [new URL(cfg.PUBLIC_BASE_URL).host.toLowerCase()] : []), ...(cfg.ALLOWED_HOSTS ?? [])]);
}

/** The middleware in production; undefined elsewhere (nothing to run on every request). */
export function allowedHosts(cfg: Pick<ApiConfig, 'NODE_ENV' | 'PUBLIC_BASE_URL' | 'ALLOWED_HOSTS'>): RequestHandler | undefined {
  if (cfg.NODE_ENV !== 'production') return undefined;
  const allowed = allowedHostsOf(cfg);
  return (req, _res, next) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (allowed.has(host) || isProbe(req)) return next();
    next(new AppError('misdirected_request', 'This service does not answer for that Host.'));
  };
}
