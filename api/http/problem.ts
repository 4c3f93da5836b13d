import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { isDatabaseUnavailable } from '../../lib/db/unavailable';
import type { Logger } from '../../lib/logger';
import { AppError, TITLES, type ErrorCode, type FieldError } from './errors';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function requestIdOf(res: Response): string {
  return String(res.getHeader('x-request-id') ?? '');
}

/** RFC 9457 body with the house extensions: success, code, requestId, errors[]. */
export function sendProblem(res: Response, status: number, code: ErrorCode, detail: string, errors?: FieldError[]) {
  res
    .status(status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(
      JSON.stringify({
        type: `https://docs.tattoo-intake.invalid/problems/${code}`,
        title: TITLES[status] ?? 'Error',
        status,
        detail,
        instance: res.req.originalUrl.split('?')[0],
        success: false,
        code,
        requestId: requestIdOf(res),
        ...(errors ? { errors } : {}),
      }),
    );
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new AppError('not_found', 'No such route.'));
};

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

/** Express 5's router throws a URIError (status 400, not exposed) when a path parameter does not decode. */
function isUndecodablePath(err: unknown): boolean {
  if (err instanceof URIError) return true;
  const e = err as HttpishError & { message?: unknown };
  return (e?.status ?? e?.statusCode) === 400 && typeof e.message === 'string' && e.message.startsWith('Failed to decode param');
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.extra.headers ?? {})) res.setHeader(k, v);
      sendProblem(res, err.status, err.code, err.message, err.extra.errors);
      return;
    }
    const e = (err ?? {}) as HttpishError;
    // Errors raised by body parsing are the client's: say so, never 500.
    if (e.type === 'entity.parse.failed') return sendProblem(res, 400, 'invalid_json', 'The request body is not valid JSON.');
    if (e.type === 'entity.too.large') return sendProblem(res, 413, 'payload_too_large', 'The request body is too large.');
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
      return sendProblem(res, 415, 'unsupported_media_type', 'Unsupported body encoding.');
    if (isDatabaseUnavailable(err)) {
      ((req as { log?: Logger }).log ?? log).warn({ err }, 'database unavailable');
      res.setHeader('Retry-After', '5');
      return sendProblem(res, 503, 'dependency_unavailable', 'The database is unavailable; retry shortly.');
    }
    // A malformed percent-escape in the path (`/artists/%`): the router fails to decode a path
    // parameter while matching, before any route or credential check. The client's error: 400,
    // and no stack trace in the log (the request line is logged as a warning like every 4xx).
    if (isUndecodablePath(err)) return sendProblem(res, 400, 'validation_failed', 'The request path is not validly percent-encoded.');
    const status = e.status ?? e.statusCode;
    if (status && status >= 400 && status < 500 && e.expose) return sendProblem(res, status, 'validation_failed', 'The request could not be read.');
    ((req as { log?: Logger }).log ?? log).error({ err }, 'unhandled error');
    sendProblem(res, 500, 'internal_error', 'An unexpected error occurred; it has been logged.');
  };
}
