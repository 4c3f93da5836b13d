import type { AppDeps } from '../deps';
/** Where each API lives: the private intake API and the public and beta directory API. */
export const INTAKE_BASE = '/api/private/portfolio-intake/v1';
export const PUBLIC_BASE = '/api/v1';
/** The Temporal remote codec endpoint (the Web UI and `temporal --codec-endpoint` add /decode, /encode). */
export const TEMPORAL_CODEC_BASE = `${INTAKE_BASE}/temporal-codec`;

/** Where partners manage keys: this API's /portal with the local identity provider, else PARTNER_PORTAL_URL. */
export function portalUrlOf(deps: Pick<AppDeps, 'cfg' | 'publicBaseUrl'>): string | undefined {
  return deps.cfg.IDP_DRIVER === 'local' ? `${deps.publicBaseUrl}/portal` : deps.cfg.PARTNER_PORTAL_URL;
}
