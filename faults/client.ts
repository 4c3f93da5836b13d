// The intake calls the fault scenarios make, over HTTP like a partner and an operator would.
import { realJpeg } from '../bench/lib/images';
import { intakeBody } from '../bench/lib/intake';
import type { BenchStack } from '../bench/lib/stack';

export const INTAKE = '/api/private/portfolio-intake/v1';

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
  ms: number;
}

export async function send(s: BenchStack, method: string, url: string, o: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {}): Promise<Reply> {
  const t = performance.now();
  const res = await fetch(url.startsWith('http') ? url : `${s.apiUrl}${url}`, {
    method,
    headers: { ...(o.headers ?? {}), ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers, ms: performance.now() - t };
}

export const jpeg = realJpeg;
export const createBody = intakeBody;

export async function create(s: BenchStack, body: ReturnType<typeof createBody>): Promise<{ id: string; upload: { url: string; headers: Record<string, string> } }> {
  const r = await send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return { id: r.body.data.submission.submissionId, upload: r.body.data.upload };
}

export async function put(url: string, headers: Record<string, string>, bytes: Buffer): Promise<number> {
  const res = await fetch(url, { method: 'PUT', headers, body: bytes, signal: AbortSignal.timeout(30_000) });
  await res.arrayBuffer();
  return res.status;
}

/** create + PUT; returns the submission id. */
export async function staged(s: BenchStack, bytes: Buffer): Promise<string> {
  const c = await create(s, createBody(s, { sizeBytes: bytes.length }));
  const status = await put(c.upload.url, c.upload.headers, bytes);
  if (status !== 200) throw new Error(`PUT: ${status}`);
  return c.id;
}

export const complete = (s: BenchStack, id: string) => send(s, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: s.partner.headers });
export const approve = (s: BenchStack, id: string) =>
  send(s, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: s.operator.headers, body: { reviewNotes: 'Approved by the fault suite.' } });

/**
 * Retry a call while it answers 503 (dependency away) or 502 (a load balancer's replica died with
 * the request), bounded in time.
 */
export async function retrying(fn: () => Promise<Reply>, timeoutMs = 120_000): Promise<Reply> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let r: Reply | undefined;
    try {
      r = await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    if (r && r.status !== 503 && r.status !== 502) return r;
    if (Date.now() > deadline) return r!;
    await new Promise((res) => setTimeout(res, 500));
  }
}
