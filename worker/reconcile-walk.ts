// The reconciler's walk: PostgreSQL lists the submissions that should have a running workflow
// (every open row), Temporal's visibility says which do. Oldest first, a page at a time after a
// checkpoint the reconciler keeps, back to the oldest after the newest, so every open row is
// looked at once a round however many are open. A page costs one SQL query and one list query.
import type { Client } from '@temporalio/client';
import type { Sql } from '../lib/db';
import { intakeWorkflowId } from '../workflows/messages';

/** An open row's place in the walk. */
export interface OpenRow {
  submissionId: string;
  /**
   * created_at as PostgreSQL writes it, and read back as text (postgres.js sends a timestamptz
   * parameter through a Date, which would round the checkpoint to milliseconds and walk a row twice).
   */
  walkAt: string;
  /** Created less than `graceSeconds` ago: its create may still be starting its first run. */
  young: boolean;
}

/** At most `limit` open rows after `after`, oldest first. */
export function openRowsAfter(sql: Sql, after: OpenRow | undefined, limit: number, graceSeconds: number): Promise<OpenRow[]> {
  return sql<OpenRow[]>`
    select submission_id, created_at::text as walk_at, created_at > now() - make_interval(secs => ${graceSeconds}) as young
    from submissions
    -- the flag the transition writer sets (lifecycle.ts stateFlagsOf): the plan reads the partial index submissions_open_walk
    where is_open
      ${after ? sql`and (created_at, submission_id) > (${after.walkAt}::text::timestamptz, ${after.submissionId})` : sql``}
    order by created_at, submission_id
    limit ${limit}`;
}

/**
 * Running intake runs whose submissions are final in PostgreSQL: what a Temporal the stack left and
 * came back to still holds (its runs waited for decisions taken on another one), final for two
 * minutes at least. At most `limit`
 * runs looked at, 100 rows read at a time.
 */
export async function staleRuns(client: Client, sql: Sql, limit: number): Promise<{ submissionId: string; runId: string; intakeStatus: string }[]> {
  const stale: { submissionId: string; runId: string; intakeStatus: string }[] = [];
  let batch: { submissionId: string; runId: string }[] = [];
  const flush = async () => {
    if (!batch.length) return;
    // Final for two minutes at least: a run finishing its last task after its final transition is not stale.
    const rows = await sql<{ submissionId: string; intakeStatus: string; isOpen: boolean }[]>`
      select submission_id, intake_status, is_open from submissions
      where submission_id = any(${batch.map((b) => b.submissionId)}) and updated_at < now() - interval '2 minutes'`;
    const final = new Map(rows.filter((r) => !r.isOpen).map((r) => [r.submissionId, r.intakeStatus]));
    for (const b of batch) if (final.has(b.submissionId)) stale.push({ ...b, intakeStatus: final.get(b.submissionId)! });
    batch = [];
  };
  let looked = 0;
  for await (const run of client.workflow.list({ query: `WorkflowType = 'portfolioIntake' AND ExecutionStatus = 'Running'`, pageSize: 100 })) {
    batch.push({ submissionId: run.workflowId.slice(ID_PREFIX.length), runId: run.runId });
    if (batch.length >= 100) await flush();
    if (++looked >= limit) break;
  }
  await flush();
  return stale;
}

/** Ids that go into a visibility query as they are; any other is described on its own. */
const QUOTABLE = /^[\w.:-]+$/;
const ID_PREFIX = intakeWorkflowId('');

/** The submissions among `submissionIds` whose intake workflow visibility lists as running: one list query. */
export async function runningAmong(client: Client, submissionIds: string[]): Promise<Set<string>> {
  const quoted = submissionIds.filter((id) => QUOTABLE.test(id)).map((id) => `'${intakeWorkflowId(id)}'`);
  const running = new Set<string>();
  if (!quoted.length) return running;
  const query = `WorkflowType = 'portfolioIntake' AND ExecutionStatus = 'Running' AND WorkflowId IN (${quoted.join(', ')})`;
  // One running run per workflow id at most: the listing ends within the page.
  for await (const run of client.workflow.list({ query, pageSize: quoted.length })) {
    running.add(run.workflowId.slice(ID_PREFIX.length));
    if (running.size >= quoted.length) break;
  }
  return running;
}
