// Where the project's data lives and what the embedded stack listens on: the defaults the schemas
// and the derived addresses start from.
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root';

export const DATA_DIR_DEFAULT = path.join(PROJECT_ROOT, '.data');

/** Embedded defaults (what `npm start` launches) so a process started alone on a dev machine finds them. */
export const EMBEDDED_DEFAULTS = {
  apiPort: 3000,
  postgresPort: 54329,
  databaseUrl: 'postgres://postgres:postgres@127.0.0.1:54329/intake',
  temporalAddress: '127.0.0.1:7233',
  temporalUiPort: 8233,
} as const;
