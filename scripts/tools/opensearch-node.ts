// Starts one OpenSearch node of the pinned install (scripts/tools/opensearch.ts) on loopback, on
// free ports unless given, with its data, logs and config under `dataDir`; waits for the cluster to
// be yellow or green; stops it (SIGTERM, then SIGKILL after 5 s: the node sometimes hangs in
// "stopping"; every write is in its fsynced translog by then, index.translog.durability=request). Used by `npm start --
// --search opensearch`, the tests, the fault scenario and the bench.
//
// OpenSearch refuses to run as root: as root the node runs as `nobody` (setpriv), its folder
// handed to that user. One node alone is a single-node cluster; nodes given `peers` (the others'
// transport ports) form one cluster with `managers` as the initial cluster-manager nodes.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../lib/net/free-port';
import { findJava, OPENSEARCH_HOME, opensearchInstalled } from './opensearch';

export interface OpenSearchNodeOptions {
  dataDir: string;
  name?: string;
  cluster?: string;
  httpPort?: number;
  transportPort?: number;
  /** Transport ports of the other nodes of a multi-node cluster (none: a single-node cluster). */
  peers?: number[];
  /** Node names that bootstrap a multi-node cluster (every node is given the same list). */
  managers?: string[];
  heapMb?: number;
  /** How long to wait for the node to answer with the cluster at least yellow (default 120 s). */
  readyTimeoutMs?: number;
  /** Wait for the node's HTTP port only, not for a healthy cluster (a node of a cluster still forming). */
  waitForHealth?: boolean;
  home?: string;
  /** Aborted while the node is starting: it is stopped and the start rejects (a stack stopped meanwhile leaves no JVM). */
  signal?: AbortSignal;
}

export interface OpenSearchNode {
  name: string;
  url: string;
  httpPort: number;
  transportPort: number;
  pid: number;
  dataDir: string;
  /** Resolves with the exit code (or null when killed by a signal). */
  exited: Promise<number | null>;
  stop(timeoutMs?: number): Promise<void>;
  /** kill -9. */
  kill(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isRoot = () => process.getuid?.() === 0;
const NOBODY = 65534;

function chownTree(dir: string, uid: number): void {
  fs.chownSync(dir, uid, uid);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) chownTree(p, uid);
    else fs.chownSync(p, uid, uid);
  }
}

function config(o: Required<Pick<OpenSearchNodeOptions, 'dataDir' | 'name' | 'cluster' | 'peers' | 'managers'>> & { httpPort: number; transportPort: number }): string {
  const lines = [
    `cluster.name: ${o.cluster}`,
    `node.name: ${o.name}`,
    'network.host: 127.0.0.1',
    `http.port: ${o.httpPort}`,
    `transport.port: ${o.transportPort}`,
    `path.data: ${path.join(o.dataDir, 'data')}`,
    `path.logs: ${path.join(o.dataDir, 'logs')}`,
    // a developer's disk is often fuller than the default watermarks allow (shards would stay unassigned)
    'cluster.routing.allocation.disk.threshold_enabled: false',
    'action.auto_create_index: false',
  ];
  if (o.peers.length === 0) lines.push('discovery.type: single-node');
  else {
    lines.push(`discovery.seed_hosts: [${o.peers.map((p) => `"127.0.0.1:${p}"`).join(', ')}]`);
    lines.push(`cluster.initial_cluster_manager_nodes: [${o.managers.map((m) => `"${m}"`).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

const LOG4J = `status = error
appender.console.type = Console
appender.console.name = console
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}] [%node_name]%marker %m%n
rootLogger.level = info
rootLogger.appenderRef.console.ref = console
`;

/** The node's health: cluster status when it answers, undefined when it does not (yet). */
export async function clusterStatus(url: string, timeoutMs = 2000): Promise<string | undefined> {
  try {
    const r = await fetch(`${url}/_cluster/health`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!r.ok) return undefined;
    return ((await r.json()) as { status?: string }).status;
  } catch {
    return undefined;
  }
}

export async function startOpenSearchNode(o: OpenSearchNodeOptions): Promise<OpenSearchNode> {
  const home = o.home ?? OPENSEARCH_HOME;
  if (!opensearchInstalled(home)) throw new Error(`OpenSearch is not installed in ${home}: run \`npm run setup -- --only opensearch\``);
  const java = findJava();
  if (!java) throw new Error('no java: OpenSearch needs Java 17+ (JAVA_HOME or java on PATH)');
  const name = o.name ?? 'node-1';
  const httpPort = o.httpPort ?? (await freePort());
  const transportPort = o.transportPort ?? (await freePort());
  const dataDir = path.resolve(o.dataDir);
  const conf = path.join(dataDir, 'config');
  for (const d of ['data', 'logs', 'config']) fs.mkdirSync(path.join(dataDir, d), { recursive: true });
  fs.writeFileSync(path.join(conf, 'opensearch.yml'), config({ dataDir, name, cluster: o.cluster ?? 'directory-search', peers: o.peers ?? [], managers: o.managers ?? [name], httpPort, transportPort }));
  fs.writeFileSync(path.join(conf, 'log4j2.properties'), LOG4J);
  const heap = `${o.heapMb ?? 512}m`;
  const args = [
    `-Xms${heap}`, `-Xmx${heap}`, '-XX:+UseG1GC', '-Djava.security.manager=allow', '-Djava.awt.headless=true', '-Dfile.encoding=UTF-8',
    `-Dopensearch.path.home=${home}`, `-Dopensearch.path.conf=${conf}`, '-Dopensearch.distribution.type=tar', '-Dopensearch.bundled_jdk=false',
    '-Dlog4j2.disable.jmx=true', '-Dio.netty.noUnsafe=true', '-Dio.netty.noKeySetOptimization=true', '-Dio.netty.recycler.maxCapacityPerThread=0',
    `-Djava.io.tmpdir=${path.join(dataDir, 'tmp')}`,
    '-cp', `${path.join(home, 'lib')}/*`, 'org.opensearch.bootstrap.OpenSearch',
  ];
  fs.mkdirSync(path.join(dataDir, 'tmp'), { recursive: true });
  const out = fs.openSync(path.join(dataDir, 'logs', 'stdout.log'), 'a');
  let child: ChildProcess;
  if (isRoot()) {
    fs.chmodSync(dataDir, 0o700);
    chownTree(dataDir, NOBODY);
    // `nobody` must pass through the folders above its own (search only, no listing: o+x)
    for (let d = path.dirname(dataDir); d !== path.dirname(d); d = path.dirname(d)) {
      const mode = fs.statSync(d).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(d, (mode & 0o7777) | 0o001);
    }
    child = spawn('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', java, ...args], { stdio: ['ignore', out, out] });
  } else {
    child = spawn(java, args, { stdio: ['ignore', out, out] });
  }
  fs.closeSync(out);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${httpPort}`;
  const node: OpenSearchNode = {
    name, url, httpPort, transportPort, pid: child.pid!, dataDir, exited,
    async stop(timeoutMs = 5_000) {
      if (gone) return;
      child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => true), sleep(timeoutMs).then(() => false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    kill() {
      if (!gone) child.kill('SIGKILL');
    },
  };
  const deadline = Date.now() + (o.readyTimeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (gone || o.signal?.aborted) break;
    const status = await clusterStatus(url);
    if (status && (o.waitForHealth === false || status === 'green' || status === 'yellow')) return node;
    await sleep(500);
  }
  await node.stop(5000);
  if (o.signal?.aborted) throw new Error(`OpenSearch node ${name}: start abandoned (stopping)`);
  const tail = fs.readFileSync(path.join(dataDir, 'logs', 'stdout.log'), 'utf8').split('\n').filter((l) => /ERROR|Exception|fatal/i.test(l)).slice(-5);
  throw new Error(`OpenSearch node ${name} did not become ready on ${url}${gone ? ' (it exited)' : ''}; ${path.join(dataDir, 'logs', 'stdout.log')}: ${tail.join(' | ')}`);
}

/**
 * `npm start -- --search opensearch`: one node under `dataDir` on `httpPort`, restarted with
 * backoff when it exits unasked (at most 5 times in a row; /search answers from PostgreSQL
 * meanwhile); stop() ends it.
 */
export async function superviseOpenSearch(o: OpenSearchNodeOptions & { httpPort: number; transportPort: number }, say: (line: string) => void) {
  // o.signal (the stack stopping while this first start runs) ends the first start; stop() ends a restart under way
  let node = await startOpenSearchNode(o);
  const stopped = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stopped.signal]) : stopped.signal;
  let stopping = false;
  let restarts = 0;
  /** A restart in flight: stop() abandons it and waits for it, so a node started while the stack stops is stopped too (never left running). */
  let restarting: Promise<void> | undefined;
  const restart = async (code: number | null) => {
    restarts++;
    say(`OpenSearch exited (${code}); restarting it in ${restarts * 2} s`);
    await sleep(restarts * 2000);
    if (stopping) return;
    try {
      const started = await startOpenSearchNode({ ...o, signal });
      if (stopping) return void (await started.stop());
      node = started;
      restarts = 0;
      watch(node);
    } catch (err) {
      if (!stopping) say(`OpenSearch did not restart: ${(err as Error).message}`);
    }
  };
  const watch = (n: OpenSearchNode) =>
    void n.exited.then((code) => {
      if (stopping) return;
      if (restarts >= 5) return say(`OpenSearch exited (${code}) ${restarts} times; not restarting it (search answers from PostgreSQL)`);
      restarting = restart(code);
    });
  watch(node);
  return {
    url: node.url,
    /** The node's JVM now (a restart starts another). */
    pid: () => node.pid,
    async stop() {
      stopping = true;
      stopped.abort();
      await restarting;
      await node.stop();
    },
  };
}
