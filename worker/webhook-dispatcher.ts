// The webhook dispatcher, beside the webhook worker: turns new events into deliveries (one per
// matching endpoint; the fan-out NOTIFYs the endpoints' running deliverers) and starts the deliverer
// of each endpoint that has deliveries and none running (signal-with-start of its webhookEndpoint
// workflow; a sleeping one just wakes). Woken by the events channel (LISTEN) and by a periodic sweep,
// which also restarts a deliverer whose workflow is gone while deliveries are overdue.
// Safe with several workers: fan-out claims events with SKIP LOCKED, and a workflow id is one endpoint.
import type { Client } from '@temporalio/client';
import type { WebhookRetry } from '../activities/types';
import type { Sql } from '../lib/db';
import type { Logger } from '../lib/logger';
import { EVENTS_CHANNEL } from '../lib/intake/outbox';
import { endpointsToDispatch, fanOut, markDispatched } from '../lib/webhooks/dispatch';
import { webhookDeliveriesSignal, webhookEndpointWorkflowId } from '../workflows/messages';
import { webhookEndpoint } from '../workflows/webhook-delivery';

const FAN_OUT_BATCH = 500;
/** Rounds per wake-up at most, so one pass is bounded in time too. */
const MAX_ROUNDS = 20;
const SIGNALS_AT_ONCE = 10;
/** How long a NOTIFY waits for the ones right behind it before the pass runs. */
const GATHER_MS = 100;

export interface DispatcherOptions {
  sql: Sql;
  client: Client;
  /** The webhook lane's task queue (WEBHOOK_TASK_QUEUE): new deliverers start there; one already running elsewhere just hears the signal. */
  taskQueue: string;
  retry: WebhookRetry;
  /** Submissions an endpoint's deliverer sends to at once (WEBHOOK_ENDPOINT_CONCURRENCY). */
  concurrency: number;
  sweepSeconds: number;
  idleSeconds: number;
  log: Logger;
}

export async function startWebhookDispatcher(o: DispatcherOptions): Promise<{ stop(): Promise<void> }> {
  let running: Promise<void> = Promise.resolve();
  let queued = false;
  let stopped = false;
  const pass = async () => {
    queued = false;
    try {
      for (let round = 0; round < MAX_ROUNDS && !stopped; round++) {
        const events = await fanOut(o.sql, FAN_OUT_BATCH);
        const endpoints = await endpointsToDispatch(o.sql, { staleSeconds: 60, limit: 200 });
        // Endpoints are independent: signalled a few at a time.
        for (let i = 0; i < endpoints.length; i += SIGNALS_AT_ONCE)
          await Promise.all(
            endpoints.slice(i, i + SIGNALS_AT_ONCE).map(async (endpointId) => {
              await o.client.workflow.signalWithStart(webhookEndpoint, {
                workflowId: webhookEndpointWorkflowId(endpointId),
                taskQueue: o.taskQueue,
                args: [{ endpointId, retry: o.retry, idleSeconds: o.idleSeconds, concurrency: o.concurrency }],
                signal: webhookDeliveriesSignal,
                signalArgs: [],
              });
              await markDispatched(o.sql, endpointId);
            }),
          );
        if (events < FAN_OUT_BATCH && endpoints.length < 200) break;
      }
    } catch (err) {
      o.log.warn({ err }, 'webhook dispatch failed; the next pass retries');
    }
  };
  /** A pass soon; `afterMs` lets a burst of NOTIFYs (one per transition) gather into one pass. */
  const kick = (afterMs = 0) => {
    if (queued || stopped) return;
    queued = true;
    running = running.then(() => (afterMs > 0 ? new Promise<void>((r) => setTimeout(r, afterMs)) : undefined)).then(pass);
  };
  const listener = await o.sql.listen(EVENTS_CHANNEL, () => kick(GATHER_MS), () => kick());
  const timer = setInterval(kick, o.sweepSeconds * 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await listener.unlisten().catch(() => {});
      await running;
    },
  };
}
