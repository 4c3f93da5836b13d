// Webhook delivery workflows. `webhookEndpoint`: one per endpoint; it runs the endpoint's deliverer
// (activities/webhooks.ts deliverEndpoint: a heartbeating activity that delivers the first open
// delivery of each submission, a few at a time, and keeps the retry schedule in PostgreSQL), then
// acts on how the run ended: sleeps until the next retry is due, waits for the dispatcher's signal
// after a quiet spell, or ends (endpoint deleted, or nothing came). A worker that dies mid-run is
// noticed by the heartbeat timeout and the run is retried elsewhere; its claims end with their lease.
// `webhookLane` (one per endpoint and submission, an activity per attempt) is a compatibility item
// (workflows/compat.ts): open lanes run to their end as they were written.
// Deterministic code only: the database and the HTTP attempts are activities.
import { condition, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import type { WebhookActivities, WebhookRetry } from '../activities/types';
import { webhookDeliveriesSignal } from './messages';

export interface WebhookEndpointInput {
  endpointId: string;
  retry: WebhookRetry;
  /** After a quiet run, wait this many seconds for a signal before ending. */
  idleSeconds: number;
  /** Submissions delivered at once (one delivery in flight per submission: their order holds). */
  concurrency: number;
}

/** Deliverer runs per workflow run before continue-as-new, so the history stays short. */
const RUNS_PER_HISTORY = 100;

export async function webhookEndpoint(input: WebhookEndpointInput): Promise<void> {
  let signalled = false;
  setHandler(webhookDeliveriesSignal, () => {
    signalled = true;
  });
  const { deliverEndpoint } = proxyActivities<WebhookActivities>({
    // A run ends itself after 10 minutes; the heartbeat notices a dead worker within 20 s.
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: '20 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });
  for (let run = 0; run < RUNS_PER_HISTORY; run++) {
    signalled = false;
    const r = await deliverEndpoint({ endpointId: input.endpointId, retry: input.retry, concurrency: input.concurrency });
    if (r.outcome === 'gone') return;
    if (r.outcome === 'more' || signalled) continue;
    const woken = await condition(() => signalled, `${r.outcome === 'wait' ? r.waitSeconds : input.idleSeconds} seconds`);
    if (!woken && r.outcome === 'idle') return;
  }
  await continueAsNew<typeof webhookEndpoint>(input);
}

export interface WebhookLaneInput {
  endpointId: string;
  submissionId: string;
  retry: WebhookRetry;
  /** End after this many seconds without a new delivery. */
  idleSeconds: number;
}

/** Deliveries per run before continue-as-new, so a lane's history stays short. */
const DELIVERIES_PER_RUN = 100;

export async function webhookLane(input: WebhookLaneInput): Promise<void> {
  let signalled = false;
  setHandler(webhookDeliveriesSignal, () => {
    signalled = true;
  });
  const books = proxyActivities<WebhookActivities>({
    startToCloseTimeout: '10 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });
  const sender = proxyActivities<WebhookActivities>({
    // One attempt is at most 5 s of HTTP plus the bookkeeping around it.
    startToCloseTimeout: '15 seconds',
    scheduleToCloseTimeout: `${input.retry.windowSeconds} seconds`,
    retry: {
      initialInterval: `${input.retry.initialSeconds} seconds`,
      backoffCoefficient: 2,
      maximumInterval: `${input.retry.maxIntervalSeconds} seconds`,
      nonRetryableErrorTypes: ['TargetRefused'],
    },
  });
  const lane = { endpointId: input.endpointId, submissionId: input.submissionId };
  for (let i = 0; i < DELIVERIES_PER_RUN; i++) {
    signalled = false;
    let outcome: 'idle' | 'delivered';
    try {
      outcome = await sender.deliverNext({ lane, retry: input.retry });
    } catch (err) {
      // The retry window ran out (or the target is refused): that delivery is failed, the lane goes on.
      const failure = err as { message?: string; cause?: { message?: string; cause?: { message?: string } } };
      await books.failLaneHead({ lane, reason: failure.cause?.cause?.message ?? failure.cause?.message ?? failure.message ?? 'retry window ended' });
      continue;
    }
    if (outcome === 'idle' && !(await condition(() => signalled, `${input.idleSeconds} seconds`))) return;
  }
  await continueAsNew<typeof webhookLane>(input);
}
