// `npm start`: the whole stack on embedded defaults. PostgreSQL (embedded unless DATABASE_URL),
// the Temporal dev server with its Web UI (unless TEMPORAL_ADDRESS), the worker and the API.
// Waits until ready, prints the URLs; supervises its children (one that exits is restarted with
// backoff); Ctrl-C stops everything it started. The pieces are started, supervised and stopped by
// the one stack launcher (scripts/stack.ts); DATA_DIR/stack.json says where they run.
import fs from 'node:fs';
import path from 'node:path';
import { parseCli } from '../lib/cli';
import { loadConfigOrExit, stackConfigSchema } from '../lib/config';
import { requireProjectNode } from '../lib/node-version';
import { launchStack, type ServerTlsSpec, type Stack } from './stack';
import { tlsCliArgs } from '../temporal/cluster-tls';
import { afterStackReady } from './stack-hooks';
import { TEMPORAL_SERVER_DIR, temporalServerAt } from './tools/temporal-server';
import { installOpenSearch, OPENSEARCH_VERSION, opensearchInstalled } from './tools/opensearch';
import { superviseOpenSearch } from './tools/opensearch-node';
import { freePort } from '../lib/net/free-port';

requireProjectNode('npm start');
const { values: args } = parseCli(
  'Start the whole stack on embedded defaults (the environment variables: npm run api -- --help); Ctrl-C stops it.',
  'npm start --',
  {
    options: {
      replicas: {
        type: 'string',
        default: '1',
        description: 'API and worker processes of each kind; above 1, HAProxy (npm run setup installs it) balances the API replicas on PORT',
      },
      temporal: {
        type: 'string',
        default: 'dev',
        description: 'dev: the Temporal dev server (SQLite file); server: the real Temporal server, pinned, with PostgreSQL persistence and SQL visibility (npm run setup -- --only temporal-server builds it once: about 10 min on 2 idle cores, 20+ on a busy machine)',
      },
      pooler: {
        type: 'boolean',
        default: false,
        description: 'PgBouncer (transaction mode; npm run setup installs it) between the API and worker processes and PostgreSQL; their LISTEN and the migrations stay direct',
      },
      search: {
        type: 'string',
        default: 'postgres',
        description: 'postgres: /search from PostgreSQL; opensearch: an OpenSearch node too (data in DATA_DIR/opensearch, HTTP on SEARCH_OPENSEARCH_PORT, default 9200; npm run setup -- --only opensearch installs it, done here when missing), fed from the change log, with PostgreSQL behind it',
      },
      'webhook-worker': {
        type: 'boolean',
        default: false,
        description: 'webhook delivery in a worker process of its own (WORKER_ROLE=webhooks, at nice 10); the workers then run intake only',
      },
    },
  },
);
const replicas = Number(args.replicas);
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 8) {
  console.error(`--replicas must be a whole number from 1 to 8 (got ${JSON.stringify(args.replicas)})`);
  process.exit(64);
}
if (args.temporal !== 'dev' && args.temporal !== 'server') {
  console.error(`--temporal is dev or server (got ${JSON.stringify(args.temporal)})`);
  process.exit(64);
}
/** The real server's binaries, built by `npm run setup -- --only temporal-server`. */
const realServer = args.temporal === 'server' ? temporalServerAt(TEMPORAL_SERVER_DIR) : undefined;
if (args.temporal === 'server' && !realServer) {
  console.error(`--temporal server: no build in ${TEMPORAL_SERVER_DIR}; run npm run setup -- --only temporal-server first (about 10 min on 2 idle cores, 20+ on a busy machine)`);
  process.exit(69);
}
if (args.search !== 'postgres' && args.search !== 'opensearch') {
  console.error(`--search is postgres or opensearch (got ${JSON.stringify(args.search)})`);
  process.exit(64);
}
const cfg = loadConfigOrExit(stackConfigSchema);
/** The real server runs the JWT authorizer unless TEMPORAL_AUTH=none; the dev server has no authorizer to run. */
const temporalAuth = cfg.TEMPORAL_AUTH ?? (realServer && !cfg.TEMPORAL_ADDRESS ? 'jwt' : 'none');
if (temporalAuth === 'jwt' && !realServer && !cfg.TEMPORAL_ADDRESS) {
  console.error('TEMPORAL_AUTH=jwt needs the real server (npm start -- --temporal server): the dev server runs no authorizer');
  process.exit(64);
}
/** The real server's mTLS: a cluster's own certificates, none, or (default) a local CA the launcher makes. */
const serverTls: ServerTlsSpec = cfg.TEMPORAL_SERVER_TLS_DIR === undefined ? 'local' : cfg.TEMPORAL_SERVER_TLS_DIR === 'none' ? 'none' : { dir: cfg.TEMPORAL_SERVER_TLS_DIR };
lockDownDataDir(cfg.DATA_DIR);
const t0 = Date.now();
const say = (msg: string) => console.log(`[stack] ${msg}`);

const abort = new AbortController();
let launching: Promise<Stack> | undefined;
let stopping = false;
let searchNode: Awaited<ReturnType<typeof superviseOpenSearch>> | undefined;
/** OpenSearch's start: a stop meanwhile aborts it (abort.signal) and waits for the node to be gone. */
let searchStarting: ReturnType<typeof superviseOpenSearch> | undefined;

async function stopAll(code: number): Promise<never> {
  if (stopping) process.exit(code);
  stopping = true;
  say('stopping ...');
  // A launch still under way stops what it has started so far and rejects; a finished one is stopped here.
  abort.abort();
  const stack = await launching?.catch(() => undefined);
  await stack?.stop().catch(() => {});
  await (searchNode ?? (await searchStarting?.catch(() => undefined)))?.stop().catch(() => {});
  say('stopped');
  process.exit(code);
}
/**
 * .data holds review notes (the Temporal history), secrets and the staged media: the launcher
 * spawns Temporal, the API and the worker with umask 077 (lib/umask.ts) and PostgreSQL keeps its
 * own files private. The folder itself stays traversable (0711) because, run as root, PostgreSQL
 * runs as the `postgres` user inside it; files older stacks left readable are closed here.
 */
function lockDownDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o711);
  for (const name of ['temporal.db', 'temporal.db-wal', 'temporal.db-shm', 'secrets', 'objects']) {
    const f = path.join(dataDir, name);
    if (fs.existsSync(f)) fs.chmodSync(f, name === 'secrets' || name === 'objects' ? 0o700 : 0o600);
  }
}

for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => void stopAll(0));

try {
  if (args.search === 'opensearch') {
    if (!opensearchInstalled()) say(`OpenSearch: ${installOpenSearch().detail}`);
    const port = cfg.SEARCH_OPENSEARCH_PORT ?? 9200;
    say(`starting OpenSearch on 127.0.0.1:${port} (data in ${path.join(cfg.DATA_DIR, 'opensearch')}) ...`);
    searchStarting = superviseOpenSearch({ dataDir: path.join(cfg.DATA_DIR, 'opensearch'), httpPort: port, transportPort: await freePort(), signal: abort.signal }, say);
    searchNode = await searchStarting;
  }
  launching = launchStack({
    dataDir: cfg.DATA_DIR,
    postgres: cfg.DATABASE_URL ? { url: cfg.DATABASE_URL } : { embedded: { dir: path.join(cfg.DATA_DIR, 'pg'), port: cfg.POSTGRES_PORT } },
    temporal: cfg.TEMPORAL_ADDRESS
      ? { address: cfg.TEMPORAL_ADDRESS }
      : realServer
        ? { server: { bin: realServer, dir: path.join(cfg.DATA_DIR, 'temporal-server'), port: cfg.TEMPORAL_PORT, uiPort: cfg.TEMPORAL_UI_PORT, auth: temporalAuth, tls: serverTls } }
        : {
          embedded: {
            cliPath: cfg.TEMPORAL_CLI_PATH,
            port: cfg.TEMPORAL_PORT,
            uiPort: cfg.TEMPORAL_UI_PORT,
            dbFile: cfg.TEMPORAL_SQLITE_FILE ?? path.join(cfg.DATA_DIR, 'temporal.db'),
            namespace: cfg.TEMPORAL_NAMESPACE,
          },
        },
    processes: {
      apiPort: cfg.PORT,
      replicas,
      webhookWorker: args['webhook-worker'] === true,
      pooler: args.pooler === true,
      stdout: 'inherit',
      env: { WORKER_METRICS_PORT: String(cfg.WORKER_METRICS_PORT), ...(searchNode ? { SEARCH_BACKEND: 'opensearch', SEARCH_OPENSEARCH_URL: searchNode.url } : {}) },
      // Every other exit is restarted by the supervisor; a configuration error (78) cannot be.
      onUnexpectedExit: (piece, code) => {
        if (stopping || code !== 78) return;
        say(`${piece} exited with a configuration error (code 78); stopping the stack`);
        void stopAll(1);
      },
    },
    say,
    signal: abort.signal,
    // A child that exits (worker, API, Temporal, PostgreSQL) is restarted with backoff, one line
    // each; only Ctrl-C (or SIGTERM to this launcher) stops the stack.
    supervise: { say },
    runFile: true,
    searchNode,
  });
  const stack = await launching;
  const apiUrl = stack.apiUrl!;
  const extra = await afterStackReady({ databaseUrl: stack.databaseUrl, apiUrl, cfg });

  console.log('');
  console.log(`  Ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`  API:             ${apiUrl}/api/v1  (intake: ${apiUrl}/api/private/portfolio-intake/v1)`);
  if (replicas > 1) {
    console.log(`  Replicas:        ${replicas} API (${stack.apiReplicaUrls.join(', ')}) and ${replicas} workers, behind HAProxy on ${apiUrl}`);
  }
  if (stack.poolerUrl) {
    const p = new URL(stack.poolerUrl);
    console.log(`  Pooler:          PgBouncer (transaction mode) on ${p.host}: the processes' queries; LISTEN direct to PostgreSQL`);
  }
  if (searchNode) console.log(`  Search:          OpenSearch ${OPENSEARCH_VERSION} on ${searchNode.url} (alias directory-search, fed from search_changes; PostgreSQL answers when it is away)`);
  if (args['webhook-worker'] === true) console.log(`  Webhooks:        delivered by a worker process of its own (WORKER_ROLE=webhooks, nice 10)`);
  console.log(`  Readiness:       ${apiUrl}/api/v1/health/ready`);
  console.log(`  Docs:            ${apiUrl}/docs`);
  console.log(`  Temporal Web UI: ${stack.uiUrl ?? '(external Temporal: see its own UI)'}`);
  // With mTLS, on-call's client certificate; without it, a token would turn the CLI's TLS on unless told otherwise.
  const cliTls = stack.temporalTls ? tlsCliArgs(stack.temporalTls).join(' ') : '--tls=false';
  if (stack.temporalTls) console.log(`  Temporal mTLS:   internode and frontend, client certificates required (${path.dirname(stack.temporalTls.cert)}; docs/deploy.md "Certificates")`);
  if (stack.temporalAuth === 'jwt') {
    console.log(`  Temporal CLI:    .tools/pypi/bin/temporal workflow list --address ${stack.temporalAddress} --namespace ${cfg.TEMPORAL_NAMESPACE} ${cliTls} --api-key "$(npm run -s iam -- temporal-token)"`);
    console.log(`  Temporal auth:   JWT authorizer: the API and the worker write; on-call reads with npm run iam -- temporal-token (docs/on-call.md)`);
  } else {
    console.log(`  Temporal CLI:    .tools/pypi/bin/temporal workflow list --address ${stack.temporalAddress} --namespace ${cfg.TEMPORAL_NAMESPACE}${stack.temporalTls ? ` ${cliTls}` : ''}`);
  }
  console.log(`  Where it runs:   ${path.join(cfg.DATA_DIR, 'stack.json')} (ports and pids; the tools read it)`);
  console.log(`  Metrics:         ${apiUrl}/metrics (API)${cfg.WORKER_METRICS_PORT ? `, http://127.0.0.1:${cfg.WORKER_METRICS_PORT}/metrics (worker)` : ''}`);
  for (const line of extra) console.log(`  ${line}`);
  console.log('  Press Ctrl-C to stop everything.');
  console.log('');
} catch (err) {
  // A stop already under way (Ctrl-C, or a process exited) reports and exits on its own.
  if (!stopping) {
    console.error(`[stack] failed: ${err instanceof Error ? err.message : String(err)}`);
    await stopAll(1);
  }
}
