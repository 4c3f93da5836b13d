// Shared bench and fault-suite plumbing: the embedded stack as `npm start` runs it (embedded
// PostgreSQL, Temporal dev server with a WAL SQLite file, the worker and the API as their own
// processes), on free loopback ports in a throwaway folder, plus real credentials. The pieces are
// started, killed and started again by the one stack launcher (scripts/stack.ts); stop() ends
// everything it started.
import { serverPort, type RealServerBinaries } from '../../temporal/real-server';
import fs from 'node:fs';
import path from 'node:path';
import { createSql, type Sql } from '../../lib/db';
import { LOCAL_ISSUER } from '../../lib/identity';
import { upsertMapping } from '../../lib/identity/actors';
import { createApiKey } from '../../lib/identity/api-keys';
import { issueLocalToken, loadOrCreateSigningKey } from '../../lib/identity/local-keys';
import type { Permission } from '../../lib/identity/permissions';
import { launchStack, tempStackDir, type Stack, type TemporalAuth } from '../../scripts/stack';
import type { TemporalClientTls } from '../../temporal/cluster-tls';

// The process helpers the benches use on their own (bench/directory.ts, bench/http-overhead.ts).
export { builtEntryOf, hasTaskset, spawnNode, stopChild, waitLive } from '../../scripts/stack';

/** The launcher's controls of each piece, plus the bench's own credentials and connection. */
export interface BenchStack
  extends Pick<
    Stack,
    | 'apiPid' | 'workerPid' | 'postgresPid' | 'temporalPid' | 'restarts' | 'startWorker' | 'stopWorker' | 'killWorker' | 'workerExited' | 'startApi' | 'killApi'
    | 'stopTemporal' | 'startTemporal' | 'stopPostgres' | 'startPostgres' | 'stop' | 'apiReplicaUrls' | 'replicaPid' | 'killReplica' | 'haproxyPid'
    | 'pgbouncerPid' | 'poolerUrl'
  > {
  dir: string;
  dataDir: string;
  apiUrl: string;
  databaseUrl: string;
  temporalAddress: string;
  /** The real server's mTLS (its default): the on-call client certificate the bench's own Temporal clients present. */
  temporalTls: TemporalClientTls | undefined;
  /** The real server's Web UI, when asked for. */
  uiUrl: string | undefined;
  taskQueue: string;
  sql: Sql;
  partner: { key: string; headers: Record<string, string>; organizationId: string };
  operator: { token: string; headers: Record<string, string> };
}

export interface BenchStackOptions {
  /** Extra environment for the API and the worker (e.g. WORKER_* tuning). */
  env?: Record<string, string>;
  /** `taskset -c <cpus>` for the API and worker processes, when taskset exists. */
  serverCpus?: string;
  partnerPermissions?: Permission[];
  /** Restart children that exit on their own, as `npm start` does (the fault scenarios that kill by pid). */
  supervise?: boolean;
  /** API and worker processes of each kind, behind HAProxy above 1 (`npm start -- --replicas N`). */
  replicas?: number;
  /** The processes from dist/ with plain node, as production runs them (needs `npm run build`). */
  fromBuild?: boolean;
  /** Webhook delivery in a worker process of its own (WORKER_ROLE=webhooks; the launcher's webhookWorker). */
  webhookWorker?: boolean;
  /** PgBouncer in transaction mode between the processes and PostgreSQL (`npm start -- --pooler`). */
  pooler?: boolean;
  /**
   * The folder to run in (its PostgreSQL, the dev server's SQLite file, the real server's folder,
   * DATA_DIR), kept at stop: a later stack on the same folder carries on, on another Temporal say.
   * Default: a throwaway folder, removed at stop.
   */
  dir?: string;
  /** The real Temporal server (`npm start -- --temporal server`; built by `npm run setup -- --only temporal-server`) instead of the dev server. */
  realTemporal?: RealServerBinaries;
  /**
   * With realTemporal: its JWT authorizer (`npm start -- --temporal server` runs it), the API and the
   * worker presenting writer tokens; and its Web UI (ui-server) on a free port.
   */
  temporalAuth?: TemporalAuth;
  temporalUi?: boolean;
}

const READ_PERMISSIONS: Permission[] = ['studios:read', 'search:read', 'artists:read', 'portfolios:read', 'designs:read'];
/** artist-bench-0..49 (bench/intake-latency.ts; artist-bench-1 in bench/lib/intake.ts) and the recorded histories' artist. */
export const BENCH_ARTISTS = [...Array.from({ length: 50 }, (_, i) => `artist-bench-${i}`), 'artist-fixture-001'];

/** A human operator who reviews, signed in with a local bearer token whose subject is `actorId`. */
export async function upsertReviewOperator(sql: Sql, actorId: string): Promise<void> {
  await upsertMapping(sql, {
    actorId,
    credentialKind: 'bearer',
    credentialSubject: actorId,
    credentialIssuer: LOCAL_ISSUER,
    role: 'operator',
    permissions: ['portfolio_intake:review'],
    organizationId: 'platform',
    isHumanOperator: true,
    selfService: false,
  });
}

export async function startBenchStack(o: BenchStackOptions = {}): Promise<BenchStack> {
  const dir = o.dir ?? tempStackDir('bench-stack-');
  const dataDir = path.join(dir, 'data');
  const taskQueue = 'portfolio-intake-bench';
  let stack: Stack | undefined;
  let sql: Sql | undefined;
  const cleanup = async () => {
    await sql?.end({ timeout: 5 });
    await stack?.stop();
    if (!o.dir) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    stack = await launchStack({
      dataDir,
      postgres: { embedded: { dir: path.join(dir, 'pg') } },
      temporal: o.realTemporal
        ? { server: { bin: o.realTemporal, dir: path.join(dir, 'temporal-server'), auth: o.temporalAuth ?? 'none', ...(o.temporalUi ? { uiPort: await serverPort() } : {}) } }
        : { embedded: { dbFile: path.join(dir, 'temporal.db') } },
      processes: {
        // Benches measure orchestration and reads, not the limiter: limits off unless asked for.
        // The bench's images are one picture under 51 artists: the second-review policy's similar-image
        // half would hold every approval for a second operator (it is measured by its own tests).
        env: { NODE_ENV: 'development', LOG_LEVEL: 'warn', TEMPORAL_TASK_QUEUE: taskQueue, RATE_LIMITS_ENABLED: 'false', SECOND_REVIEW_SIMILAR_MATCHES: 'false', ...o.env },
        ...(o.serverCpus ? { cpus: o.serverCpus } : {}),
        ...(o.replicas ? { replicas: o.replicas } : {}),
        ...(o.fromBuild ? { fromBuild: true } : {}),
        ...(o.webhookWorker ? { webhookWorker: true } : {}),
        ...(o.pooler ? { pooler: true } : {}),
      },
      ...(o.supervise ? { supervise: { say: (line: string) => console.log(`[stack] ${line}`) } } : {}),
    });
    sql = createSql(stack.databaseUrl, { max: 4 });

    const organizationId = 'bench-tenant';
    const created = await createApiKey(sql, { organizationId, label: 'bench partner' });
    await upsertMapping(sql, {
      actorId: 'bench-partner',
      credentialKind: 'api_key',
      credentialSubject: created.keyId,
      role: 'partner',
      permissions: o.partnerPermissions ?? ['portfolio_intake:stage', ...READ_PERMISSIONS],
      organizationId,
      // The artists the benches, the fault suite and the recorded histories stage for: a partner
      // stages only for artists its organization is tied to (lib/intake/artist-ties.ts).
      artistScope: BENCH_ARTISTS,
    });
    await upsertReviewOperator(sql, 'bench-operator');
    const token = await issueLocalToken(await loadOrCreateSigningKey(dataDir), { subject: 'bench-operator', issuer: LOCAL_ISSUER, ttlSeconds: 4 * 3600 });
    const s = stack;
    return {
      dir,
      dataDir,
      apiUrl: s.apiUrl!,
      apiReplicaUrls: s.apiReplicaUrls,
      replicaPid: s.replicaPid,
      killReplica: s.killReplica,
      haproxyPid: s.haproxyPid,
      pgbouncerPid: s.pgbouncerPid,
      poolerUrl: s.poolerUrl,
      databaseUrl: s.databaseUrl,
      temporalAddress: s.temporalAddress,
      temporalTls: s.temporalTls,
      uiUrl: s.uiUrl,
      taskQueue,
      sql,
      partner: { key: created.key, headers: { 'x-api-key': created.key }, organizationId },
      operator: { token, headers: { authorization: `Bearer ${token}` } },
      apiPid: s.apiPid,
      workerPid: s.workerPid,
      postgresPid: s.postgresPid,
      temporalPid: s.temporalPid,
      restarts: s.restarts,
      startWorker: s.startWorker,
      stopWorker: s.stopWorker,
      killWorker: s.killWorker,
      workerExited: s.workerExited,
      startApi: s.startApi,
      killApi: s.killApi,
      stopTemporal: s.stopTemporal,
      startTemporal: s.startTemporal,
      stopPostgres: s.stopPostgres,
      startPostgres: s.startPostgres,
      stop: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
