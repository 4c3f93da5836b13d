// What happened to every source row: counts by table and outcome, reasons, and what normalization
// changed (note codes), from the ledger.
import type { Sql } from '../db';

export interface CutoverReport {
  outcomes: { sourceTable: string; originAuthority: string; outcome: string; reason: string | null; n: number }[];
  notes: { note: string; n: number }[];
  recordStates: { recordState: string; n: number }[];
  runs: { id: string; kind: string; startedAt: Date; finishedAt: Date | null }[];
}

export async function readReport(sql: Sql): Promise<CutoverReport> {
  const [outcomes, notes, recordStates, runs] = await Promise.all([
    sql<CutoverReport['outcomes']>`
      select source_table, origin_authority, outcome, reason, count(*)::int as n from cutover_ledger group by 1, 2, 3, 4 order by 2, 1, 3, 4 nulls first`,
    sql<CutoverReport['notes']>`select note, count(*)::int as n from cutover_ledger, unnest(notes) note group by 1 order by 2 desc, 1`,
    sql<CutoverReport['recordStates']>`select record_state, count(*)::int as n from cutover_ledger where record_state is not null group by 1 order by 1`,
    sql<CutoverReport['runs']>`select id::text, kind, started_at, finished_at from cutover_runs order by id desc limit 5`,
  ]);
  return { outcomes, notes, recordStates, runs };
}

/** Counts per source table in the ledger (imported + merged + rejected). */
export function accountedFor(report: CutoverReport, authority: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of report.outcomes) if (o.originAuthority === authority) out[o.sourceTable] = (out[o.sourceTable] ?? 0) + o.n;
  return out;
}

export function formatReport(report: CutoverReport, legacyCounts?: Record<string, number>): string {
  const lines: string[] = ['Source rows by outcome (imported / merged into another record / rejected with a reason):'];
  for (const o of report.outcomes) lines.push(`  ${o.originAuthority.padEnd(24)} ${o.sourceTable.padEnd(16)} ${o.outcome.padEnd(9)} ${(o.reason ?? '').padEnd(30)} ${o.n}`);
  if (legacyCounts) {
    const acc = accountedFor(report, 'legacy_directory');
    lines.push('', 'Accounted for (ledger / legacy rows):');
    for (const [t, n] of Object.entries(legacyCounts)) lines.push(`  ${t.padEnd(16)} ${acc[t] ?? 0} / ${n}${(acc[t] ?? 0) === n ? '' : '  (incomplete: run backfill)'}`);
  }
  lines.push('', 'Record states:', ...report.recordStates.map((r) => `  ${r.recordState.padEnd(12)} ${r.n}`));
  lines.push('', 'What normalization changed (note: rows):', ...report.notes.map((n) => `  ${n.note.padEnd(40)} ${n.n}`));
  lines.push('', 'Last runs:', ...report.runs.map((r) => `  #${r.id} ${r.kind} started ${r.startedAt.toISOString()} ${r.finishedAt ? `finished ${r.finishedAt.toISOString()}` : 'unfinished (rerun to resume)'}`));
  return lines.join('\n');
}
