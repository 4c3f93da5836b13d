// R1 (issue 7): requests/s of GET /api/v1/health/live through our whole API process (request log,
// security headers, request ids, the method guards, every router (probes are not rate limited), the problem handler) / a bare Express 5
// app answering the same JSON, same load generator (autocannon), same connections and duration.
// Servers are pinned to CPU 0 and the load generator to CPU 1 when taskset exists.
// Run: npm run bench:r1 [-- --seconds 10 --connections 32 --rounds 4 --log-level info --no-profile]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { parseCli } from '../lib/cli';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { childEnv, pathVariable, PROJECT_ROOT } from '../lib/config';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { freePort } from '../lib/net/free-port';
import { printTable, writeResults } from './lib/results';
import { builtEntryOf, stopChild, waitLive } from './lib/stack';
import { summarizeCpuProfile } from './lib/cpu-profile';
import { round } from './lib/stats';

const { values } = parseCli('R1: GET /api/v1/health/live requests/s through the API against a bare Express 5 app.', 'npm run bench:r1 --', {
  options: {
    seconds: { type: 'string', default: '10', description: 'length of one round' },
    connections: { type: 'string', default: '32', description: 'concurrent connections (autocannon)' },
    rounds: { type: 'string', default: '4', description: 'alternating rounds of ours and the bare app' },
    // `warn` takes the per-request log line out: shows what request logging costs
    'log-level': { type: 'string', default: 'info', description: 'our API\'s LOG_LEVEL (warn drops the request log line)' },
    // after the measured rounds: one more run of ours under --cpu-prof, summarised (where the time goes)
    profile: { type: 'boolean', default: true, description: 'one more run under --cpu-prof, summarised' },
    'no-profile': { type: 'boolean', default: false, description: 'skip the profile' },
    build: { type: 'boolean', default: false, description: 'run our API from dist/ with plain node, as production does (needs npm run build)' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);
const taskset = (pathVariable() ?? '').split(':').some((d) => fs.existsSync(path.join(d, 'taskset')));

function spawnPinned(args: string[], env: Record<string, string>, nodeFlags: string[] = [], fromBuild = false): ChildProcess {
  const node = fromBuild ? [process.execPath, ...nodeFlags, builtEntryOf(args[0]!), ...args.slice(1)] : [process.execPath, ...nodeFlags, '--import', 'tsx', ...args];
  const [cmd, argv] = taskset ? ['taskset', ['-c', '0', ...node]] : [node[0]!, node.slice(1)];
  return spawn(cmd, argv, { cwd: PROJECT_ROOT, env: childEnv(env), stdio: ['ignore', 'ignore', 'inherit'] });
}

async function load(url: string, seconds: number): Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

if (taskset) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-r1-'));
fs.chmodSync(dir, 0o755);
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort() });
const ourPort = await freePort();
const barePort = await freePort();
const ourEnv = (port: number) => ({
  NODE_ENV: 'development',
  LOG_LEVEL: values['log-level'], // info as deployed: one JSON line per request
  DATA_DIR: path.join(dir, 'data'),
  DATABASE_URL: pg.url,
  TEMPORAL_ADDRESS: `127.0.0.1:${freeTemporal}`, // live does not touch Temporal
  PORT: String(port),
});
const freeTemporal = await freePort();
const FROM_BUILD = values.build === true;
if (FROM_BUILD && !fs.existsSync(path.join(PROJECT_ROOT, builtEntryOf('api/main.ts')))) throw new Error('--build: no dist/api/main.js; run npm run build first');
const ours = spawnPinned(['api/main.ts'], ourEnv(ourPort), [], FROM_BUILD);
const bare = spawnPinned(['bench/bare/express-hello.ts', String(barePort)], {});
try {
  const ourUrl = `http://127.0.0.1:${ourPort}/api/v1/health/live`;
  const bareUrl = `http://127.0.0.1:${barePort}/api/v1/health/live`;
  await Promise.all([waitLive(`http://127.0.0.1:${ourPort}`, 60_000), waitLive(`http://127.0.0.1:${barePort}`, 60_000)]);
  await load(ourUrl, 3); // warm-up
  await load(bareUrl, 3);
  const rows = [];
  // Alternate the two, so drift on a shared machine hits both alike.
  for (let i = 0; i < ROUNDS; i++) {
    const b = await load(bareUrl, SECONDS);
    const o = await load(ourUrl, SECONDS);
    rows.push({ round: i + 1, ours_rps: round(o.rps), bare_rps: round(b.rps), ratio: round(o.rps / b.rps), ours_p99_ms: o.p99, bare_p99_ms: b.p99, errors: o.errors + b.errors + o.non2xx + b.non2xx });
  }
  const ratio = round(rows.reduce((a, r) => a + r.ratio, 0) / rows.length);
  printTable(`R1: GET /api/v1/health/live, ours ${FROM_BUILD ? 'from dist/ (plain node)' : 'through tsx'}, LOG_LEVEL=${values['log-level']}, ${CONNECTIONS} connections, ${SECONDS} s per run, pinned: ${taskset}`, rows);
  console.log(`R1 ratio (ours / bare Express) = ${ratio}; target >= 0.85`);
  let profile: ReturnType<typeof summarizeCpuProfile> | undefined;
  if (values.profile && !values['no-profile']) {
    await stopChild(ours); // one API process on CPU 0 at a time
    const profDir = path.join(dir, 'cpu-prof');
    const port = await freePort();
    const profiled = spawnPinned(['api/main.ts'], ourEnv(port), ['--cpu-prof', `--cpu-prof-dir=${profDir}`], FROM_BUILD);
    try {
      await waitLive(`http://127.0.0.1:${port}`, 60_000);
      await load(`http://127.0.0.1:${port}/api/v1/health/live`, 2);
      const r = await load(`http://127.0.0.1:${port}/api/v1/health/live`, SECONDS);
      console.log(`\nprofiled run (under --cpu-prof): ${round(r.rps)} requests/s`);
    } finally {
      await stopChild(profiled);
    }
    const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      profile = summarizeCpuProfile(path.join(profDir, file));
      printTable(`Profile of ours: CPU self time by area (busy ${profile.totalMs - profile.idleMs} ms of ${profile.totalMs} ms)`, profile.areas);
      printTable('Profile of ours: CPU self time by function', profile.functions);
    }
  }
  console.log(`\nwritten: ${writeResults(`http-overhead-${values['log-level']}${FROM_BUILD ? '-build' : ''}`, { fromBuild: FROM_BUILD, logLevel: values['log-level'], connections: CONNECTIONS, seconds: SECONDS, pinned: taskset, rows, ratio, target: '>= 0.85', profile })}`);
} finally {
  await stopChild(ours);
  await stopChild(bare);
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
