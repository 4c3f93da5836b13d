// `npm run legacy:fixture -- --rows N --database-url URL`: a messy legacy directory for tests and the benchmark.
import { parseCli } from '../lib/cli';
import { connectionProblem, whereOf } from '../lib/cutover/connection';
import { createSql } from '../lib/db';
import { writeLegacyFixture } from './cutover/fixture';

const { values } = parseCli(
  'Writes a messy legacy directory (the schema of ../shared/legacy/schema.sql, every kind of mess its README lists) into the database given: <rows> studios, 1.5 artists per studio, a portfolio item per artist, a design per other artist, soft deletes. Replaces the legacy tables there. The same rows for the same seed.',
  'npm run legacy:fixture --',
  {
    options: {
      rows: { type: 'string', default: '1000', description: 'legacy studios to write' },
      'database-url': { type: 'string', description: 'the legacy database to write (required; it must exist)' },
      seed: { type: 'string', default: '1', description: 'seed of the generator' },
      'no-media': { type: 'boolean', default: false, description: 'no portfolio items or designs' },
    },
  },
);
const rows = Number(values.rows);
const seed = Number(values.seed);
const url = values['database-url'];
const fail = (m: string): never => {
  console.error(m);
  process.exit(64);
};
if (!Number.isInteger(rows) || rows < 1 || rows > 10_000_000) fail('--rows must be a whole number from 1 to 10000000');
if (!Number.isSafeInteger(seed)) fail('--seed must be a whole number');
if (!url) fail('--database-url is required (the legacy database to write; it must exist)');

const sql = createSql(url!, { max: 2 });
console.log(`legacy fixture: writing to ${whereOf(url!)}`);
const started = Date.now();
try {
  const n = await writeLegacyFixture(sql, { studios: rows, seed, media: !values['no-media'], onTable: (t, k) => console.log(`  ${t.padEnd(16)} ${k.toLocaleString('en-US')} rows`) });
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${Object.entries(n).map(([t, k]) => `${k} ${t}`).join(', ')}`);
} catch (err) {
  console.error(connectionProblem(url!, err));
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
