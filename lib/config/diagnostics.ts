// What a process says when its configuration or its components fail it: the problems of an
// invalid environment, its --help, and which component it could not reach.
import type { z } from 'zod';
import { databaseUrlOf, temporalAddressOf } from './derived';

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      'Invalid configuration:\n' +
        problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}


/** `--help` of a process configured by environment only: each variable it reads, with its default. */
export function environmentHelp(about: string, command: string, schema: z.ZodObject): string {
  const lines = Object.entries(schema.shape).map(([name, field]) => {
    const def = (field as z.ZodType).def as { type: string; defaultValue?: unknown };
    const value = def.type === 'default' ? def.defaultValue : undefined;
    const shown = value === undefined ? '' : ` (default ${Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value)})`;
    return `  ${name}${name.match(/SECRET|KEY|TOKEN|PASSWORD/) ? '' : shown}`;
  });
  return [about, '', `usage: ${command}`, '', 'It takes no options. It reads these environment variables (the README and docs/deploy.md say what each does):', ...lines, '', 'options:', '  -h, --help  this text'].join('\n');
}

/**
 * A process that cannot reach PostgreSQL or Temporal at start says which, at which host:port, in
 * one line (exit 69, EX_UNAVAILABLE: the supervisor retries it); undefined for any other error.
 */
export function unreachableAt(err: unknown, cfg: { DATABASE_URL?: string | undefined; DATA_DIR?: string; POSTGRES_PORT?: number | undefined; TEMPORAL_ADDRESS?: string | undefined }): string | undefined {
  const e = err as { code?: string; message?: string; name?: string };
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ETIMEDOUT' || e?.code === 'EHOSTUNREACH' || e?.code === 'ENOTFOUND') {
    const u = new URL(databaseUrlOf(cfg));
    return `cannot reach PostgreSQL at ${u.hostname}:${u.port || '5432'}${u.pathname} (${e.code}); is the stack running (npm start), or is DATABASE_URL right?`;
  }
  if (e?.name === 'TransportError' || /tcp connect error|Connection refused/.test(e?.message ?? '')) {
    return `cannot reach Temporal at ${temporalAddressOf(cfg)} (connection refused); is the stack running (npm start), or is TEMPORAL_ADDRESS right?`;
  }
  return undefined;
}
