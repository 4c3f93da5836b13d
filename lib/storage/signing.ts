// HMAC-signed upload URLs for the local driver: the signature binds method, key, Content-Type,
// length and expiry, so none of them can be changed by the holder of the URL.
import crypto from 'node:crypto';

export interface UploadGrant {
  key: string;
  contentType: string;
  sizeBytes: number;
  expires: number; // unix seconds
}

function payload(g: UploadGrant): string {
  return ['PUT', g.key, g.contentType, String(g.sizeBytes), String(g.expires)].join('\n');
}

export function signGrant(secret: string, g: UploadGrant): string {
  return crypto.createHmac('sha256', secret).update(payload(g)).digest('base64url');
}

export type GrantCheck = { ok: true } | { ok: false; reason: 'bad_signature' | 'expired' };

export function checkGrant(secret: string, g: UploadGrant, signature: string, nowSeconds: number): GrantCheck {
  const expected = Buffer.from(signGrant(secret, g));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return { ok: false, reason: 'bad_signature' };
  if (nowSeconds > g.expires) return { ok: false, reason: 'expired' };
  return { ok: true };
}

export const UPLOAD_PATH = '/api/private/portfolio-intake/v1/uploads';

export function uploadUrl(baseUrl: string, secret: string, g: UploadGrant): string {
  const u = new URL(`${UPLOAD_PATH}/${encodeURIComponent(g.key)}`, baseUrl);
  u.searchParams.set('ct', g.contentType);
  u.searchParams.set('len', String(g.sizeBytes));
  u.searchParams.set('exp', String(g.expires));
  u.searchParams.set('sig', signGrant(secret, g));
  return u.toString();
}
