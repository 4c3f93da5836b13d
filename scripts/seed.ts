// `npm run seed -- --help`: a deterministic synthetic directory (studios, artists, portfolio
// assets, designs) in the database of DATABASE_URL.
import { parseArgs } from 'node:util';
import { databaseOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { whereOf } from '../lib/stack-run';
import { createSql } from '../lib/db';
import { SeedConflictError, seedDirectory } from './seed/directory';
import { seedProgress } from './seed/progress';

const MAX_STUDIOS = 5_000_000;
const USAGE = `usage:
  npm run seed -- [--studios <n>] [--seed <s>] [--reset | --if-empty]
      Write a synthetic directory: <n> studios with their artists, portfolio assets and designs,
      the same rows for the same seed. Refuses when synthetic rows are already there, unless
      --reset or --if-empty says what to do. 100k studios take about 40 s.

options:
  --studios <n>   number of studios, 1..${MAX_STUDIOS} (default: 1000)
  --seed <s>      seed of the generator, a whole number (default: 1)
  --reset         delete the synthetic rows first, then seed
  --if-empty      do nothing (exit 0) when synthetic rows are already there
  -h, --help      this text

Reads DATABASE_URL (default: the embedded stack's PostgreSQL; \`npm start\` must be running).`;

function usage(problem?: string): never {
  if (problem) console.error(`${problem}\n`);
  (problem ? console.error : console.log)(USAGE);
  process.exit(problem ? 64 : 0); // EX_USAGE
}

let values: { studios: string; seed: string; reset: boolean; 'if-empty': boolean; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      studios: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      reset: { type: 'boolean', default: false },
      'if-empty': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  const e = err as Error & { code?: string };
  usage(e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? e.message.replace(/\. To specify a positional.*$/s, '') : e.message.split('\n')[0]);
}
if (values.help) usage();
const studios = Number(values.studios);
const seed = Number(values.seed);
if (!/^\d+$/.test(values.studios) || studios < 1 || studios > MAX_STUDIOS) usage(`--studios must be a whole number from 1 to ${MAX_STUDIOS}`);
if (!/^-?\d+$/.test(values.seed) || !Number.isSafeInteger(seed)) usage('--seed must be a whole number');
if (values.reset && values['if-empty']) usage('give --reset or --if-empty, not both');

const cfg = loadConfigOrExit(toolConfigSchema);
const db = databaseOf(cfg);
console.error(`[seed] PostgreSQL ${whereOf(db.url)} (from ${db.source})`);
const sql = createSql(db.url, { max: 4 });

// A cli-progress bar per table on a terminal; a line per finished table when piped.
const progress = seedProgress();

try {
  const result = await seedDirectory(sql, {
    studios,
    seed,
    reset: values.reset,
    ifEmpty: values['if-empty'],
    onProgress: progress.onProgress,
  });
  progress.stop();
  if (result.skipped) console.log('The directory already holds synthetic rows; nothing to do (--if-empty).');
  else console.log(`Seeded ${Object.entries(result.counts).map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`).join(', ')} in ${(result.ms / 1000).toFixed(1)} s (seed ${seed}).`);
} catch (err) {
  progress.stop();
  // One line, never a stack, never the URL (it may carry a password).
  const e = err as NodeJS.ErrnoException;
  console.error(
    err instanceof SeedConflictError
      ? err.message
      : e.code === 'ECONNREFUSED'
        ? 'error: PostgreSQL is not reachable (is `npm start` running, or DATABASE_URL set?)'
        : `error: ${e.message}`,
  );
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
