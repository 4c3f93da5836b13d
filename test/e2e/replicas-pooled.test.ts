// The replica e2e (test/e2e/replicas-suite.ts) with PgBouncer in transaction mode between the API
// and worker processes and PostgreSQL, as `npm start -- --replicas 2 --pooler` runs them.
import { describe, it } from 'vitest';
import { findPgbouncer, PGBOUNCER_PATH } from '../../scripts/tools/pgbouncer';
import { replicaSuite } from './replicas-suite';

if (findPgbouncer()) replicaSuite({ pooler: true });
else {
  if (process.env.CI) throw new Error(`${PGBOUNCER_PATH} is missing: \`npm run setup\` installs Debian's pgbouncer`);
  describe('replicas through PgBouncer', () => {
    it.skip(`skipped: PgBouncer is not installed (${PGBOUNCER_PATH}); \`npm run setup -- --only pgbouncer\` installs Debian's pgbouncer as root`, () => {});
  });
}
