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
