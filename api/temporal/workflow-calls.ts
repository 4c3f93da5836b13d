// The intake routes' Temporal calls, once: every call has a deadline, and "unreachable" and "not
// found" map to HTTP here. Start, signal and query are the only ways the routes touch a workflow.
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client, type Connection } from '@temporalio/client';
import { status as grpcStatus } from '@grpc/grpc-js';
import type { SubmissionRow } from '../../lib/intake/submissions';
import { startIntakeRun } from '../../temporal/intake-start';
import { intakeWorkflowId } from '../../workflows/messages';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { probeDepsOf, workerPolls } from '../health/probes';

const UNAVAILABLE_CODES = new Set<number>([grpcStatus.UNAVAILABLE, grpcStatus.DEADLINE_EXCEEDED, grpcStatus.CANCELLED, grpcStatus.RESOURCE_EXHAUSTED]);

const REFUSED_CODES = new Set<number>([grpcStatus.PERMISSION_DENIED, grpcStatus.UNAUTHENTICATED]);

const workflowUnavailable = (detail: string) => new AppError('workflow_unavailable', detail, { headers: { 'Retry-After': '5' } });

export async function withTemporal<T>(temporal: { client: Client; connection: Connection }, deadlineMs: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await temporal.connection.withDeadline(new Date(Date.now() + deadlineMs), fn);
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof WorkflowNotFoundError) throw new AppError('not_found', 'No such submission.');
    const e = err as { code?: number; cause?: { code?: number } };
    const code = e.code ?? e.cause?.code;
    // The gRPC error stays as the cause: a signal route tells "never sent" from "sent, no answer" by it.
    if (code !== undefined && UNAVAILABLE_CODES.has(code)) throw Object.assign(workflowUnavailable('The workflow service is unreachable; retry shortly.'), { cause: err });
    // The frontend's authorizer refused this service's own token (TEMPORAL_AUTH=jwt: a key the server
    // does not trust, a token past its time): the service cannot act for now, the client did nothing wrong.
    if (code !== undefined && REFUSED_CODES.has(code)) throw Object.assign(workflowUnavailable('The workflow service refused this service\'s credentials; retry shortly.'), { cause: err });
    throw err;
  }
}

/**
 * A Temporal call from a route; failures (not "not found") count in temporal_call_failures_total{operation}.
 * `deadlineMs`: the call's own bound, when it waits on the workflow (TEMPORAL_RPC_DEADLINE_MS otherwise).
 */
export async function temporalCall<T>(deps: AppDeps, operation: 'start' | 'signal' | 'update' | 'query' | 'execute', fn: () => Promise<T>, deadlineMs = deps.cfg.TEMPORAL_RPC_DEADLINE_MS): Promise<T> {
  try {
    return await withTemporal(deps.temporal, deadlineMs, fn);
  } catch (err) {
    if (!(err instanceof AppError) || err.code === 'workflow_unavailable') deps.metrics.temporalFailure(operation);
    throw err;
  }
}

export const intakeHandle = (deps: AppDeps, submissionId: string) => deps.temporal.client.workflow.getHandle(intakeWorkflowId(submissionId));

/**
 * A signal is accepted by Temporal even when no worker runs, and nothing would act on it: the
 * signal routes answer 503 instead, by the readiness rule (a poller seen within the window whose
 * worker has not announced its shutdown). Asks the Temporal server, not the worker, so it costs
 * no worker time however busy the worker is. The answer is shared (sharedWorkerCheck): under load
 * the check's two calls cost more than the Update they guard.
 */
export async function requireWorker(deps: AppDeps): Promise<void> {
  if (!(await workerCheckOf(deps)())) {
    deps.metrics.temporalFailure('worker_check');
    throw workflowUnavailable('No worker is polling the intake task queue; retry shortly.');
  }
}

/** This app's shared check (one per AppDeps: per API process, per test stack). */
const workerChecks = new WeakMap<AppDeps, () => Promise<boolean>>();
function workerCheckOf(deps: AppDeps): () => Promise<boolean> {
  let check = workerChecks.get(deps);
  if (!check) {
    check = sharedWorkerCheck(async () => (await workerPolls(probeDepsOf(deps, deps.cfg.TEMPORAL_RPC_DEADLINE_MS))).ok, deps.cfg.WORKER_CHECK_REUSE_MS);
    workerChecks.set(deps, check);
  }
  return check;
}

/**
 * One worker check for many requests: requests that come while a check is on its way share it,
 * and a "worker there" answer stands for `reuseMs` from when it was asked (0: never). "No worker"
 * is never reused: the next request asks again, so a worker that is back is seen at once. A worker
 * that stopped within `reuseMs` of the last check may still be counted: the request then waits
 * for its Update up to the Temporal deadline and answers 202 `pending` (nothing lost; the client
 * retries with the same request id).
 */
export function sharedWorkerCheck(check: () => Promise<boolean>, reuseMs: number, now: () => number = () => performance.now()): () => Promise<boolean> {
  let asking: Promise<boolean> | undefined;
  let thereUntil = -Infinity;
  return () => {
    if (now() < thereUntil) return Promise.resolve(true);
    if (!asking) {
      const askedAt = now();
      asking = check().then(
        (there) => {
          thereUntil = there ? askedAt + reuseMs : -Infinity;
          return there;
        },
      ).finally(() => (asking = undefined));
    }
    return asking;
  };
}

/** Start the submission's workflow (the file name is its Web UI summary); a retry after a crash between the row and the start lands on the same one. */
export async function startIntake(deps: AppDeps, row: SubmissionRow, fileName: string): Promise<void> {
  const { cfg } = deps;
  await temporalCall(deps, 'start', async () => {
    try {
      await startIntakeRun({
        client: deps.temporal.client,
        taskQueue: cfg.TEMPORAL_TASK_QUEUE,
        row,
        fileName,
        input: { uploadDeadlineSeconds: cfg.UPLOAD_URL_TTL_SECONDS + cfg.UPLOAD_GRACE_SECONDS, decisionKeys: deps.decisionSigner.decisionKeys },
        reusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err; // a closed run: nothing to heal
    }
  });
}
