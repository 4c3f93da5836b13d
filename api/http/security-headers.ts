// Security headers on every answer (JSON, problem+json, images, the docs assets), set before
// anything else runs so an early failure carries them too. The API serves no HTML of its own but
// the docs page, which replaces the Content-Security-Policy with its own (api/openapi/router.ts);
// the public renditions relax Cross-Origin-Resource-Policy for themselves (media-files.ts).
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { ApiConfig } from '../../lib/config';

/** HSTS: one year, only in production (a dev stack on http://127.0.0.1 must not pin the host to HTTPS). */
export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

export function securityHeaders(cfg: Pick<ApiConfig, 'NODE_ENV'>): RequestHandler {
  return helmet({
    // A JSON API loads nothing, frames nothing and is framed by nothing.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: cfg.NODE_ENV === 'production' ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
    // same-origin by default; the public renditions answer cross-origin themselves.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    xPoweredBy: true,
    // Headers that only matter to HTML documents or legacy browsers are left out: every header is
    // written on every answer (R1 counts them), and the docs page is the only HTML served.
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }) as RequestHandler;
}
