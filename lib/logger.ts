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

export interface LoggerOptions {
  name: string;
  level: string;
  destination?: pino.DestinationStream;
  /** LOG_FORMAT; `auto` is pretty only on a terminal and never in production. */
  format?: 'auto' | 'json' | 'pretty';
  production?: boolean;
}

/** Human-readable lines (pino-pretty) for a developer's terminal; JSON lines for everything else. */
function prettyWanted(o: LoggerOptions): boolean {
  if (o.destination) return false;
  if (o.format === 'pretty') return true;
  return o.format === 'auto' && !o.production && process.stdout.isTTY === true;
}

export function createLogger(opts: LoggerOptions): Logger {
  const destination = prettyWanted(opts)
    ? pino.transport({ target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' } })
    : opts.destination;
  return pino(
    {
      name: opts.name,
      level: opts.level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: opts.name, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
