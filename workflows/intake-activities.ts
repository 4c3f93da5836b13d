// How the intake run calls its activities: the work steps with a bounded retry, and the records
// nobody can retry into being with a day's patience.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { IntakeActivities } from '../activities/registered';

/** Attempts of a work step (about eight minutes of backoff) before it ends in a recorded state. */
export const STEP_ATTEMPTS = 20;

export const acts = proxyActivities<IntakeActivities>({
  // Each activity is seconds of work at most (hash and copy of up to 50 MiB, a few rows). The
  // timeout is also how long a task held by a crashed worker waits before its retry (fault suite
  // F1, F2), so it is kept short.
  startToCloseTimeout: '30 seconds',
  // Transient faults (storage or database briefly away) are retried, for about eight minutes;
  // permanent ones come back as results (verification, refused decisions) or non-retryable
  // failures. When the attempts run out, the step ends in a recorded state (IntakeRun.stalled).
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: STEP_ATTEMPTS },
});

/**
 * The work steps lifecycle.ts WORK marks `local` (verification, and in the current shape the
 * promotion): run by the worker inside the workflow task that took the upload-complete or the
 * approval, so the step costs one history event and no round trip through the server. Same timeout
 * and retry as `acts`; a worker that dies mid-step leaves the task to time out, and the next worker
 * runs the step again (both are idempotent).
 *
 * The request that entered the step is accepted only when that workflow task completes. So a step
 * that keeps failing (storage away) retries inside the task for 3 seconds at most (attempts at 0,
 * 1 and 3 s): a longer wait (LOCAL_RETRY_THRESHOLD) is a workflow timer, the task completes, the
 * request is accepted and the run shows where it is, and a worker stopping is not held by the
 * retries. The SDK's default (a minute of retries inside one task) would hold all three.
 */
const LOCAL_RETRY_THRESHOLD = '2 seconds';
export const localActs = proxyLocalActivities<IntakeActivities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: LOCAL_RETRY_THRESHOLD,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: STEP_ATTEMPTS },
});

/**
 * What records an outcome nobody can retry into being: a refused signal, a step whose attempts ran
 * out. Retried for up to a day (a database outage must not lose the record); past that the run
 * fails, which the Web UI lists as Failed.
 */
export const record = proxyActivities<IntakeActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '24 hours',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});
