// The agent context's preview URL: the submission's metadata-stripped review preview behind an
// HMAC over (submission, expiry), short-lived, so a classifier fetches the image without holding
// an operator's credential and the URL is worth nothing minutes later. The key is derived from
// the upload signing secret for this purpose alone.
import crypto from 'node:crypto';

export const AGENT_PREVIEW_SECONDS = 300;
/** How far a replica's clock may run ahead of the one that signed: an expiry further out than the lifetime plus this is refused. */
const CLOCK_SKEW_SECONDS = 30;

const keyOf = (secret: string) => crypto.createHmac('sha256', secret).update('agent-preview/v1').digest();
const signature = (secret: string, submissionId: string, expires: number) =>
  crypto.createHmac('sha256', keyOf(secret)).update(`${submissionId}\n${expires}`).digest('base64url');

export function signPreview(secret: string, submissionId: string, nowSeconds: number): { expires: number; sig: string } {
  const expires = nowSeconds + AGENT_PREVIEW_SECONDS;
  return { expires, sig: signature(secret, submissionId, expires) };
}

/** A grant that verifies, expires within its lifetime from now, and has not expired. */
export function checkPreview(secret: string, submissionId: string, expires: number, sig: string, nowSeconds: number): 'ok' | 'bad_signature' | 'expired' | 'too_far' {
  const expected = Buffer.from(signature(secret, submissionId, expires));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return 'bad_signature';
  if (expires > nowSeconds + AGENT_PREVIEW_SECONDS + CLOCK_SKEW_SECONDS) return 'too_far';
  return nowSeconds > expires ? 'expired' : 'ok';
}
