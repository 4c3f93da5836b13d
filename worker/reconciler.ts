// A workflow that is gone is not a wedge. Temporal can lose an intake run that the row still shows
// open: an operator terminated it, it failed, a flood pushed it past a history limit, or this
// Temporal never knew it (a lost temporal.db, a new cluster, a restored database). The reconciler
// starts from PostgreSQL: every pass walks the next open rows (worker/reconcile-walk.ts), asks
// visibility which of them have a running run, describes the others, and for each whose run is
// closed or unknown starts a new run from the row's recorded state (same workflow id) and writes
// an audit row in intake_resumptions.
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { Counter, type Registry } from 'prom-client';
import type { Sql, Tx } from '../lib/db';
import type { DecisionKeys } from '../lib/intake/decision-check';
import { DECIDING, type DecidingStatus } from '../lib/intake/decisions';
import { OPEN, transitionOf, type Transition } from '../lib/intake/lifecycle';
import { findSubmission, type SubmissionRow } from '../lib/intake/submissions';
import { applyTransition } from '../lib/intake/transitions';
import type { Logger } from '../lib/logger';
import { startIntakeRun } from '../temporal/intake-start';
import { intakeWorkflowId, type IntakeResume } from '../workflows/messages';
import { openRowsAfter, runningAmong, staleRuns, type OpenRow } from './reconcile-walk';

/**
 * Resumptions of one submission after which a new run is not expected to help (something keeps
 * closing its runs): a submission still waiting for its upload or its verification is then ended
 * in a recorded state. One waiting for a human decision keeps being resumed: its decision is a
 * person's, and any new run can take it.
 */
export const MAX_RESUMPTIONS = 3;
/** Open rows per visibility query (its `WorkflowId IN (...)` list). */
const PAGE = 100;
/** Running runs the first pass after a worker start looks at for stale ones (their rows final). */
const STALE_SWEEP_LIMIT = 20_000;
/** How closed runs are named in intake_resumptions.closed_as when Temporal has no run of the id. */
const NOT_FOUND = 'not_found';
/** Closed as these, a run gives way to a new one (the reuse policy ALLOW_DUPLICATE_FAILED_ONLY agrees). */
const RESUMABLE = ['terminated', 'failed', 'timed_out', 'cancelled', NOT_FOUND];

export interface ReconcilerOptions {
  sql: Sql;
  client: Client;
  taskQueue: string;
  everySeconds: number;
  /** Open rows looked at per pass; the next pass carries on after the last one. */
  rowsPerPass: number;
  /** A row younger than this without any run is left to its create, which may still be starting it. */
  graceSeconds?: number;
  decisionKeys: DecisionKeys;
  log: Logger;
  registry?: Registry | undefined;
}

export interface Reconciler {
  /** One pass now (tests; the interval runs it too). Answers the submissions resumed or ended. */
  pass(): Promise<string[]>;
  stop(): Promise<void>;
}

/** The run Temporal holds for the id now: none, running, or closed as `closedAs`. */
type LatestRun = { closedAs: 'running' } | { closedAs: string; runId: string | null };
type Outcome = 'resumed' | 'ended' | 'not_resumable' | 'left';

const goneAs = (closedAs: string) => (closedAs === NOT_FOUND ? 'unknown to this Temporal' : closedAs);

type Resumable = IntakeResume['intakeStatus'];
type ResumeFrom = (sql: Sql, row: SubmissionRow, base: Pick<IntakeResume, 'uploadDeadline' | 'why'>) => Promise<IntakeResume | undefined>;
const fromVerified: ResumeFrom = async (_sql, row, base) =>
  row.verifiedSha256 ? { intakeStatus: row.intakeStatus as DecidingStatus | 'promoting', sha256: row.verifiedSha256, ...base } : undefined;

/**
 * How a new run starts from each open state of the lifecycle (lib/intake/lifecycle.ts OPEN):
 * total over them, which test/unit/work-steps.test.ts holds, so a new open state cannot be
 * silently left unresumed.
 */
export const RESUME_FROM: { [S in Resumable]: ResumeFrom } = {
  staged: async (_sql, _row, base) => ({ intakeStatus: 'staged', ...base }),
  verifying: async (sql, row, base) => {
    const [by] = await sql<{ actorId: string; credentialId: string }[]>`
      select actor_id, credential_id from intake_events where submission_id = ${row.submissionId} and to_status = 'verifying'`;
    return { intakeStatus: 'verifying', ...base, ...(by ? { uploadedBy: by } : {}) };
  },
  // Every state a decision is taken in (awaiting_review and each held state: lib/intake/decisions.ts DECIDING).
  ...(Object.fromEntries(DECIDING.map((s) => [s, fromVerified])) as Record<DecidingStatus, ResumeFrom>),
  promoting: fromVerified,
};

async function resumeOf(sql: Sql, row: SubmissionRow, closedAs: string): Promise<IntakeResume | undefined> {
  const base = { uploadDeadline: (row.uploadDeadlineAt ?? new Date()).toISOString(), why: `resumed after its run was ${goneAs(closedAs)}` };
  const from = RESUME_FROM[row.intakeStatus as Resumable] as ResumeFrom | undefined;
  return from ? from(sql, row, base) : undefined;
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
  const graceSeconds = o.graceSeconds ?? 60;
  const counted = new Counter({
    name: 'intake_runs_resumed_total',
    help: 'Open submissions whose workflow run was gone (terminated, failed, timed out, cancelled, or not_found: unknown to this Temporal), by how the run closed and what the reconciler did (resumed: a new run took over; ended: the row was ended in a recorded state after repeated closing; not_resumable: left open, for the reason given; stale_terminated: a run still running for a submission final in PostgreSQL, terminated at the worker\'s start).',
    labelNames: ['closed_as', 'outcome', 'reason'] as const,
    registers: o.registry ? [o.registry] : [],
  });
  /** Submissions reported not resumable by this process: each is logged and counted once, not every round. */
  const reported = new Set<string>();
  /** The walk's checkpoint: the last open row looked at (undefined: start from the oldest). */
  let after: OpenRow | undefined;

  async function latestRun(submissionId: string): Promise<LatestRun> {
    try {
      const d = await o.client.workflow.getHandle(intakeWorkflowId(submissionId)).describe();
      return d.status.name === 'RUNNING' || d.status.name === 'PAUSED' ? { closedAs: 'running' } : { closedAs: d.status.name.toLowerCase(), runId: d.runId };
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return { closedAs: NOT_FOUND, runId: null };
      throw err;
    }
  }

  function notResumable(row: SubmissionRow, run: { closedAs: string; runId: string | null }, reason: string, why: string): Outcome {
    const key = `${row.submissionId} ${run.runId ?? ''} ${reason}`;
    if (reported.has(key)) return 'not_resumable';
    if (reported.size >= 10_000) reported.clear();
    reported.add(key);
    counted.inc({ closed_as: run.closedAs, outcome: 'not_resumable', reason });
    o.log.error({ submissionId: row.submissionId, intakeStatus: row.intakeStatus, closedAs: run.closedAs, closedRunId: run.runId, reason }, `open submission not resumable (${reason}): ${why}`);
    return 'not_resumable';
  }

  async function audit(sql: Tx, row: SubmissionRow, run: { closedAs: string; runId: string | null }, newRunId: string | null, note: string) {
    await sql`
      insert into intake_resumptions (submission_id, closed_run_id, closed_as, resumed_from, new_run_id, note)
      values (${row.submissionId}, ${run.runId}, ${run.closedAs}, ${row.intakeStatus}, ${newRunId}, ${note})
      on conflict (submission_id, closed_run_id) do nothing`;
  }

  async function reconcile(open: OpenRow): Promise<Outcome> {
    const { submissionId } = open;
    const row = await findSubmission(o.sql, submissionId);
    if (!row || !OPEN.includes(row.intakeStatus)) return 'left'; // decided since the page was read
    const run = await latestRun(submissionId);
    if (!('runId' in run)) return 'left';
    if (run.closedAs === NOT_FOUND && open.young) return 'left';
    const gone = goneAs(run.closedAs);
    if (!RESUMABLE.includes(run.closedAs))
      return notResumable(row, run, `run_${run.closedAs}`, `its latest run is ${gone}; a new run would act again on what that run did (a restored database?)`);
    const [earlier] = await o.sql<{ n: number }[]>`select count(*)::int as n from intake_resumptions where submission_id = ${submissionId}`;
    const note = `ended: its workflow runs kept closing (${earlier!.n} resumptions, the last ${gone})`;
    const end = earlier!.n >= MAX_RESUMPTIONS ? endOf(row, note) : undefined;
    if (end) {
      const ended = await o.sql.begin(async (tx) => {
        if (!(await applyTransition(tx, end))) return false; // another reconciler, or a run, moved it first
        await audit(tx, row, run, null, note);
        return true;
      });
      if (!ended) return 'left';
      counted.inc({ closed_as: run.closedAs, outcome: 'ended' });
      o.log.error({ submissionId, closedAs: run.closedAs, endedAs: end.to }, `intake ${note}; ended as ${end.to}`);
      return 'ended';
    }
    const resume = await resumeOf(o.sql, row, run.closedAs);
    if (!resume) return notResumable(row, run, 'no_recorded_state', `its run is ${gone} and the row records no state to resume from`);
    let runId: string;
    try {
      ({ runId } = await startIntakeRun({
        client: o.client,
        taskQueue: o.taskQueue,
        row,
        input: { uploadDeadlineSeconds: Math.max(0, Math.ceil((Date.parse(resume.uploadDeadline) - Date.now()) / 1000)), decisionKeys: o.decisionKeys, resume },
        reusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      }));
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return 'left'; // another worker's reconciler, or the create, was first
      throw err;
    }
    await audit(o.sql, row, run, runId, resume.why);
    counted.inc({ closed_as: run.closedAs, outcome: 'resumed' });
    o.log.warn({ submissionId, closedRunId: run.runId, closedAs: run.closedAs, resumedFrom: row.intakeStatus, runId }, `intake ${resume.why}; resumed from ${row.intakeStatus}`);
    return 'resumed';
  }

  /** The next open rows, at most rowsPerPass: those without a running run are reconciled. */
  async function pass(): Promise<string[]> {
    await sweepStaleRuns();
    const done: string[] = [];
    const tally = { looked: 0, resumed: 0, ended: 0, not_resumable: 0, left: 0, failed: 0 };
    for (let budget = o.rowsPerPass; budget > 0; ) {
      const limit = Math.min(PAGE, budget);
      const page = await openRowsAfter(o.sql, after, limit, graceSeconds);
      budget -= limit;
      tally.looked += page.length;
      const running = page.length ? await runningAmong(o.client, page.map((r) => r.submissionId)) : new Set<string>();
      for (const open of page.filter((r) => !running.has(r.submissionId))) {
        try {
          const outcome = await reconcile(open);
          tally[outcome]++;
          if (outcome === 'resumed' || outcome === 'ended') done.push(open.submissionId);
        } catch (err) {
          tally.failed++;
          o.log.error({ err, submissionId: open.submissionId }, 'could not resume an intake whose run was gone; a later pass tries again');
        }
      }
      // Past the page only once it was looked at (a pass that failed before takes it again). A
      // short page ends at the newest open row: the next page starts from the oldest again.
      after = page.length < limit ? undefined : page.at(-1);
      if (!after) break;
    }
    if (done.length || tally.not_resumable || tally.failed) o.log.info(tally, `reconciler pass: ${tally.looked} open submissions looked at, ${tally.resumed} resumed, ${tally.ended} ended, ${tally.not_resumable} not resumable, ${tally.failed} failed`);
    return done;
  }

  /**
   * Once per worker start (a switch of Temporal restarts the workers): the runs this Temporal still
   * holds for submissions already final in PostgreSQL (decided while the stack ran on another one)
   * are terminated, so no stale run waits for a decision or shows in on-call's queries.
   */
  let staleSwept = false;
  async function sweepStaleRuns(): Promise<void> {
    if (staleSwept) return;
    const stale = await staleRuns(o.client, o.sql, STALE_SWEEP_LIMIT);
    for (const r of stale) {
      try {
        await o.client.workflow.getHandle(intakeWorkflowId(r.submissionId), r.runId).terminate(`stale run: the submission is ${r.intakeStatus} in PostgreSQL (decided while the stack ran on another Temporal)`);
        counted.inc({ closed_as: 'running', outcome: 'stale_terminated', reason: 'row_final' });
        o.log.warn({ submissionId: r.submissionId, runId: r.runId, intakeStatus: r.intakeStatus }, 'stale run terminated: its submission is final in PostgreSQL');
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err; // it ended meanwhile
      }
    }
    staleSwept = true;
  }

  let running: Promise<unknown> = Promise.resolve();
  /** A tick while the interval's last pass still runs (many resumptions) is skipped, not queued behind it. */
  let ticking = false;
  const timer = o.everySeconds > 0
    ? setInterval(() => {
        if (ticking) return;
        ticking = true;
        running = running
          .catch(() => {})
          .then(pass)
          .catch((err: unknown) => o.log.warn({ err }, 'reconciler pass failed; the next one tries again'))
          .finally(() => (ticking = false));
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
