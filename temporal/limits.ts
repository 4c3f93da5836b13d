// What the Temporal frontend takes, on the dev server (temporal/dev-server.ts, as flags) and on the
// real server (temporal/real-server.ts, its dynamic config), and what docs/deploy.md asks of a
// cluster. One table, so the two servers and the docs cannot drift.
//
// - Payloads: sized to what the project's own messages need (test/unit/temporal-limits.test.ts
//   measures each kind: a start's input, every Update at the largest its validator takes, the
//   classifier's labels, the webhook lane's signal and activity results). The largest is a decision
//   Update at every field's maximum (about 36 kB; a real one is under 3 kB). A signal, a start or an
//   activity result above BLOB_SIZE_ERROR is refused by the server before it is written.
// - Updates: the frontend does not measure an Update's input (server 1.32), and a worker's refusal
//   echoes the refused request back to the server, which terminates the run when that answer is
//   above BLOB_SIZE_ERROR. So the Updates in flight on one run may hold UPDATE_PAYLOADS_IN_FLIGHT
//   bytes in all (history.maxInFlightUpdatePayloads): a larger one is refused at admission
//   (ResourceExhausted), before any worker sees it, and a refusal always fits under the blob limit.
// - Signals: the API sends none (decisions are Updates); the only signal of ours is the webhook
//   dispatcher's wake-up, and its workflow continues as new after SIGNALS_PER_HISTORY of them. So
//   SIGNALS_PER_RUN bounds what anyone who reaches the frontend can add to one run: at most
//   SIGNALS_PER_RUN x BLOB_SIZE_ERROR (640 KiB, under the run's own 2 MiB bound), and every workflow consumes and drops the signals
//   it does not take (issue 55: 100 of 250 kB once made a 25 MB run that stalled the worker).
// - History: even a run that took every signal it may, each as large as a payload may be, stays
//   below the servers' warning level, and a run continues as new itself (lib/intake/history-bounds.ts)
//   long before the error level at which the server would terminate it.
import { MAX_HISTORY_BYTES, MAX_HISTORY_EVENTS } from '../lib/intake/history-bounds';

const KiB = 1024;
const MiB = 1024 * KiB;

export const BLOB_SIZE_WARN = 32 * KiB;
export const BLOB_SIZE_ERROR = 64 * KiB;
/** history.maxInFlightUpdatePayloads: 16 KiB under the blob limit, so a refusal (the request plus why) always fits. */
export const UPDATE_PAYLOADS_IN_FLIGHT = BLOB_SIZE_ERROR - 16 * KiB;
/** history.maximumSignalsPerExecution. */
export const SIGNALS_PER_RUN = 10;
export const HISTORY_SIZE_WARN = 32 * MiB;
export const HISTORY_SIZE_ERROR = 48 * MiB;
export const HISTORY_COUNT_WARN = 10_000;
export const HISTORY_COUNT_ERROR = 40_000;

/** The dynamic config keys and values both servers run with (numbers and booleans only). */
export const DOOR_LIMITS: Record<string, number> = {
  'limit.blobSize.warn': BLOB_SIZE_WARN,
  'limit.blobSize.error': BLOB_SIZE_ERROR,
  'history.maxInFlightUpdatePayloads': UPDATE_PAYLOADS_IN_FLIGHT,
  'history.maximumSignalsPerExecution': SIGNALS_PER_RUN,
  'limit.historySize.warn': HISTORY_SIZE_WARN,
  'limit.historySize.error': HISTORY_SIZE_ERROR,
  'limit.historySize.suggestContinueAsNew': MAX_HISTORY_BYTES,
  'limit.historyCount.warn': HISTORY_COUNT_WARN,
  'limit.historyCount.error': HISTORY_COUNT_ERROR,
  'limit.historyCount.suggestContinueAsNew': MAX_HISTORY_EVENTS,
};

/** The same table as `--dynamic-config-value KEY=VALUE` flags of `temporal server start-dev` (a test may set some keys otherwise). */
export const devServerLimitArgs = (over: Record<string, number> = {}): string[] =>
  Object.entries({ ...DOOR_LIMITS, ...over }).flatMap(([k, v]) => ['--dynamic-config-value', `${k}=${v}`]);

/** The same table as dynamic config YAML (every namespace). */
export const dynamicConfigLimits = (): string[] => Object.entries(DOOR_LIMITS).flatMap(([k, v]) => [`${k}:`, `  - value: ${v}`]);
