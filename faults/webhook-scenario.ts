// F10 (issue 15): the worker is SIGKILLed while webhooks are being delivered. Deliveries are
// durable (outbox rows written with each transition, delivered by Temporal workflows), so every
// event still reaches the receiver, verified by `standardwebhooks`; at-least-once means a repeat of
// an id is allowed (the receiver dedupes on webhook-id), a missing one is not.
import { startReceiver } from '../bench/lib/webhook-receiver';
import { books, waitFinal } from './books';
import { INTAKE, jpeg, send, staged } from './client';
import { sleep, withStack, type Scenario } from './harness';
import { completeAndApprove } from './intake-flow';

export const F10: Scenario = {
  id: 'F10',
  fault: 'worker SIGKILLed while webhooks are delivered',
  holds: 'every event received and verified; events lost 0; deliveries failed 0',
  run: async (size) => {
    const n = size === 'short' ? 8 : 30;
    const kills = size === 'short' ? 2 : 4;
    const fast = { WEBHOOK_RETRY_INITIAL_SECONDS: '1', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '2', WEBHOOK_SWEEP_SECONDS: '1' };
    return withStack(async (s) => {
      const receiver = await startReceiver();
      try {
        const reg = await send(s, 'POST', `${INTAKE}/webhook-endpoints`, { headers: s.partner.headers, body: { url: receiver.url } });
        if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
        receiver.secrets.push(reg.body.data.secret);
        const endpointId = reg.body.data.endpointId as string;

        const ids = await Promise.all(Array.from({ length: n }, () => staged(s, jpeg(16 * 1024))));
        // As docs/errors.md tells a client: a 202 `pending` (the worker died before taking the
        // decision) is read back and sent again while the status has not moved.
        const flows = Promise.all(ids.map((id) => completeAndApprove(s, id)));
        // Kill the worker while the events of these intakes are in flight, and start it again.
        for (let k = 0; k < kills; k++) {
          await sleep(700);
          await s.killWorker();
          await sleep(500);
          await s.startWorker();
        }
        await flows;
        await waitFinal(s, ids);
        const [ev] = await s.sql<{ n: number }[]>`select count(*)::int as n from webhook_events where submission_id = any(${ids})`;
        const expected = ev!.n;
        await receiver.waitFor((a) => new Set(a.map((x) => x.id)).size >= expected, 120_000);
        const b = await books(s, ids);
        const accepted = receiver.accepted();
        const unique = new Set(accepted.map((x) => x.id)).size;
        const [failed] = await s.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId} and status = 'failed'`;
        const unverified = receiver.all.filter((x) => !x.verified).length;
        const measured = {
          intakes: n,
          kills,
          promoted: b.promoted,
          events: expected,
          received: unique,
          lost: expected - unique,
          repeatsById: accepted.length - unique,
          unverified,
          deliveriesFailed: failed!.n,
        };
        // staged, awaiting_review, promoted per intake.
        const pass = b.promoted === n && expected === 3 * n && unique === expected && unverified === 0 && failed!.n === 0;
        return { measured, pass };
      } finally {
        await receiver.close();
      }
    }, fast);
  },
};
