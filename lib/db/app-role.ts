// The least-privilege role the API and the worker of the embedded stack connect as: rows in, rows
// out, nothing else. No DDL (migrations run as the owner, by the launcher), no superuser, only
// SELECT on the credential tables, so a compromised API or worker cannot mint keys or rewrite actor
// mappings (the `npm run iam` tool, as the owner, does that; the partner portal goes through the
// owner's functions, which only make self-service partner keys), and only INSERT and SELECT on the
// audit tables.
import postgres from 'postgres';

export const APP_ROLE = 'intake_app';
// The cutover's tables are written by the owner's `npm run cutover`; the API only reads the stage and the ledger.
const READ_ONLY_TABLES = ['actor_mappings', 'api_keys', 'pgmigrations', 'cutover_stage', 'cutover_runs', 'cutover_checkpoints', 'cutover_ledger'];
/**
 * Audit trails: the app role appends and reads, never rewrites or erases, so a compromised API or
 * worker cannot cover its tracks. Nothing in the code updates or deletes these rows (inserts use
 * `on conflict do nothing`, which needs INSERT only); a cascade from a parent row runs as the owner.
 */
export const APPEND_ONLY_TABLES = ['intake_events', 'access_audit', 'decision_refusals', 'decision_matches', 'posture_settlements', 'webhook_attempts'];

const grantsOf = (table: string) =>
  READ_ONLY_TABLES.includes(table) ? 'select' : APPEND_ONLY_TABLES.includes(table) ? 'select, insert' : 'select, insert, update, delete';

/** Create or update the role with this password and grant it the tables as they are now (call after the migrations). */
export async function ensureAppRole(ownerUrl: string, password: string): Promise<string> {
  const sql = postgres(ownerUrl, { max: 1, onnotice: () => {} });
  try {
    const [db] = await sql<{ name: string }[]>`select current_database() as name`;
    const quoted = `'${password.replace(/'/g, "''")}'`;
    const [exists] = await sql`select 1 from pg_roles where rolname = ${APP_ROLE}`;
    await sql.unsafe(`${exists ? 'alter' : 'create'} role ${APP_ROLE} login nosuperuser nocreatedb nocreaterole password ${quoted}`);
    await sql.unsafe(`grant connect on database "${db!.name.replace(/"/g, '')}" to ${APP_ROLE}`);
    await sql.unsafe(`grant usage on schema public to ${APP_ROLE}`);
    await sql.unsafe(`revoke create on schema public from ${APP_ROLE}`);
    const tables = await sql<{ name: string }[]>`select tablename as name from pg_tables where schemaname = 'public'`;
    for (const { name } of tables) {
      const t = `public."${name.replace(/"/g, '')}"`;
      await sql.unsafe(`revoke all on ${t} from ${APP_ROLE}`);
      await sql.unsafe(`grant ${grantsOf(name)} on ${t} to ${APP_ROLE}`);
    }
    await sql.unsafe(`grant usage, select, update on all sequences in schema public to ${APP_ROLE}`);
    // Keys are read-only, but the API notes when one was last used (that column only).
    if (tables.some((t) => t.name === 'api_keys')) await sql.unsafe(`grant update (last_used_at) on public.api_keys to ${APP_ROLE}`);
    // The partner portal's writes to keys and mappings go through the owner's functions, which only
    // make self-service partner keys (migration 1700000021000); the role may call those, nothing more.
    const portal = await sql<{ fn: string }[]>`
      select p.oid::regprocedure::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.proname in ('portal_create_key', 'portal_rotate_key', 'portal_revoke_key')`;
    for (const { fn } of portal) await sql.unsafe(`grant execute on function ${fn} to ${APP_ROLE}`);
  } finally {
    await sql.end();
  }
  const url = new URL(ownerUrl);
  url.username = APP_ROLE;
  url.password = password; // base64url: nothing to escape
  return url.toString();
}
