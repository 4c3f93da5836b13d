import type { z } from 'zod';
import { AppError } from './errors';

/** Parse request input with a zod schema; failures become one 400 naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'path'): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const errors = r.error.issues.map((i) => ({
    path: [where, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  throw new AppError('validation_failed', `Invalid ${where}: ${errors.map((e) => e.path).join(', ')}.`, { errors });
}
