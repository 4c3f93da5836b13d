// `npm run migrate`: apply pending migrations to DATABASE_URL (or the embedded default) and say
// which. The API and `npm start` apply them at start too; this is for a deploy step of its own.
import { databaseOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { whereOf } from '../lib/stack-run';
import { parseCli } from '../lib/cli';
import { migrateUp } from '../lib/db/migrate';

parseCli('Apply pending migrations to DATABASE_URL (or the embedded stack\'s database) and say which.', 'npm run migrate --', { options: {} });
const cfg = loadConfigOrExit(toolConfigSchema);
const db = databaseOf(cfg);
console.log(`[migrate] PostgreSQL ${whereOf(db.url)} (from ${db.source})`);
try {
  const applied = await migrateUp(db.url);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'migrations: up to date');
} catch (err) {
  // The reason only (e.g. ECONNREFUSED), never the URL: it may carry a password.
  console.error(`migrations not applied at ${whereOf(db.url)}: ${(err as Error).message}`);
  process.exitCode = 1;
}
