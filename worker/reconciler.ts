// A workflow that is gone is not a wedge. Temporal can close an intake run that the row still
// shows open: an operator terminated it, it failed, or a flood pushed it past a history limit.
// Every pass this looks, in Temporal's visibility, for intake runs closed that way; for each whose
// submission is still open in PostgreSQL and has no running run, it starts a new run from the
// row's recorded state (same workflow id) and writes an audit row in intake_resumptions.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { Counter, type Registry } from 'prom-client';
import type { Sql } from '../lib/db';
import type { DecisionKeys } from '../lib/intake/decision-check';
import { OPEN } from '../lib/intake/lifecycle';
import { transitionOf, type Transition } from '../lib/intake/lifecycle';
import { findSubmission, type SubmissionRow } from '../lib/intake/submissions';
import { applyTransition } from '../lib/intake/transitions';
import type { Logger } from '../lib/logger';
import { startIntakeRun } from '../temporal/intake-start';
import { intakeWorkflowId, type IntakeResume } from '../workflows/messages';

/** Runs looked at per pass (the newest closed first); the next pass takes the rest. */
const MAX_PER_PASS = 200;
/**
 * Resumptions of one submission after which a new run is not expected to help (something keeps
 * closing its runs): a submission still waiting for its upload or its verification is then ended
 * in a recorded state. One waiting for a human decision keeps being resumed: its decision is a
 * person's, and any new run can take it.
 */
export const MAX_RESUMPTIONS = 3;
const ID_PREFIX = intakeWorkflowId('');

export interface ReconcilerOptions {
  sql: Sql;
  client: Client;
  taskQueue: string;
  everySeconds: number;
  /** How far back a closed run is looked at. */
  lookbackSeconds: number;
  decisionKeys: DecisionKeys;
  log: Logger;
  registry?: Registry | undefined;
}

export interface Reconciler {
  /** One pass now (tests; the interval runs it too). Answers the submissions resumed. */
  pass(): Promise<string[]>;
  stop(): Promise<void>;
}

async function resumeOf(sql: Sql, row: SubmissionRow, closedAs: string): Promise<IntakeResume | undefined> {
  const why = `resumed after its run was ${closedAs}`;
  const uploadDeadline = (row.uploadDeadlineAt ?? new Date()).toISOString();
  switch (row.intakeStatus) {
    case 'staged':
      return { intakeStatus: 'staged', uploadDeadline, why };
    case 'verifying': {
      const [by] = await sql<{ actorId: string; credentialId: string }[]>`
        select actor_id, credential_id from intake_events where submission_id = ${row.submissionId} and to_status = 'verifying'`;
      return { intakeStatus: 'verifying', uploadDeadline, why, ...(by ? { uploadedBy: by } : {}) };
    }
    case 'awaiting_review':
    case 'promoting':
      return row.verifiedSha256 ? { intakeStatus: row.intakeStatus, sha256: row.verifiedSha256, uploadDeadline, why } : undefined;
    default:
      return undefined;
  }
}

/** The recorded end of a submission whose runs keep closing, where one exists without a human. */
function endOf(row: SubmissionRow, note: string): Transition | undefined {
  const at = { intakeStatus: row.intakeStatus, reviewStatus: row.reviewStatus };
  const o = { submissionId: row.submissionId, note };
  if (row.intakeStatus === 'staged') return transitionOf(at, 'upload_window_passed', o);
  if (row.intakeStatus === 'verifying') return transitionOf(at, 'verification_failed', { ...o, facts: { failureCode: 'verification_error' } });
  return undefined;
}

export function startReconciler(o: ReconcilerOptions): Reconciler {
  const resumed = new Counter({
    name: 'intake_runs_resumed_total',
    help: 'Open submissions whose workflow run was gone (terminated, failed, timed out), by how the run closed and what the reconciler did (resumed: a new run took over; ended: the row was ended in a recorded state after repeated closing).',
    labelNames: ['closed_as', 'outcome'] as const,
    registers: o.registry ? [o.registry] : [],
  });

  async function resume(submissionId: string, closedRunId: string, closedAs: string): Promise<boolean> {
    const row = await findSubmission(o.sql, submissionId);
    if (!row || !OPEN.includes(row.intakeStatus)) return false;
    const latest = await o.client.workflow.getHandle(intakeWorkflowId(submissionId)).describe();
    if (latest.status.name === 'RUNNING') return false;
    const [earlier] = await o.sql<{ n: number }[]>`select count(*)::int as n from intake_resumptions where submission_id = ${submissionId}`;
    const end = earlier!.n >= MAX_RESUMPTIONS ? endOf(row, `ended: its workflow runs kept closing (${earlier!.n} resumptions, the last ${closedAs})`) : undefined;
    if (end) {
      await o.sql.begin(async (tx) => {
        await applyTransition(tx, end);
        await tx`
          insert into intake_resumptions (submission_id, closed_run_id, closed_as, resumed_from, new_run_id, note)
          values (${submissionId}, ${latest.runId}, ${closedAs}, ${row.intakeStatus}, null, ${end.note})
          on conflict (submission_id, closed_run_id) do nothing`;
      });
      resumed.inc({ closed_as: closedAs, outcome: 'ended' });
      o.log.error({ submissionId, closedAs, endedAs: end.to }, `intake ${end.note}; ended as ${end.to}`);
      return true;
    }
    const resume = await resumeOf(o.sql, row, closedAs);
    if (!resume) {
      o.log.error({ submissionId, intakeStatus: row.intakeStatus }, 'open submission with a closed run and no recorded state to resume from');
      return false;
    }
    let runId: string | null = null;
    try {
      ({ runId } = await startIntakeRun({
        client: o.client,
        taskQueue: o.taskQueue,
        row,
        input: { uploadDeadlineSeconds: Math.max(0, Math.ceil((Date.parse(resume.uploadDeadline) - Date.now()) / 1000)), decisionKeys: o.decisionKeys, resume },
        reusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      }));
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return false; // another worker's reconciler was first
      throw err;
    }
    await o.sql`
      insert into intake_resumptions (submission_id, closed_run_id, closed_as, resumed_from, new_run_id, note)
      values (${submissionId}, ${latest.runId}, ${closedAs}, ${row.intakeStatus}, ${runId}, ${resume.why})
      on conflict (submission_id, closed_run_id) do nothing`;
    resumed.inc({ closed_as: closedAs, outcome: 'resumed' });
    o.log.warn({ submissionId, closedRunId, closedAs, resumedFrom: row.intakeStatus, runId }, `intake ${resume.why}; resumed from ${row.intakeStatus}`);
    return true;
  }

  async function pass(): Promise<string[]> {
    const since = new Date(Date.now() - o.lookbackSeconds * 1000).toISOString();
    const query =
      `WorkflowType = 'portfolioIntake' AND CloseTime > '${since}' AND ` +
      `(ExecutionStatus = 'Terminated' OR ExecutionStatus = 'Failed' OR ExecutionStatus = 'TimedOut')`;
    const closed = new Map<string, { runId: string; closedAs: string }>();
    for await (const run of o.client.workflow.list({ query, pageSize: 100 })) {
      const submissionId = run.workflowId.startsWith(ID_PREFIX) ? run.workflowId.slice(ID_PREFIX.length) : undefined;
      if (submissionId && !closed.has(submissionId)) closed.set(submissionId, { runId: run.runId, closedAs: run.status.name.toLowerCase() });
      if (closed.size >= MAX_PER_PASS) break;
    }
    if (!closed.size) return [];
    const open = await o.sql<{ submissionId: string }[]>`
      select submission_id from submissions where submission_id = any(${[...closed.keys()]}) and intake_status = any(${[...OPEN]})`;
    const done: string[] = [];
    for (const { submissionId } of open) {
      const c = closed.get(submissionId)!;
      try {
        if (await resume(submissionId, c.runId, c.closedAs)) done.push(submissionId);
      } catch (err) {
        o.log.error({ err, submissionId }, 'could not resume an intake whose run was gone; the next pass tries again');
      }
    }
    return done;
  }

  let running: Promise<unknown> = Promise.resolve();
  const timer = o.everySeconds > 0
    ? setInterval(() => {
        running = running.catch(() => {}).then(pass).catch((err: unknown) => o.log.warn({ err }, 'reconciler pass failed; the next one tries again'));
      }, o.everySeconds * 1000)
    : undefined;
  timer?.unref();
  return {
    pass() {
      const p = running.catch(() => {}).then(pass);
      running = p;
      return p;
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running.catch(() => {});
    },
  };
}
