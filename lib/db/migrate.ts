import path from 'node:path';
import { runner } from 'node-pg-migrate';
import { PROJECT_ROOT } from '../project-root';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'migrations');

/** Apply pending migrations (node-pg-migrate holds an advisory lock, so concurrent starts are safe). */
export async function migrateUp(databaseUrl: string, log: (msg: string) => void = () => {}): Promise<string[]> {
  const applied = await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    count: Infinity,
    log,
    verbose: false,
    checkOrder: true,
  });
  return applied.map((m) => m.name);
}
