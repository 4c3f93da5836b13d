// The webhook delivery activities: take the lane's next delivery, make one signed HTTP attempt
// (Temporal retries a failed one with backoff), mark a delivery failed when its window has ended.
// Every attempt is logged (webhook_attempts) with the receiver's answer and the next retry.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Sql } from '../lib/db';
import type { SecretBox } from '../lib/webhooks/secret-box';
import { sendWebhook } from '../lib/webhooks/send';
import { claimNextDelivery, deliveryToSend, finishDelivery, recordAttempt, signingSecrets } from '../lib/webhooks/store';
import type { TargetPolicy } from '../lib/webhooks/targets';
import type { WebhookActivities, WebhookRetry } from './types';

export interface WebhookActivityDeps {
  sql: Sql;
  /** Opens the endpoints' sealed signing secrets (WEBHOOK_SECRET_KEY). */
  secrets: SecretBox;
  policy: TargetPolicy;
  publicBaseUrl: string;
  userAgent?: string;
}

/** When the next attempt will run after `attempt` failed: the activity's retry policy, as the workflow set it. */
export function nextAttemptAt(now: Date, attempt: number, r: WebhookRetry): Date {
  const delay = Math.min(r.initialSeconds * 2 ** (attempt - 1), r.maxIntervalSeconds);
  return new Date(now.getTime() + delay * 1000);
}

export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const { sql } = deps;
  return {
    async deliverNext({ lane, retry }) {
      // Bounded: a lane's deliveries to a deleted endpoint are cancelled one by one, then idle.
      for (let i = 0; i < 100; i++) {
        const deliveryId = await claimNextDelivery(sql, lane);
        if (!deliveryId) return 'idle';
        const d = await deliveryToSend(sql, deliveryId, deps.publicBaseUrl);
        if (!d) return 'idle';
        if (d.endpointDeleted) {
          await finishDelivery(sql, deliveryId, 'cancelled', 'endpoint deleted');
          continue;
        }
        const secrets = await signingSecrets(sql, deps.secrets, d.endpointId);
        const { id, ...body } = d.event;
        const result = await sendWebhook({
          url: d.url,
          id,
          body: JSON.stringify(body),
          secrets,
          policy: deps.policy,
          userAgent: deps.userAgent ?? 'tattoo-portfolio-intake-webhooks/1',
        });
        const next = result.ok || result.refused ? null : nextAttemptAt(new Date(), Context.current().info.attempt, retry);
        await recordAttempt(sql, { deliveryId, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs, ok: result.ok, nextAttemptAt: next });
        if (result.ok) return 'delivered';
        if (result.refused) throw ApplicationFailure.create({ type: 'TargetRefused', message: result.error ?? 'target refused', nonRetryable: true });
        throw ApplicationFailure.create({ type: 'DeliveryFailed', message: result.error ?? 'delivery failed' });
      }
      return 'delivered';
    },
    async failLaneHead({ lane, reason }) {
      const head = await claimNextDelivery(sql, lane);
      if (head) await finishDelivery(sql, head, 'failed', reason);
    },
  };
}
