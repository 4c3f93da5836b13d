// Webhook delivery workflows. `webhookEndpoint`: one per endpoint; it runs the endpoint's deliverer
// (activities/webhooks.ts deliverEndpoint: a heartbeating activity that delivers the first open
// delivery of each submission, a few at a time, and keeps the retry schedule in PostgreSQL), then
// acts on how the run ended: sleeps until the next retry is due, waits for the dispatcher's signal
// after a quiet spell, or ends (endpoint deleted, or nothing came). A worker that dies mid-run is
// noticed by the heartbeat timeout and the run is retried elsewhere; its claims end with their lease.
// Deterministic code only: the database and the HTTP attempts are activities.
import { condition, continueAsNew, patched, proxyActivities, setDefaultSignalHandler, setHandler, workflowInfo } from '@temporalio/workflow';
import { WEBHOOK_BOUNDED_HISTORY_PATCH } from './compat';
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
/**
 * Wake-up signals per run before continue-as-new: well under the server's cap on signals per run
 * (temporal/limits.ts SIGNALS_PER_RUN), so the dispatcher's signal-with-start is never refused.
 */
export const SIGNALS_PER_HISTORY = 8;

export async function webhookEndpoint(input: WebhookEndpointInput): Promise<void> {
  let signalled = false;
  let signals = 0;
  setHandler(webhookDeliveriesSignal, () => {
    signalled = true;
    signals++;
  });
  // Any other signal is consumed and dropped, never buffered in the run (issue 55).
  setDefaultSignalHandler(() => {
    signals++;
  });
  // Continue as new when the server suggests it, or before the signal cap (the history stays small).
  // A run recorded before this rule (no marker) replays without it (workflows/compat.ts).
  const bounded = patched(WEBHOOK_BOUNDED_HISTORY_PATCH);
  const long = () => bounded && (signals >= SIGNALS_PER_HISTORY || workflowInfo().continueAsNewSuggested);
  const { deliverEndpoint } = proxyActivities<WebhookActivities>({
    // A run ends itself after 10 minutes; the heartbeat notices a dead worker within 20 s.
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: '20 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });
  for (let run = 0; run < RUNS_PER_HISTORY && !long(); run++) {
    signalled = false;
    const r = await deliverEndpoint({ endpointId: input.endpointId, retry: input.retry, concurrency: input.concurrency });
    if (r.outcome === 'gone') return;
    if (r.outcome === 'more' || signalled) continue;
    const woken = await condition(() => signalled || long(), `${r.outcome === 'wait' ? r.waitSeconds : input.idleSeconds} seconds`);
    if (!woken && r.outcome === 'idle') return;
  }
  await continueAsNew<typeof webhookEndpoint>(input);
}
