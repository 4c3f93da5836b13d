// One log line per request, written when the answer is finished, from the process logger itself:
// no per-request child logger (what pino-http costs on every request, R1). The request id (the
// caller's x-request-id when well-formed, else a new UUID) is echoed as a header and is on the
// line. Signed upload URLs carry their signature in the query: only the path is logged.
import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../lib/logger';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id (x-request-id), set by requestLog. */
      id?: string;
    }
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const PROBES = new Set(['/api/v1/health/live', '/api/v1/health/ready']);

/** The full path: inside a mounted router Express shortens req.url, originalUrl keeps it. */
export const pathOf = (req: Request) => (req.originalUrl ?? req.url ?? '').split('?')[0]!;

/** A liveness or readiness probe (orchestrators send one every few seconds per instance). */
export const isProbe = (req: Request) => PROBES.has(pathOf(req));

type Level = 'silent' | 'info' | 'warn' | 'error';

/**
 * 500s are errors (the error handler logs the cause beside); other 5xx we chose (503 while a
 * dependency is away) and 4xx are warnings. Probes (every few seconds from every orchestrator, and
 * from the launcher while the stack starts) are logged only when their answer changes: the first
 * failure after this process was ready, and the recovery after it; a process that was never ready
 * yet (starting up, answering 503 for a while) logs none.
 */
function levelOf(status: number): Level {
  if (status >= 500) return status === 500 ? 'error' : 'warn';
  return status >= 400 ? 'warn' : 'info';
}

/** Per process: has it answered ready yet, and what did each probe answer last. */
export function probeLogState() {
  let everReady = false;
  const last = new Map<string, number>();
  return (path: string, status: number): Level => {
    const before = last.get(path);
    last.set(path, status);
    if (status < 400) {
      const recovered = everReady && before !== undefined && before >= 400;
      everReady = true;
      return recovered ? 'info' : 'silent';
    }
    return everReady && before !== status ? 'info' : 'silent';
  };
}

export function requestLog(log: Logger, onFinish?: (req: Request, res: Response, seconds: number) => void): RequestHandler {
  const probeLevel = probeLogState();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    req.id = id;
    res.setHeader('x-request-id', id);
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const probe = req.method === 'GET' && isProbe(req);
      // Probes arrive every few seconds from every orchestrator: neither logged when fine nor timed.
      if (!probe) onFinish?.(req, res, seconds);
      const level = probe ? probeLevel(pathOf(req), res.statusCode) : levelOf(res.statusCode);
      if (level === 'silent' || !log.isLevelEnabled(level)) return;
      log[level](
        { requestId: id, req: { method: req.method, path: pathOf(req), ip: req.ip }, res: { statusCode: res.statusCode }, responseTime: Math.round(seconds * 1e5) / 100 },
        'request completed',
      );
    });
    next();
  };
}
