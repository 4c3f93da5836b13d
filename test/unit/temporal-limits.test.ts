// The door's limits (temporal/limits.ts) hold together: no run can be grown to where the server
// terminates it, every message of ours fits, and both servers run the one table.
import { describe, expect, it } from 'vitest';
import { MAX_HISTORY_BYTES, MAX_HISTORY_EVENTS } from '../../lib/intake/history-bounds';
import { SIGNAL_LIMITS } from '../../lib/intake/signal-shapes';
import { devServerArgs } from '../../temporal/dev-server';
import {
  BLOB_SIZE_ERROR,
  BLOB_SIZE_WARN,
  DOOR_LIMITS,
  HISTORY_COUNT_ERROR,
  HISTORY_COUNT_WARN,
  HISTORY_SIZE_ERROR,
  HISTORY_SIZE_WARN,
  SIGNALS_PER_RUN,
  UPDATE_PAYLOADS_IN_FLIGHT,
} from '../../temporal/limits';
import { DYNAMIC_CONFIG } from '../../temporal/real-server';
import { SIGNALS_PER_HISTORY } from '../../workflows/webhook-delivery';

/** history.maxTotalUpdates, the server's default: each accepted Update writes two events. */
const TOTAL_UPDATES = 2000;

describe('the door limits', () => {
  it('a run that took every signal it may, each as large as may be, stays under the warning level', () => {
    expect(SIGNALS_PER_RUN * BLOB_SIZE_ERROR + MAX_HISTORY_BYTES).toBeLessThan(HISTORY_SIZE_WARN);
    expect(HISTORY_SIZE_WARN).toBeLessThan(HISTORY_SIZE_ERROR);
    expect(SIGNALS_PER_RUN + 2 * TOTAL_UPDATES + MAX_HISTORY_EVENTS).toBeLessThan(HISTORY_COUNT_WARN);
    expect(HISTORY_COUNT_WARN).toBeLessThan(HISTORY_COUNT_ERROR);
  });

  it('signals one run may take, each as large as may be, stay a few MiB (issue 55: 25 MB once stalled the worker)', () => {
    expect(SIGNALS_PER_RUN * BLOB_SIZE_ERROR).toBeLessThanOrEqual(4 * 1024 * 1024);
    // The webhook lane's wake-ups (our only signal) continue its run as new well before the cap.
    expect(SIGNALS_PER_HISTORY).toBeLessThan(SIGNALS_PER_RUN);
  });

  it('a refused Update (the request echoed with why) always fits under the blob limit', () => {
    expect(UPDATE_PAYLOADS_IN_FLIGHT + 16 * 1024).toBeLessThanOrEqual(BLOB_SIZE_ERROR);
  });

  it('the largest decision our validators take fits, with room, under the warning level', () => {
    // Notes (4 bytes a character at worst), the proof's parts, the seen matches and the accepted labels.
    const largest = 4 * SIGNAL_LIMITS.notes + 4 * SIGNAL_LIMITS.proofPart + SIGNAL_LIMITS.seenMatches * SIGNAL_LIMITS.id + SIGNAL_LIMITS.acceptedLabels * SIGNAL_LIMITS.label + 4 * SIGNAL_LIMITS.id;
    expect(largest).toBeLessThan(UPDATE_PAYLOADS_IN_FLIGHT);
    expect(BLOB_SIZE_WARN).toBeLessThan(BLOB_SIZE_ERROR);
  });

  it('both servers run the whole table', () => {
    const args = devServerArgs({ cliPath: 'temporal', port: 7233 }).join(' ');
    for (const [key, value] of Object.entries(DOOR_LIMITS)) {
      expect(args).toContain(`--dynamic-config-value ${key}=${value}`);
      expect(DYNAMIC_CONFIG).toContain(`${key}:\n  - value: ${value}\n`);
    }
    // With its Web UI, the dev server's UI fetches no outside newsfeed (it asked newsfeed.temporal.io with client and cluster ids).
    expect(devServerArgs({ cliPath: 'temporal', port: 7233, uiPort: 8233 })).toContain('--ui-disable-news-fetch');
    expect(Object.keys(DOOR_LIMITS)).toEqual(expect.arrayContaining(['limit.blobSize.error', 'limit.blobSize.warn', 'history.maximumSignalsPerExecution', 'history.maxInFlightUpdatePayloads', 'limit.historySize.error', 'limit.historyCount.error']));
  });
});
