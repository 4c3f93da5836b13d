// `npm run import -- studios.csv`: studios or artists from a CSV or NDJSON file into the runtime
// store, through the cutover's normalization, ledger and provenance (sourceType "file_import").
import fs from 'node:fs';
import { parseCli } from '../lib/cli';
import { databaseUrlOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { connectionProblem, whereOf } from '../lib/cutover/connection';
import { formatOf, importFile, kindOf, type ImportFormat, type ImportKind } from '../lib/cutover/file-import';
import { createSql } from '../lib/db';

const { values, positionals } = parseCli(
  `Imports studios or artists from a file (CSV with a header row, or NDJSON: one JSON object a line) into the runtime store (DATABASE_URL),
through the same normalization as the legacy backfill. Rerunning the same file changes nothing. Rows are accounted for in the
cutover ledger (npm run cutover -- report). A row that cannot be read or holds a bad value is rejected (printed with its line and
reason) and the import goes on.

Columns (studios): id, name, description, address, city, state, country, lat, lng, price_range, rating, reviews_count, styles
  (separated by , ; or |), is_verified, is_featured, status, created_at, updated_at
Columns (artists): id, studio_id (a runtime studio id or a studio id of an imported file), name, bio, specialties,
  years_experience, hourly_rate, is_active, created_at, updated_at`,
  'npm run import --',
  {
    allowPositionals: true,
    options: {
      kind: { type: 'string', description: 'studios or artists (default: artists when the file name says so, else studios)' },
      format: { type: 'string', description: 'csv or ndjson (default: from the file name)' },
      'batch-size': { type: 'string', default: '1000', description: 'rows per batch' },
    },
  },
);
const fail = (m: string): never => {
  console.error(m);
  process.exit(64);
};
const [file] = positionals;
if (!file || positionals.length !== 1) fail('give exactly one file: npm run import -- studios.csv');
if (!fs.existsSync(file!)) fail(`no such file: ${file}`);
const kind = (values.kind ?? kindOf(file!)) as ImportKind;
const format = (values.format ?? formatOf(file!)) as ImportFormat;
if (!['studios', 'artists'].includes(kind)) fail('--kind must be studios or artists (default: artists when the file name says so)');
if (!['csv', 'ndjson'].includes(format)) fail('--format must be csv or ndjson (default: from the file extension)');
const batchSize = Number(values['batch-size']);
if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000) fail('--batch-size must be a whole number from 1 to 50000');

/** Rejected rows printed one by one (the rest are counted). */
const SHOWN = 50;

const cfg = loadConfigOrExit(toolConfigSchema);
const url = databaseUrlOf(cfg);
const sql = createSql(url, { max: 2 });
console.log(`runtime store: ${whereOf(url)}; importing ${kind} from ${file} (${format})`);
try {
  await sql`select 1`.catch((err: unknown) => {
    throw new Error(connectionProblem(url, err));
  });
  const s = await importFile(sql, file!, { kind, format, batchSize, onProgress: (n) => process.stderr.isTTY && process.stderr.write(`\r${n} records`) });
  if (process.stderr.isTTY) process.stderr.write('\n');
  console.log(`${s.rows} ${kind} records from ${s.authority}:`);
  for (const o of s.outcomes) console.log(`  ${o.outcome.padEnd(9)} ${(o.reason ?? '').padEnd(30)} ${o.n}`);
  if (s.rejected.length) console.log(`rejected rows (line, record, key: reason and note):`);
  for (const r of s.rejected.slice(0, SHOWN)) console.log(`  line ${r.line}, record ${r.record}, ${r.key}: ${r.reason}${r.notes.length ? ` (${r.notes.join(', ')})` : ''}`);
  if (s.rejected.length > SHOWN) console.log(`  ... and ${s.rejected.length - SHOWN} more (every one is in the ledger: npm run cutover -- report)`);
} catch (err) {
  console.error(`error: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
