// One workflow per (endpoint, submission) lane: delivers the lane's webhook events one at a time,
// in event order (one activity claims the lane's first open delivery and makes an attempt), each
// retried by Temporal with exponential backoff until the retry window ends, then marked failed and
// the lane moves on. Signalled by the worker's dispatcher when the lane has
// new deliveries; ends after a quiet spell (a later event starts it again). Deterministic code
// only: the database and the HTTP attempts are activities (activities/webhooks.ts).
import { condition, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import type { WebhookActivities, WebhookRetry } from '../activities/types';
import { webhookDeliveriesSignal } from './messages';

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
