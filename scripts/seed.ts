// `npm run seed -- --studios N [--seed S] [--reset] [--if-empty]`: a deterministic synthetic
// directory (studios, artists, portfolio assets, designs) in the database of DATABASE_URL.
import { parseArgs } from 'node:util';
import { databaseUrlOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { createSql } from '../lib/db';
import { SeedConflictError, seedDirectory, type SeedTable } from '../lib/directory/seed';

const { values } = parseArgs({
  options: {
    studios: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    reset: { type: 'boolean', default: false },
    'if-empty': { type: 'boolean', default: false },
  },
});
const studios = Number(values.studios);
const seed = Number(values.seed);
if (!Number.isInteger(studios) || studios < 1 || studios > 5_000_000) throw new Error('--studios must be a whole number from 1 to 5000000');
if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');

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
  if (err instanceof SeedConflictError) {
    console.error(err.message);
    process.exitCode = 1;
  } else throw err;
} finally {
  await sql.end({ timeout: 5 });
}
