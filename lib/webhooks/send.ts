// One HTTP attempt of a webhook, Standard Webhooks style: headers webhook-id, webhook-timestamp
// and webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>", one per valid secret,
// space separated). 5 s per attempt, redirects not followed (a 3xx is an answer that fails).
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { checkTarget, lookupGuard, type TargetPolicy } from './targets';

export const SECRET_PREFIX = 'whsec_';
export const ATTEMPT_TIMEOUT_MS = 5000;

/** A new signing secret: whsec_ + base64 of 32 random bytes (the Standard Webhooks format). */
export function newSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString('base64');
}

/** The signature header value for one message under each secret. */
export function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((s) => {
      const key = Buffer.from(s.startsWith(SECRET_PREFIX) ? s.slice(SECRET_PREFIX.length) : s, 'base64');
      return 'v1,' + crypto.createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
    })
    .join(' ');
}

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  ok: boolean;
  /** The target was refused by the policy: retrying will not help. */
  refused: boolean;
}

export async function sendWebhook(o: {
  url: string;
  id: string;
  body: string;
  secrets: string[];
  policy: TargetPolicy;
  userAgent: string;
  timeoutMs?: number;
  now?: () => number;
}): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    await checkTarget(o.url, o.policy);
  } catch (err) {
    return { statusCode: null, error: (err as Error).message, durationMs: took(), ok: false, refused: true };
  }
  const timestamp = Math.floor((o.now?.() ?? Date.now()) / 1000);
  const url = new URL(o.url);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup: lookupGuard(o.policy),
        timeout: o.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(o.body),
          'user-agent': o.userAgent,
          'webhook-id': o.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(o.secrets, o.id, timestamp, o.body),
        },
        signal: AbortSignal.timeout(o.timeoutMs ?? ATTEMPT_TIMEOUT_MS),
      },
      (res) => {
        // The answer's body is not kept; read it (bounded) so the socket is freed.
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > 64 * 1024) res.destroy();
        });
        res.on('close', () => {
          const code = res.statusCode ?? 0;
          const ok = code >= 200 && code < 300;
          resolve({ statusCode: code, error: ok ? null : `receiver answered ${code}`, durationMs: took(), ok, refused: false });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${o.timeoutMs ?? ATTEMPT_TIMEOUT_MS} ms`)));
    req.on('error', (err: Error) => {
      const refused = err.name === 'TargetRefused';
      const message = err.name === 'AbortError' ? `no answer within ${o.timeoutMs ?? ATTEMPT_TIMEOUT_MS} ms` : err.message;
      resolve({ statusCode: null, error: message, durationMs: took(), ok: false, refused });
    });
    req.end(o.body);
  });
}
