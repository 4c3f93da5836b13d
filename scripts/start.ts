// `npm start`: the whole stack on embedded defaults. PostgreSQL (embedded unless DATABASE_URL),
// the Temporal dev server with its Web UI (unless TEMPORAL_ADDRESS), the worker and the API.
// Waits until ready, prints the URLs; Ctrl-C stops everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { childEnv, loadConfigOrExit, pathVariable, PROJECT_ROOT, stackConfigSchema } from '../lib/config';
import { startEmbeddedPostgres, type EmbeddedPg } from '../lib/db/embedded';
import { migrateUp } from '../lib/db/migrate';
import { findTemporalCli } from '../temporal/cli-path';
import { startDevServer, type DevServer } from '../temporal/dev-server';
import { afterStackReady } from './stack-hooks';

const cfg = loadConfigOrExit(stackConfigSchema);
const t0 = Date.now();
const say = (msg: string) => console.log(`[stack] ${msg}`);

let pg: EmbeddedPg | undefined;
let temporal: DevServer | undefined;
const children: ChildProcess[] = [];
let stopping = false;

async function stopAll(code: number): Promise<never> {
  if (stopping) process.exit(code);
  stopping = true;
  say('stopping ...');
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
          setTimeout(() => c.kill('SIGKILL'), 15_000).unref();
        }),
    ),
  );
  await temporal?.stop().catch(() => {});
  await pg?.stop().catch(() => {});
  say('stopped');
  process.exit(code);
}
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => void stopAll(0));

function run(name: string, script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, script)], {
    cwd: PROJECT_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    say(`${name} exited (code ${code}, signal ${signal}); stopping the stack`);
    void stopAll(1);
  });
  children.push(child);
  return child;
}

async function waitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/v1/health/ready`, { signal: AbortSignal.timeout(5000) });
      const body = (await res.json()) as { status: string; dependencies: { id: string; status: string }[] };
      if (body.status === 'ready') return;
      last = body.dependencies.filter((d) => d.status === 'blocked').map((d) => d.id).join(', ');
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`stack not ready after ${timeoutMs} ms (blocked: ${last})`);
}

try {
  let databaseUrl = cfg.DATABASE_URL;
  if (!databaseUrl) {
    pg = await startEmbeddedPostgres({ dataDir: path.join(cfg.DATA_DIR, 'pg'), port: cfg.POSTGRES_PORT });
    databaseUrl = pg.url;
    say(`PostgreSQL (embedded) on 127.0.0.1:${cfg.POSTGRES_PORT}, data in ${path.join(cfg.DATA_DIR, 'pg')}`);
  } else say('PostgreSQL: DATABASE_URL');
  const applied = await migrateUp(databaseUrl);
  say(`migrations: ${applied.length ? applied.join(', ') : 'up to date'}`);

  let temporalAddress = cfg.TEMPORAL_ADDRESS;
  let uiUrl: string | undefined;
  if (!temporalAddress) {
    const cli = findTemporalCli({ explicit: cfg.TEMPORAL_CLI_PATH, pathVar: pathVariable() });
    if (!cli) throw new Error('Temporal CLI not found: run `npm run setup` (installs it into .tools/) or set TEMPORAL_CLI_PATH');
    const dbFile = cfg.TEMPORAL_SQLITE_FILE ?? path.join(cfg.DATA_DIR, 'temporal.db');
    temporal = await startDevServer({ cliPath: cli, port: cfg.TEMPORAL_PORT, uiPort: cfg.TEMPORAL_UI_PORT, dbFile, namespace: cfg.TEMPORAL_NAMESPACE });
    temporalAddress = temporal.address;
    uiUrl = temporal.uiUrl;
    say(`Temporal dev server on ${temporalAddress}, history in ${dbFile}`);
  } else say(`Temporal: TEMPORAL_ADDRESS=${temporalAddress}`);

  const apiUrl = `http://127.0.0.1:${cfg.PORT}`;
  const env = {
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    PORT: String(cfg.PORT),
    ...(uiUrl ? { TEMPORAL_UI_URL: uiUrl } : {}),
  };
  run('worker', 'worker/main.ts', env);
  run('api', 'api/main.ts', env);
  await waitReady(apiUrl, 120_000);
  const extra = await afterStackReady({ databaseUrl, apiUrl, cfg });

  console.log('');
  console.log(`  Ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`  API:             ${apiUrl}/api/v1  (intake: ${apiUrl}/api/private/portfolio-intake/v1)`);
  console.log(`  Readiness:       ${apiUrl}/api/v1/health/ready`);
  console.log(`  Docs:            ${apiUrl}/docs`);
  console.log(`  Temporal Web UI: ${uiUrl ?? '(external Temporal: see its own UI)'}`);
  for (const line of extra) console.log(`  ${line}`);
  console.log('  Press Ctrl-C to stop everything.');
  console.log('');
} catch (err) {
  console.error(`[stack] failed: ${(err as Error).message}`);
  await stopAll(1);
}
