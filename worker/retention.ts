// The worker's retention sweep: every RETENTION_SWEEP_SECONDS, delete the staged bytes and
// previews of final submissions older than STAGING_RETENTION_SECONDS, a bounded batch at a time.
// Idempotent and safe with several workers (rows are claimed with SKIP LOCKED).
import type { Logger } from '../lib/logger';

const BATCH = 200;
/** Batches per sweep at most, so one sweep is bounded in time too. */
const MAX_BATCHES = 10;

export function startRetentionSweeps(o: {
  purge: (p: { retentionSeconds: number; limit: number }) => Promise<number>;
  retentionSeconds: number;
  everySeconds: number;
  log: Logger;
}): { stop(): Promise<void> } {
  if (o.everySeconds === 0) return { stop: async () => {} };
  let running: Promise<void> = Promise.resolve();
  const sweep = async () => {
    let purged = 0;
    try {
      for (let i = 0; i < MAX_BATCHES; i++) {
        const n = await o.purge({ retentionSeconds: o.retentionSeconds, limit: BATCH });
        purged += n;
        if (n < BATCH) break;
      }
      if (purged) o.log.info({ purged }, 'staged bytes past retention deleted');
    } catch (err) {
      o.log.warn({ err }, 'retention sweep failed; next sweep retries');
    }
  };
  const timer = setInterval(() => {
    running = running.then(sweep);
  }, o.everySeconds * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
