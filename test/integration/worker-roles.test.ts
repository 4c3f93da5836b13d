// WORKER_ROLE: webhook delivery in worker processes of its own. A worker with WORKER_ROLE=intake runs
// intakes and never delivers (no dispatcher, no webhook worker); one with WORKER_ROLE=webhooks
// delivers and never runs an intake; the two together do what one `all` worker does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../bench/lib/webhook-receiver';
import type { RunningWorker } from '../../worker/start-worker';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify, submissionBody } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential & { organizationId?: string };
let receiver: Receiver;
const workers: RunningWorker[] = [];

beforeAll(async () => {
  stack = await startTestStack({ worker: false, env: { WEBHOOK_SWEEP_SECONDS: '1', WEBHOOK_RETRY_INITIAL_SECONDS: '1', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '1' } });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  receiver = await startReceiver();
  const r = await call(stack, 'POST', `${INTAKE}/webhook-endpoints`, { headers: partner.headers, body: { url: receiver.url } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  receiver.secrets.push(r.body.data.secret);
});
afterAll(async () => {
  for (const w of workers) await w.stop().catch(() => {});
  await receiver?.close();
  await stack?.stop();
});

const start = async (role: 'intake' | 'webhooks') => {
  const w = await stack.startWorkerWith({ WORKER_ROLE: role });
  workers.push(w);
  expect(w.role).toBe(role);
  return w;
};
const eventsOf = (id: string) => receiver.all.filter((r) => r.verified && r.body?.data?.submissionId === id).map((r) => r.type);

describe('worker roles', () => {
  it('intake runs without delivering; webhooks delivers what intake wrote; webhooks alone runs no intake', async () => {
    const intake = await start('intake');
    const { id, done } = await stageAndVerify(stack, partner);
    expect([200, 202], JSON.stringify(done.body)).toContain(done.status);
    await eventually(async () => (await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: partner.headers })).body?.data?.intakeStatus === 'awaiting_review', 30_000);
    // Both events are written; with no webhook worker nothing fans them out (the sweep runs every second).
    await eventually(async () => (await stack.sql`select 1 from webhook_events where submission_id = ${id}`).length === 2, 10_000);
    await new Promise((r) => setTimeout(r, 3000));
    expect(await stack.sql`select 1 from webhook_events where submission_id = ${id} and fanned_out`).toHaveLength(0);
    expect(receiver.all).toHaveLength(0);

    // The webhook side starts: both events arrive, in order, signed.
    await start('webhooks');
    await eventually(async () => eventsOf(id).length === 2, 30_000);
    expect(eventsOf(id)).toEqual(['submission.staged', 'submission.awaiting_review']);

    // Without the intake side, the webhook worker polls no intake queue: a signal route finds no worker.
    await intake.stop();
    const next = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner) });
    expect(next.status).toBe(201);
    const id2 = next.body.data.submission.submissionId as string;
    await eventually(async () => (await call(stack, 'POST', `${INTAKE}/submissions/${id2}/upload-complete`, { headers: partner.headers })).status === 503, 30_000);
  });
});
