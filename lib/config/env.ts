// The only module that reads process.env (the lint fence allows it here alone): each process
// parses its own schema once at start; launchers hand their children an environment.
import type { z } from 'zod';
import { ConfigError } from './diagnostics';

export type Env = Record<string, string | undefined>;

/** Parse an env map (process.env by default). Empty strings count as unset. */
export function parseConfig<S extends z.ZodType>(schema: S, env: Env = process.env): z.infer<S> {
  const cleaned: Env = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') cleaned[k] = v;
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((i) => ({
      variable: String(i.path[0] ?? '(env)'),
      // never echo the received value: it may be a secret
      message: i.message,
    })),
  );
}

/** For process entry points: parse or print the problems and exit non-zero. */
export function loadConfigOrExit<S extends z.ZodType>(schema: S, env: Env = process.env): z.infer<S> {
  try {
    return parseConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.message + '\n');
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}

/**
 * The ports of a stack's pieces. Whoever launches a stack (npm start, a test, a bench) picks them
 * and hands them down; no child inherits the caller's (set for a stack of their own).
 */
export const STACK_PORT_VARIABLES = ['PORT', 'POSTGRES_PORT', 'TEMPORAL_PORT', 'TEMPORAL_UI_PORT', 'WORKER_METRICS_PORT'] as const;

/**
 * A copy of the current environment for child processes, without the caller's
 * STACK_PORT_VARIABLES, with overrides (where a launcher names the ports it picked).
 */
export function childEnv(overrides: Env): Env {
  const env: Env = { ...process.env };
  for (const name of STACK_PORT_VARIABLES) delete env[name];
  return { ...env, ...overrides };
}

/** PATH, for locating tools. */
export function pathVariable(): string | undefined {
  return process.env.PATH;
}

/** JAVA_HOME, where the OpenSearch launcher looks for Java first (scripts/tools/opensearch.ts). */
export function javaHomeVariable(): string | undefined {
  return process.env.JAVA_HOME || undefined;
}
