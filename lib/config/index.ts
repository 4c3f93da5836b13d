// The configuration, one import: `lib/config` resolves here. The schemas (schema.ts, from the
// field groups of fields.ts), what is derived from a parsed configuration (derived.ts), reading
// the environment (env.ts, the one file that may) and the diagnostics (diagnostics.ts).
export { PROJECT_ROOT } from '../project-root';
export { DATA_DIR_DEFAULT, EMBEDDED_DEFAULTS } from './root';
export { trustProxySchema } from './fields';
export { apiConfigSchema, stackConfigSchema, toolConfigSchema, workerConfigSchema, type ApiConfig, type StackConfig, type WorkerConfig } from './schema';
export { databaseOf, databaseUrlOf, databaseWhereOf, directDatabaseUrlOf, POSTGRES_APP_PASSWORD_SECRET, POSTGRES_PASSWORD_SECRET, temporalAddressOf, webhookPolicyOf } from './derived';
export { childEnv, javaHomeVariable, loadConfigOrExit, parseConfig, pathVariable, STACK_PORT_VARIABLES } from './env';
export { ConfigError, environmentHelp, unreachableAt } from './diagnostics';
