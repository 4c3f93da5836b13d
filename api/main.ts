// The HTTP API process: parse config, serve, stop cleanly on SIGTERM/SIGINT.
import { apiConfigSchema, databaseWhereOf, loadConfigOrExit, unreachableAt } from '../lib/config';
import { takeNoArguments } from '../lib/process-args';
import { createLogger } from '../lib/logger';
import { installProcessGuard } from '../lib/process-guard';
import { requireProjectNode } from '../lib/node-version';
import { startApi } from './server';

requireProjectNode('api');
takeNoArguments({
  what: 'The HTTP API process: the intake, directory, console and docs routes on PORT. It connects to PostgreSQL (DATABASE_URL) and Temporal (TEMPORAL_ADDRESS); `npm start` runs it with the embedded stack.',
  command: 'npm run api',
  schema: apiConfigSchema,
});
const cfg = loadConfigOrExit(apiConfigSchema);
const log = createLogger({ name: cfg.SERVICE_NAME, level: cfg.LOG_LEVEL, format: cfg.LOG_FORMAT, production: cfg.NODE_ENV === 'production' });
installProcessGuard({ log, name: 'api' });
const api = await startApi(cfg, log, { migrate: cfg.MIGRATE_ON_START }).catch((err: unknown) => {
  const unreachable = unreachableAt(err, cfg);
  if (!unreachable) throw err;
  process.stderr.write(`api: ${unreachable}\n`);
  process.exit(69); // EX_UNAVAILABLE
});
log.info({ url: api.url, publicBaseUrl: api.deps.publicBaseUrl, ...databaseWhereOf(cfg) }, 'api listening');

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'api stopping');
    api.stop().then(
      () => {
        log.info('api stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'api stop failed');
        process.exit(1);
      },
    );
  });
}
