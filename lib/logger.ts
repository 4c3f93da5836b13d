import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths whose values are credentials; pino replaces them before anything is written. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.password',
  '*.secret',
  '*.apiKey',
  '*.token',
  '*.privateKey',
  'req.query.sig',
  'req.query.signature',
];

export function createLogger(opts: { name: string; level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      name: opts.name,
      level: opts.level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: opts.name, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    opts.destination,
  );
}
