// Wake-ups for running webhook deliverers: the fan-out (and a redelivery) NOTIFYs the endpoint's id
// on DELIVERIES_CHANNEL when it commits; each webhook worker process LISTENs once and wakes the
// deliverer of that endpoint if it runs here. A deliverer also looks on its own every few seconds,
// so a lost notification (a dropped connection) only delays a delivery.
import type { Sql } from '../db';

export const DELIVERIES_CHANNEL = 'webhook_deliveries';

export interface DeliveryWakeups {
  /** Call `wake` whenever the endpoint has new deliveries; returns the unsubscribe. */
  subscribe(endpointId: string, wake: () => void): () => void;
}

export interface ListeningWakeups extends DeliveryWakeups {
  close(): Promise<void>;
}

export function wakeupHub(): DeliveryWakeups & { notify(endpointId: string): void } {
  const byEndpoint = new Map<string, Set<() => void>>();
  return {
    subscribe(endpointId, wake) {
      let set = byEndpoint.get(endpointId);
      if (!set) byEndpoint.set(endpointId, (set = new Set()));
      set.add(wake);
      return () => {
        set.delete(wake);
        if (set.size === 0) byEndpoint.delete(endpointId);
      };
    },
    notify(endpointId) {
      for (const wake of byEndpoint.get(endpointId) ?? []) wake();
    },
  };
}

/** LISTEN on DELIVERIES_CHANNEL (one connection of the pool, re-established by postgres.js after a drop). */
export async function listenForDeliveries(sql: Sql): Promise<ListeningWakeups> {
  const hub = wakeupHub();
  const listener = await sql.listen(DELIVERIES_CHANNEL, (endpointId) => hub.notify(endpointId));
  return { subscribe: hub.subscribe, close: () => listener.unlisten().catch(() => {}) };
}
