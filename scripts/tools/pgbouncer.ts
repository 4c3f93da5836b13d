// PgBouncer in front of PostgreSQL (`npm start -- --pooler`, the pooled replica e2e test): Debian's
// `pgbouncer`, installed by `npm run setup` when missing (as root), and the configuration the
// launcher writes. docs/deploy.md shows the production configuration this one mirrors.
import { findBin } from './find-bin';

export const PGBOUNCER_PATH = '/usr/sbin/pgbouncer';

/** pgbouncer on PATH, else Debian's /usr/sbin/pgbouncer. */
export const findPgbouncer = (): string | undefined => findBin('pgbouncer', PGBOUNCER_PATH);

/** A value inside double quotes in PgBouncer's auth file ("" escapes "). */
const quoted = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** The auth file: each role the processes connect as, with its password (SCRAM to the client and to the server). */
export const pgbouncerUsers = (users: { user: string; password: string }[]): string => users.map((u) => `${quoted(u.user)} ${quoted(u.password)}\n`).join('');

/**
 * Transaction mode: a server connection is lent to a client for one transaction, so many client
 * connections (every replica's pool) share a few server ones. Loopback TCP only (no unix socket
 * that another stack's PgBouncer could hold); `users` may also read SHOW STATS on the admin console
 * (database `pgbouncer`), which says how many transactions went through.
 */
export function pgbouncerConfig(o: {
  port: number;
  database: string;
  server: { host: string; port: number };
  authFile: string;
  statsUsers: string[];
  poolSize?: number;
  maxClients?: number;
}): string {
  return [
    '[databases]',
    `${o.database} = host=${o.server.host} port=${o.server.port} dbname=${o.database}`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${o.port}`,
    'unix_socket_dir =',
    'auth_type = scram-sha-256',
    `auth_file = ${o.authFile}`,
    'pool_mode = transaction',
    `default_pool_size = ${o.poolSize ?? 20}`,
    `max_client_conn = ${o.maxClients ?? 1000}`,
    `stats_users = ${o.statsUsers.join(',')}`,
    // postgres.js and node-postgres send nothing else PgBouncer does not know; kept for other clients' drivers.
    'ignore_startup_parameters = extra_float_digits',
    // Its stderr is the launcher's: warnings and errors only, not a line per connection or a minute.
    'log_connections = 0',
    'log_disconnections = 0',
    'log_stats = 0',
    '',
  ].join('\n');
}
