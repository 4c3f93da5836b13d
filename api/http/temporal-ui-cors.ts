// CORS for the Temporal codec endpoint only: the Temporal Web UI (TEMPORAL_UI_URL) decodes payloads
// from the browser, with the operator's credentials (the console cookie, or its access token). Its
// origin, and no other, is allowed, with credentials; everything else the API serves stays same-origin.
import type { RequestHandler } from 'express';
import type { ApiConfig } from '../../lib/config';
import { TEMPORAL_CODEC_BASE } from '../routing/bases';

const ALLOWED_HEADERS = 'authorization, content-type, x-namespace';

/** Is `origin` the Temporal Web UI's (TEMPORAL_UI_URL)? Never when it is not configured. */
export function isTemporalUiOrigin(cfg: Pick<ApiConfig, 'TEMPORAL_UI_URL'>, origin: string | undefined): boolean {
  return origin !== undefined && cfg.TEMPORAL_UI_URL !== undefined && new URL(cfg.TEMPORAL_UI_URL).origin === origin;
}

/** Before the routes: the CORS headers of the codec endpoint for the Web UI's origin, and its preflight. */
export function temporalCodecCors(cfg: Pick<ApiConfig, 'TEMPORAL_UI_URL'>): RequestHandler {
  return (req, res, next) => {
    if (!req.path.startsWith(`${TEMPORAL_CODEC_BASE}/`)) return next();
    res.vary('Origin');
    const origin = req.headers.origin;
    if (!isTemporalUiOrigin(cfg, origin)) return next();
    res.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true' });
    if (req.method !== 'OPTIONS') return next();
    res.set({ 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': ALLOWED_HEADERS, 'Access-Control-Max-Age': '600' });
    res.status(204).end();
  };
}
