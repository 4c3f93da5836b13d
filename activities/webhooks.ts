// The webhook delivery activities. `deliverEndpoint` is an endpoint's deliverer: one heartbeating
// activity that claims the heads of the endpoint's (endpoint, submission) lanes a few at a time
// (order per submission; at most `concurrency` submissions at once, fewer while the receiver fails:
// the window opens by one per success and halves per failure), makes one signed attempt of each, logs
// it (webhook_attempts) and schedules the retry in PostgreSQL (exponential backoff until the retry
// window ends, then failed). New deliveries wake it by NOTIFY (lib/webhooks/wakeups.ts), so an event
// costs the Temporal server nothing; when nothing is due soon it returns and its workflow sleeps
// on a timer, so a dead receiver holds no slot.
import { Context } from '@temporalio/activity';
import type { Sql } from '../lib/db';
import type { Logger } from '../lib/logger';
import type { SecretBox } from '../lib/webhooks/secret-box';
import { sendWebhook } from '../lib/webhooks/send';
import {
  cancelOpenDeliveries,
  claimDue,
  deliveryToSend,
  nextClaimIn,
  recordAttempt,
  releaseClaims,
  releaseDeliverer,
  signingSecrets,
  touchDeliverer,
  type ClaimedDelivery,
} from '../lib/webhooks/store';
import type { TargetPolicy } from '../lib/webhooks/targets';
import type { DeliveryWakeups } from '../lib/webhooks/wakeups';
import type { DelivererOutcome, WebhookActivities, WebhookRetry } from './types';

/** How an endpoint's deliverer paces itself (tests shorten them). */
export interface DelivererTiming {
  /** Nothing open for this long: the deliverer ends ('idle'); its workflow waits for a signal. */
  quietMs: number;
  /** Nothing in flight and the next retry at least this far off: it ends ('wait'); its workflow sleeps until then. */
  parkMs: number;
  /** It ends after this long ('more'; its workflow starts the next run), so a run and its history stay bounded. */
  maxRunMs: number;
  /** It looks for due deliveries at least this often (NOTIFY wakes it sooner). */
  lookMs: number;
  /** `deliverer_until` is refreshed this often, for this many seconds. */
  touchMs: number;
  delivererSeconds: number;
}

export const DELIVERER_TIMING: DelivererTiming = { quietMs: 10_000, parkMs: 15_000, maxRunMs: 10 * 60_000, lookMs: 2000, touchMs: 5000, delivererSeconds: 30 };

export interface WebhookActivityDeps {
  sql: Sql;
  /** Opens the endpoints' sealed signing secrets (WEBHOOK_SECRET_KEY). */
  secrets: SecretBox;
  policy: TargetPolicy;
  publicBaseUrl: string;
  userAgent?: string;
  /** Wakes a running deliverer when its endpoint has new deliveries (the webhook worker's LISTEN); without it, it looks every `lookMs`. */
  wakeups?: DeliveryWakeups | undefined;
  /** Aborted when the worker process stops: deliverers finish their attempts in flight and hand over. */
  stopping?: AbortSignal | undefined;
  timing?: Partial<DelivererTiming> | undefined;
  log?: Logger | undefined;
}

/** When the next attempt will run after `attempt` failed. */
export function nextAttemptAt(now: Date, attempt: number, r: WebhookRetry): Date {
  const delay = Math.min(r.initialSeconds * 2 ** (attempt - 1), r.maxIntervalSeconds);
  return new Date(now.getTime() + delay * 1000);
}

/** A wake-up that is not lost when it comes while nobody waits. */
function doorbell() {
  let rung = false;
  let answer: (() => void) | undefined;
  return {
    ring() {
      rung = true;
      answer?.();
    },
    wait(ms: number): Promise<void> {
      if (rung) {
        rung = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          answer = undefined;
          rung = false;
          resolve();
        };
        const timer = setTimeout(done, ms);
        answer = done;
      });
    },
  };
}

export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const { sql } = deps;

  /** One signed attempt of a claimed delivery, logged; a failure is scheduled again or, past the window, failed. */
  async function attempt(c: ClaimedDelivery, retry: WebhookRetry): Promise<'sent' | 'failed' | 'endpoint_deleted'> {
    const d = await deliveryToSend(sql, c.deliveryId, deps.publicBaseUrl);
    if (!d) return 'failed';
    if (d.endpointDeleted) return 'endpoint_deleted';
    const secrets = await signingSecrets(sql, deps.secrets, d.endpointId);
    const { id, ...body } = d.event;
    const result = await sendWebhook({ url: d.url, id, body: JSON.stringify(body), secrets, policy: deps.policy, userAgent: deps.userAgent ?? 'tattoo-portfolio-intake-webhooks/1' });
    const next = result.ok || result.refused ? null : nextAttemptAt(new Date(), c.attempts + 1, retry);
    // Refused targets are not retried; a retry past the window is not made.
    const failedBecause = result.ok
      ? undefined
      : result.refused
        ? (result.error ?? 'target refused')
        : next && next.getTime() > c.firstAttemptAt.getTime() + retry.windowSeconds * 1000
          ? `retry window of ${retry.windowSeconds} s ended`
          : undefined;
    await recordAttempt(sql, { deliveryId: c.deliveryId, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs, ok: result.ok, nextAttemptAt: next, failedBecause });
    return result.ok ? 'sent' : 'failed';
  }

  return {
    async deliverEndpoint({ endpointId, retry, concurrency }): Promise<DelivererOutcome> {
      const ctx = Context.current();
      const t = { ...DELIVERER_TIMING, ...deps.timing };
      const bell = doorbell();
      const unsubscribe = deps.wakeups?.subscribe(endpointId, bell.ring) ?? (() => {});
      ctx.cancellationSignal.addEventListener('abort', bell.ring);
      deps.stopping?.addEventListener('abort', bell.ring);
      const inFlight = new Map<string, Promise<void>>();
      // How many attempts may be in flight: starts at 1, +1 per success up to `concurrency`, halved
      // per failure, so a receiver that does not answer gets one attempt at a time, not a burst.
      let window = 1;
      const started = Date.now();
      let lastOpen = Date.now();
      let touchedAt = 0;
      let gone = false;
      /** With nothing in flight: end the run when nothing is open after a quiet spell, or nothing is due soon. */
      const endOfRun = (inSeconds: number | null): DelivererOutcome | undefined => {
        if (inSeconds === null) return Date.now() - lastOpen >= t.quietMs ? { outcome: 'idle' } : undefined;
        return inSeconds * 1000 >= t.parkMs ? { outcome: 'wait', waitSeconds: Math.ceil(inSeconds) } : undefined;
      };
      try {
        for (;;) {
          ctx.heartbeat();
          if (Date.now() - touchedAt >= t.touchMs) {
            gone = (await touchDeliverer(sql, endpointId, t.delivererSeconds)).gone || gone;
            touchedAt = Date.now();
          }
          const cancelled = ctx.cancellationSignal.aborted;
          const ending = gone || cancelled || deps.stopping?.aborted === true || Date.now() - started >= t.maxRunMs;
          if (ending) {
            deps.log?.debug({ endpointId, gone, cancelled, stopping: deps.stopping?.aborted === true, inFlight: inFlight.size }, 'webhook deliverer ending its run');
            await Promise.allSettled(inFlight.values());
            if (gone) await cancelOpenDeliveries(sql, endpointId);
            await releaseDeliverer(sql, endpointId);
            if (cancelled) await ctx.cancelled; // rethrows the cancellation
            return { outcome: gone ? 'gone' : 'more' };
          }
          for (const c of await claimDue(sql, { endpointId, limit: window - inFlight.size })) {
            const run = attempt(c, retry)
              .then((r) => {
                if (r === 'endpoint_deleted') gone = true;
                else window = r === 'sent' ? Math.min(concurrency, window + 1) : Math.max(1, Math.floor(window / 2));
              })
              .catch(async (err: unknown) => {
                // PostgreSQL or the secrets failed us, not the receiver: give it back for the next look.
                deps.log?.warn({ err, deliveryId: c.deliveryId }, 'webhook attempt could not run; released');
                await releaseClaims(sql, [c.deliveryId]).catch(() => {});
              })
              .finally(() => {
                inFlight.delete(c.deliveryId);
                bell.ring();
              });
            inFlight.set(c.deliveryId, run);
          }
          let waitMs = t.lookMs;
          if (inFlight.size > 0) lastOpen = Date.now();
          else {
            const inSeconds = await nextClaimIn(sql, endpointId);
            if (inSeconds !== null) lastOpen = Date.now();
            if (endOfRun(inSeconds)) {
              // Cleared, then looked at again: a delivery fanned out meanwhile is seen here or by the dispatcher.
              await releaseDeliverer(sql, endpointId);
              const end = endOfRun(await nextClaimIn(sql, endpointId));
              if (end) return end;
              touchedAt = 0;
              continue;
            }
            if (inSeconds !== null) waitMs = Math.min(waitMs, Math.max(20, inSeconds * 1000));
          }
          await bell.wait(waitMs);
        }
      } finally {
        unsubscribe();
        ctx.cancellationSignal.removeEventListener('abort', bell.ring);
        deps.stopping?.removeEventListener('abort', bell.ring);
      }
    },
  };
}
