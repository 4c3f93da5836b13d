// The webhook dispatcher, beside the worker: turns new events into deliveries (one per matching
// endpoint) and hands each (endpoint, submission) lane with deliveries to its delivery workflow
// (signal-with-start, so a running lane just hears about it). Woken by the events channel
// (LISTEN) and by a periodic sweep, which also recovers lanes whose signal was lost in a crash.
// Safe with several workers: fan-out claims events with SKIP LOCKED, and a workflow id is one lane.
import type { Client } from '@temporalio/client';
import type { WebhookRetry } from '../activities/types';
import type { Sql } from '../lib/db';
import type { Logger } from '../lib/logger';
import { EVENTS_CHANNEL } from '../lib/webhooks/events';
import { fanOut, lanesToDispatch, markDispatched } from '../lib/webhooks/store';
import { webhookDeliveriesSignal, webhookLaneWorkflowId } from '../workflows/messages';
import { webhookLane } from '../workflows/webhook-delivery';

const FAN_OUT_BATCH = 500;
/** Rounds per wake-up at most, so one pass is bounded in time too. */
const MAX_ROUNDS = 20;
const SIGNALS_AT_ONCE = 10;

export interface DispatcherOptions {
  sql: Sql;
  client: Client;
  /** The webhook lane's task queue (WEBHOOK_TASK_QUEUE): new lanes start there; a lane already running elsewhere just hears the signal. */
  taskQueue: string;
  retry: WebhookRetry;
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
        const lanes = await lanesToDispatch(o.sql, { staleSeconds: 60, limit: 200 });
        // Lanes are independent: signalled a few at a time.
        for (let i = 0; i < lanes.length; i += SIGNALS_AT_ONCE)
          await Promise.all(
            lanes.slice(i, i + SIGNALS_AT_ONCE).map(async (lane) => {
              await o.client.workflow.signalWithStart(webhookLane, {
                workflowId: webhookLaneWorkflowId(lane.endpointId, lane.submissionId),
                taskQueue: o.taskQueue,
                args: [{ ...lane, retry: o.retry, idleSeconds: o.idleSeconds }],
                signal: webhookDeliveriesSignal,
                signalArgs: [],
              });
              await markDispatched(o.sql, lane);
            }),
          );
        if (events < FAN_OUT_BATCH && lanes.length < 200) break;
      }
    } catch (err) {
      o.log.warn({ err }, 'webhook dispatch failed; the next pass retries');
    }
  };
  const kick = () => {
    if (queued || stopped) return;
    queued = true;
    running = running.then(pass);
  };
  const listener = await o.sql.listen(EVENTS_CHANNEL, kick, kick);
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
