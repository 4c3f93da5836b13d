// `npm run cutover -- <command>`: bring the legacy directory into the runtime store and switch reads
// over (docs/cutover.md). The legacy store is only read, in read-only transactions.
import os from 'node:os';
import { parseCli } from '../lib/cli';
import { databaseUrlOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { connectionProblem, openLegacy, whereOf } from '../lib/cutover/connection';
import { legacyCounts } from '../lib/cutover/legacy-source';
import { runProgress } from '../lib/cutover/progress';
import { formatReport, readReport } from '../lib/cutover/report';
import { backfill, delta } from '../lib/cutover/runs';
import { deferredIndexes } from '../lib/cutover/deferred-indexes';
import { httpAllowedIn } from '../lib/cutover/urls';
import { effectiveStage, setStage, STAGES, storedStage, type Stage } from '../lib/cutover/stage';
import { createSql } from '../lib/db';

const ABOUT = `Moves the directory from the legacy store (LEGACY_DATA_URL, read-only) into the runtime store (DATABASE_URL).

commands:
  backfill          copy every legacy studio, artist, portfolio item and design through the normalization path;
                    resumes an unfinished backfill; rerun after it finished: changes nothing.
                    Into an empty runtime store it loads in bulk: secondary indexes and search documents
                    are built at the end (--keep-indexes: row by row into the indexed tables instead)
  delta             re-read legacy rows updated or soft-deleted since the last finished backfill or delta
  report            counts by outcome (imported / merged / rejected) and reason, and what normalization changed
  stage <name>      switch reads: ${STAGES.join(' | ')} (every API replica follows within seconds)
  status            the stored and effective stage, and indexes a killed bulk load left to build`;

const { values, positionals } = parseCli(ABOUT, 'npm run cutover --', {
  allowPositionals: true,
  options: {
    'batch-size': { type: 'string', default: '2000', description: 'rows per backfill / delta batch' },
    'keep-indexes': { type: 'boolean', default: false, description: 'backfill: no bulk load into an empty store (its indexes stay, its reads stay fast during the run)' },
  },
});
const usage = (m: string): never => {
  console.error(`${m}\n(npm run cutover -- --help)`);
  process.exit(64);
};
const [command, arg] = positionals;
const batchSize = Number(values['batch-size']);
if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000) usage('--batch-size must be a whole number from 1 to 50000');
if (!command || !['backfill', 'delta', 'report', 'stage', 'status'].includes(command)) usage(`unknown command ${command ?? '(none)'}`);
if (command === 'stage' && !STAGES.includes(arg as Stage)) usage(`stage must be one of ${STAGES.join(', ')}`);

const cfg = loadConfigOrExit(toolConfigSchema);
const runtimeUrl = databaseUrlOf(cfg);
const legacyUrl = cfg.LEGACY_DATA_URL;
const needsLegacy = command === 'backfill' || command === 'delta';
if (needsLegacy && !legacyUrl) usage('LEGACY_DATA_URL is not set: there is no legacy store to read (owners without one: npm run import)');

const sql = createSql(runtimeUrl, { max: 4 });
const legacy = legacyUrl ? openLegacy(legacyUrl) : undefined;
console.log(`runtime store: ${whereOf(runtimeUrl)}${legacyUrl ? `; legacy store: ${whereOf(legacyUrl)} (read-only)` : '; no legacy store configured'}`);

/** Reach a store, or say which one (host:port/db) could not be reached, and stop. */
async function reach(db: typeof sql, url: string) {
  try {
    await db`select 1`;
  } catch (err) {
    console.error(connectionProblem(url, err));
    await Promise.all([sql.end({ timeout: 1 }), legacy?.end({ timeout: 1 })]);
    process.exit(1);
  }
}
await reach(sql, runtimeUrl);
if (legacy && legacyUrl && (needsLegacy || command === 'report')) await reach(legacy, legacyUrl);

try {
  if (command === 'backfill' || command === 'delta') {
    const progress = runProgress();
    try {
      const s = await (command === 'backfill' ? backfill : delta)({ sql, legacy: legacy!, batchSize, allowHttp: httpAllowedIn(cfg), bulk: !values['keep-indexes'], onProgress: progress.onProgress, log: progress.log });
      progress.stop();
      console.log(
        `${s.kind} #${s.runId}${s.resumed ? ' (resumed)' : ''}: ${Object.entries(s.rows).map(([t, n]) => `${n} ${t}`).join(', ')}${s.kind === 'delta' ? `, ${s.deletions} deletions applied` : ''}${s.indexesBuilt ? `, ${s.indexesBuilt} deferred indexes built` : ''} in ${(s.ms / 1000).toFixed(1)} s. Details: npm run cutover -- report`,
      );
    } finally {
      progress.stop();
    }
  } else if (command === 'report') {
    const counts = legacy ? await legacyCounts(legacy) : undefined;
    console.log(formatReport(await readReport(sql), counts));
  } else if (command === 'stage') {
    const { from, to } = await setStage(sql, arg as Stage, `${os.userInfo().username}@${os.hostname()}`);
    // With no stage stored, the API read the effective one (legacy_authoritative while a legacy store is configured): that is what undo returns to.
    const before = from ?? effectiveStage(null, legacyUrl !== undefined);
    console.log(`stage: ${from ?? `(none stored; effective ${before})`} -> ${to}${legacyUrl ? '' : ' (stored; without LEGACY_DATA_URL the API stays runtime_authoritative)'}. Undo: npm run cutover -- stage ${before}`);
  } else {
    const stored = await storedStage(sql);
    console.log(`stored stage: ${stored ?? '(none)'}; effective: ${effectiveStage(stored, legacyUrl !== undefined)}`);
    const pending = await deferredIndexes(sql);
    if (pending.length)
      console.log(`indexes deferred by backfill #${[...new Set(pending.map((p) => p.runId))].join(', #')} and not built yet: ${pending.length} (${[...new Set(pending.map((p) => p.tableName))].join(', ')}); the next backfill or delta builds them`);
  }
} catch (err) {
  console.error(`error: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await Promise.all([sql.end({ timeout: 5 }), legacy?.end({ timeout: 5 })]);
}
