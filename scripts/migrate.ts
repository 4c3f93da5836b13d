// `npm run migrate`: apply pending migrations to DATABASE_URL (or the embedded default) and say
// which. The API and `npm start` apply them at start too; this is for a deploy step of its own.
// With --app-role it then creates or updates the least-privilege role `intake_app` the API and the
// worker connect as (password from INTAKE_APP_PASSWORD) and grants it the tables as they now are.
import { z } from 'zod';
import { databaseOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { whereOf } from '../lib/stack-run';
import { parseCli } from '../lib/cli';
import { APP_ROLE, ensureAppRole } from '../lib/db/app-role';
import { migrateUp } from '../lib/db/migrate';

const { values } = parseCli("Apply pending migrations to DATABASE_URL (or the embedded stack's database; with NODE_ENV=production DATABASE_URL is required) and say which.", 'npm run migrate --', {
  options: {
    'app-role': { type: 'boolean', default: false, description: `then create or update the role ${APP_ROLE} (password: INTAKE_APP_PASSWORD) and grant it the tables; run as the owner` },
  },
});
const cfg = loadConfigOrExit(toolConfigSchema);
const env = loadConfigOrExit(z.object({ INTAKE_APP_PASSWORD: z.string().min(16, 'must be at least 16 characters').optional() }));
if (values['app-role'] && !env.INTAKE_APP_PASSWORD) {
  console.error(`--app-role needs INTAKE_APP_PASSWORD (16+ characters; e.g. openssl rand -base64 24): the password of the role ${APP_ROLE}`);
  process.exit(64);
}
const db = databaseOf(cfg);
console.log(`[migrate] PostgreSQL ${whereOf(db.url)} (from ${db.source})`);
try {
  const applied = await migrateUp(db.url);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'migrations: up to date');
  if (values['app-role']) {
    await ensureAppRole(db.url, env.INTAKE_APP_PASSWORD!);
    console.log(`role ${APP_ROLE}: granted the tables as they are now (connect the API and the worker as ${APP_ROLE})`);
  }
} catch (err) {
  // The reason only (e.g. ECONNREFUSED), never the URL: it may carry a password.
  console.error(`migrations not applied at ${whereOf(db.url)}: ${(err as Error).message}`);
  process.exitCode = 1;
}
