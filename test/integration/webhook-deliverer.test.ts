// The endpoint deliverer (issue 23 item 3, W2): one workflow per endpoint whose heartbeating activity
// delivers the first open delivery of each submission, a few submissions at once, with the retry
// schedule in PostgreSQL. What it must keep: each submission's order under concurrency and failures;
// events that cost the Temporal server nothing while it runs; a dead receiver that holds no slot
// (the workflow sleeps on a timer until the retry is due); a deleted endpoint's deliveries cancelled.
import type { Client, Connection } from '@temporalio/client';
import { createTemporalClient } from '../../temporal/connection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Receiver } from '../../bench/lib/webhook-receiver';
import { deliveryAttempts } from '../../lib/webhooks/deliveries';
import { webhookEndpointWorkflowId } from '../../workflows/messages';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, putUpload, submissionBody } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';
import { subscribeReceiver } from '../helpers/webhooks';

let stack: TestStack;
let temporal: Connection;
let client: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      WEBHOOK_RETRY_INITIAL_SECONDS: '1',
      WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '1',
      WEBHOOK_RETRY_WINDOW_SECONDS: '10',
      WEBHOOK_SWEEP_SECONDS: '1',
      WEBHOOK_ENDPOINT_CONCURRENCY: '4',
    },
    // Parks after 3 s without anything due (a 30 s retry below), quiet after 2 s.
    delivererTiming: { parkMs: 3000, quietMs: 2000, touchMs: 1000 },
  });
  // The project's client (with the payload codec), as the API's and the worker's.
  ({ client, connection: temporal } = createTemporalClient(stack.cfg, 'api'));
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await temporal?.close();
  await stack?.stop();
});

const subscribed = (p: TestCredential, delayMs = 0) => subscribeReceiver(stack, p, receivers, delayMs);

/** Stage, upload and verify one submission (events: staged, awaiting_review). */
async function intake(p: TestCredential): Promise<string> {
  const bytes = jpegBytes(2048);
  const r = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body: submissionBody(p, { sizeBytes: bytes.length }) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect((await putUpload(r.body.data.upload.url, bytes)).status).toBe(200);
  const done = await call(stack, 'POST', `${INTAKE}/submissions/${r.body.data.submission.submissionId}/upload-complete`, { headers: p.headers });
  expect(done.status, JSON.stringify(done.body)).toBeLessThan(300);
  return r.body.data.submission.submissionId as string;
}

const history = async (endpointId: string) => (await client.workflow.getHandle(webhookEndpointWorkflowId(endpointId)).fetchHistory()).events ?? [];

describe('the endpoint deliverer', () => {
  it('12 submissions, every other attempt failing: each submission in order, every event once accepted, and the events cost the workflow no history', async () => {
    const p = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const { receiver, endpointId } = await subscribed(p);
    // Failures from the first delivery on (the intakes may all be delivered before they return).
    receiver.failNext(3);
    const ids = await Promise.all(Array.from({ length: 12 }, () => intake(p)));
    // Failures while they flow: the retries (1 s) come back in order per submission.
    for (let i = 0; i < 6; i++) {
      receiver.failNext(3);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(await receiver.waitFor((a) => new Set(a.filter((x) => x.answered === 204).map((x) => x.id)).size >= 24, 60_000)).toBe(true);
    for (const id of ids) {
      const accepted = receiver.all.filter((x) => x.answered === 204 && x.body.data.submissionId === id).map((x) => x.type);
      expect(accepted, id).toEqual(['submission.staged', 'submission.awaiting_review']);
      // A later event of a submission never reached the receiver before an earlier one was accepted.
      const firstAwaiting = receiver.all.findIndex((x) => x.body.data.submissionId === id && x.type === 'submission.awaiting_review');
      const stagedOk = receiver.all.findIndex((x) => x.body.data.submissionId === id && x.type === 'submission.staged' && x.answered === 204);
      expect(stagedOk, id).toBeLessThan(firstAwaiting);
    }
    expect(receiver.all.filter((x) => x.answered === 500).length).toBeGreaterThan(0);
    // 24 deliveries and their retries went through one activity run or a few: none is a history event of its own.
    const events = await history(endpointId);
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes).length).toBeLessThan(6);
    expect(events.filter((e) => e.workflowExecutionSignaledEventAttributes).length).toBeLessThan(6);
  }, 120_000);

  it('a receiver that keeps failing holds no slot: the deliverer parks and the workflow sleeps until the retry is due', async () => {
    const p = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const { receiver, endpointId } = await subscribed(p);
    receiver.failNext(1000);
    // A 30 s retry for this endpoint's deliveries: set on the delivery the first attempt leaves.
    const id = await intake(p);
    // Both events fanned out (the second waits behind the first), the first attempted once.
    await eventually(async () => (await stack.sql`select 1 from webhook_deliveries where submission_id = ${id}`).length === 2, 20_000);
    await eventually(async () => (await stack.sql`select 1 from webhook_deliveries where submission_id = ${id} and attempts >= 1`).length > 0, 20_000);
    await stack.sql`update webhook_deliveries set next_attempt_at = now() + interval '30 seconds' where submission_id = ${id} and status = 'delivering'`;
    await eventually(async () => {
      const d = await client.workflow.getHandle(webhookEndpointWorkflowId(endpointId)).describe();
      const [ep] = await stack.sql<{ until: Date | null }[]>`select deliverer_until as until from webhook_endpoints where endpoint_id = ${endpointId}`;
      if (d.status.name !== 'RUNNING' || (d.raw.pendingActivities ?? []).length > 0 || ep!.until !== null) return false;
      // The activity's completion and the timer it leads to are two workflow tasks apart: wait for the timer.
      const h = await history(endpointId);
      const lastTimer = h.findLastIndex((e) => e.timerStartedEventAttributes);
      const lastActivity = h.findLastIndex((e) => e.activityTaskCompletedEventAttributes);
      return lastTimer > lastActivity;
    }, 20_000);
    // Sleeping on a timer, and the dispatcher leaves it there (no signal while nothing is overdue).
    const events = await history(endpointId);
    const signalsBefore = events.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
    await new Promise((r) => setTimeout(r, 3000));
    expect((await history(endpointId)).filter((e) => e.workflowExecutionSignaledEventAttributes).length).toBe(signalsBefore);
    // When the retry is due it runs again, on its own.
    receiver.failNext(0);
    await stack.sql`update webhook_deliveries set next_attempt_at = now() + interval '2 seconds' where submission_id = ${id} and status = 'delivering'`;
    // The timer was set for ~30 s; a new event (the NOTIFY of its fan-out) wakes it sooner through the dispatcher.
    await intake(p);
    expect(await receiver.waitFor((a) => a.some((x) => x.body.data.submissionId === id && x.answered === 204), 40_000)).toBe(true);
  }, 90_000);

  it('a receiver that fails past the retry window: the delivery is failed and the submission\'s next event goes', async () => {
    const p = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const { receiver } = await subscribed(p);
    receiver.failNext(1000);
    // The worker (in this process) counts its attempts by outcome: what WebhookDeliveriesFailing reads.
    const attempts = async (outcome: string) => (await deliveryAttempts.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    const before = { failed: await attempts('failed'), retry: await attempts('retry') };
    const id = await intake(p);
    await eventually(async () => (await stack.sql`select 1 from webhook_deliveries where submission_id = ${id} and status = 'failed'`).length === 2, 40_000);
    expect((await attempts('failed')) - before.failed).toBe(2);
    expect((await attempts('retry')) - before.retry).toBeGreaterThanOrEqual(8);
    const rows = await stack.sql<{ type: string; attempts: number; lastStatusCode: number; lastError: string; firstAttemptAt: Date; completedAt: Date }[]>`
      select e.event_type as type, d.attempts, d.last_status_code, d.last_error, d.first_attempt_at, d.completed_at
      from webhook_deliveries d join webhook_events e using (event_id) where d.submission_id = ${id} order by d.seq`;
    expect(rows.map((r) => r.type)).toEqual(['submission.staged', 'submission.awaiting_review']);
    for (const r of rows) {
      // Retried every second for the 10 s window, then failed with the receiver's last answer kept.
      expect(r.attempts).toBeGreaterThanOrEqual(5);
      expect(r.lastStatusCode).toBe(500);
      expect(r.completedAt.getTime() - r.firstAttemptAt.getTime()).toBeGreaterThanOrEqual(8000);
      expect(r.completedAt.getTime() - r.firstAttemptAt.getTime()).toBeLessThan(20_000);
    }
    // The second event was first tried only once the first had ended: order per submission.
    expect(rows[1]!.firstAttemptAt.getTime()).toBeGreaterThanOrEqual(rows[0]!.completedAt.getTime());
  }, 60_000);

  it('a receiver that does not answer gets one attempt at a time, not a burst; one that answers gets several', async () => {
    const p = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const slow = await subscribed(p, 10_000);
    await Promise.all(Array.from({ length: 6 }, () => intake(p)));
    await eventually(async () => slow.receiver.all.length > 0, 20_000);
    const first = slow.receiver.all[0]!.at;
    // Each attempt gives up after 5 s: 6 submissions with up to 4 at once would send 4 at the start.
    await new Promise((r) => setTimeout(r, 4000));
    expect(slow.receiver.all.filter((x) => x.at - first < 4000)).toHaveLength(1);

    const q = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const fast = await subscribed(q, 300);
    await Promise.all(Array.from({ length: 8 }, () => intake(q)));
    expect(await fast.receiver.waitFor((a) => a.length >= 16, 30_000)).toBe(true);
    // Some requests overlapped (the window opened past one): a request arrived before the one before it was answered.
    const overlapping = fast.receiver.all.filter((x, i) => i > 0 && x.at - fast.receiver.all[i - 1]!.at < 250).length;
    expect(overlapping).toBeGreaterThan(0);
  }, 60_000);

  it('a deleted endpoint: its open deliveries are cancelled and its deliverer ends', async () => {
    const p = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const { receiver, endpointId } = await subscribed(p);
    receiver.failNext(1000);
    const ids = await Promise.all(Array.from({ length: 3 }, () => intake(p)));
    await eventually(async () => (await stack.sql`select 1 from webhook_deliveries where submission_id = any(${ids}) and attempts >= 1`).length > 0, 20_000);
    const del = await fetch(`${stack.url}${INTAKE}/webhook-endpoints/${endpointId}`, { method: 'DELETE', headers: p.headers });
    expect(del.status).toBeLessThan(300);
    await eventually(async () => (await stack.sql`select 1 from webhook_deliveries where endpoint_id = ${endpointId} and status in ('pending', 'delivering')`).length === 0, 20_000);
    const [cancelled] = await stack.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId} and status = 'cancelled'`;
    expect(cancelled!.n).toBeGreaterThan(0);
    await eventually(async () => (await client.workflow.getHandle(webhookEndpointWorkflowId(endpointId)).describe()).status.name === 'COMPLETED', 20_000);
  }, 60_000);
});
