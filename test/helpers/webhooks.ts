// A verifying receiver on loopback (bench/lib/webhook-receiver.ts), registered as a webhook endpoint
// of the partner's organization through the API; kept in `receivers` for the test file to close.
import { expect } from 'vitest';
import { startReceiver, type Receiver } from '../../bench/lib/webhook-receiver';
import type { TestCredential } from './auth';
import { call, INTAKE } from './intake';
import type { TestStack } from './stack';

export async function subscribeReceiver(
  stack: TestStack,
  partner: TestCredential,
  receivers: Receiver[],
  delayMs = 0,
): Promise<{ receiver: Receiver; endpointId: string }> {
  const receiver = await startReceiver({ delayMs });
  receivers.push(receiver);
  const r = await call(stack, 'POST', `${INTAKE}/webhook-endpoints`, { headers: partner.headers, body: { url: receiver.url } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  receiver.secrets.push(r.body.data.secret);
  return { receiver, endpointId: r.body.data.endpointId as string };
}
