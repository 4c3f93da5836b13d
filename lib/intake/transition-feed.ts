// Routes that send a signal wait, bounded, for the transition the workflow writes: every
// transition write raises NOTIFY on TRANSITION_CHANNEL, and one LISTEN connection per process
// wakes the routes waiting on that submission. Nothing polls Temporal.
import type { Sql } from '../db';
import { TRANSITION_CHANNEL, type TransitionNotice } from './transitions';
import type { IntakeStatus } from './vocabulary';

export interface TransitionWatch {
  /** Resolves with the next status written for the submission, or undefined when `ms` pass first. */
  next(ms: number): Promise<IntakeStatus | undefined>;
  close(): void;
}

export interface TransitionFeed {
  /** Start watching a submission; call before sending the signal so no transition is missed. */
  watch(submissionId: string): Promise<TransitionWatch>;
}

/** `onTransition` hears every transition any workflow writes (the API's transition counter). */
export function createTransitionFeed(sql: Sql, onTransition?: (status: IntakeStatus) => void): TransitionFeed {
  const watchers = new Map<string, Set<(s: IntakeStatus) => void>>();
  let listening: Promise<unknown> | undefined;

  const onNotice = (payload: string) => {
    let n: TransitionNotice;
    try {
      n = JSON.parse(payload) as TransitionNotice;
    } catch {
      return;
    }
    onTransition?.(n.intakeStatus);
    for (const wake of watchers.get(n.submissionId) ?? []) wake(n.intakeStatus);
  };
  // postgres.js keeps the LISTEN connection and re-listens after a reconnect. A failed first
  // attempt (database away) is forgotten, so the next watch tries again.
  const ensureListening = () =>
    (listening ??= sql.listen(TRANSITION_CHANNEL, onNotice).catch((err: unknown) => {
      listening = undefined;
      throw err;
    }));

  // With a listener for every transition, listen from the start (not only once a route waits);
  // should the database be away now, the first watch tries again.
  if (onTransition) ensureListening().catch(() => {});

  return {
    async watch(submissionId) {
      await ensureListening();
      const queue: IntakeStatus[] = [];
      let waiter: ((s: IntakeStatus | undefined) => void) | undefined;
      const wake = (s: IntakeStatus) => {
        if (waiter) waiter(s);
        else queue.push(s);
      };
      const set = watchers.get(submissionId) ?? new Set();
      set.add(wake);
      watchers.set(submissionId, set);
      return {
        next(ms) {
          if (queue.length) return Promise.resolve(queue.shift());
          return new Promise((resolve) => {
            const timer = setTimeout(() => {
              waiter = undefined;
              resolve(undefined);
            }, Math.max(0, ms));
            waiter = (s) => {
              clearTimeout(timer);
              waiter = undefined;
              resolve(s);
            };
          });
        },
        close() {
          set.delete(wake);
          if (set.size === 0 && watchers.get(submissionId) === set) watchers.delete(submissionId);
        },
      };
    },
  };
}
