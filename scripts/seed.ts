// `npm run seed -- --help`: a deterministic synthetic directory (studios, artists, portfolio
// assets, designs) in the database of DATABASE_URL.
import { parseArgs } from 'node:util';
import { databaseUrlOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { createSql } from '../lib/db';
import { SeedConflictError, seedDirectory, type SeedTable } from '../lib/directory/seed';

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
const sql = createSql(databaseUrlOf(cfg), { max: 4 });

// One line per table, redrawn in place on a terminal; plain lines when piped.
const TABLES: SeedTable[] = ['studios', 'artists', 'portfolio_assets', 'designs'];
const state = new Map<SeedTable, { done: number; total: number }>();
const tty = process.stderr.isTTY;
let drawn = 0;
let lastDraw = 0;
function bar(done: number, total: number) {
  const width = 30;
  const f = total ? done / total : 1;
  return `[${'#'.repeat(Math.round(f * width)).padEnd(width, '.')}] ${String(Math.floor(f * 100)).padStart(3)}%`;
}
function draw(force = false) {
  const now = Date.now();
  if (!force && now - lastDraw < 100) return;
  lastDraw = now;
  const lines = TABLES.filter((t) => state.has(t)).map((t) => {
    const s = state.get(t)!;
    return `${t.padEnd(17)} ${bar(s.done, s.total)} ${s.done.toLocaleString('en-US')}/${s.total.toLocaleString('en-US')}`;
  });
  if (tty) {
    if (drawn) process.stderr.write(`\x1b[${drawn}A`);
    process.stderr.write(lines.map((l) => `\x1b[2K${l}\n`).join(''));
    drawn = lines.length;
  } else if (force) {
    process.stderr.write(lines.join('\n') + '\n');
  }
}

try {
  const result = await seedDirectory(sql, {
    studios,
    seed,
    reset: values.reset,
    ifEmpty: values['if-empty'],
    onProgress: (p) => {
      state.set(p.table, { done: p.done, total: p.total });
      draw(p.done === p.total);
    },
  });
  draw(true);
  if (result.skipped) console.log('The directory already holds synthetic rows; nothing to do (--if-empty).');
  else console.log(`Seeded ${Object.entries(result.counts).map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`).join(', ')} in ${(result.ms / 1000).toFixed(1)} s (seed ${seed}).`);
} catch (err) {
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
