// The worker's side of the intake workflow's `refusals` sink: what an Update validator (or a
// signal a run does not take) refused, recorded outside the workflow's history. Written one at a
// time in the background (a flood costs the database one short statement each, never a burst of
// connections). A submission past its cap of kept refusals, or a flood faster than the writes, is
// only counted: in memory first, then added to decision_refusal_overflow in one statement.
import crypto from 'node:crypto';
import type { InjectedSinks } from '@temporalio/worker';
import { Counter, type Registry } from 'prom-client';
import type { Sql } from '../lib/db';
import type { Logger } from '../lib/logger';
import { byKind } from '../lib/intake/decisions';
import { countRefusals, recordCappedRefusal, type RefusedSignal } from '../lib/intake/refusals';
import type { IntakeSinks, RefusalNote } from '../workflows/messages';

/** Notes waiting to be written one by one; beyond this a note is only counted. */
const MAX_WAITING = 1000;
/** Submissions remembered as being at their cap (a bound on memory; forgetting one costs a query). */
const MAX_AT_CAP = 10_000;

/** The refusal record's name of each message: a decision's kind, or upload_complete. */
const SIGNAL: Record<RefusalNote['message'], RefusedSignal> = { uploadComplete: 'upload_complete', ...byKind((kind) => kind) };

export interface RefusalSink {
  sinks: InjectedSinks<IntakeSinks>;
  /** Resolves when every note taken so far is written or counted (tests, shutdown). */
  drained(): Promise<void>;
}

export function createRefusalSink(o: { sql: Sql; log: Logger; registry?: Registry | undefined }): RefusalSink {
  const refused = new Counter({
    name: 'intake_refusals_total',
    help: 'Decisions and upload-completes refused before they reached a workflow history, by reason and by how they were kept (recorded: a decision_refusals row; counted: decision_refusal_overflow; dropped: the database failed).',
    labelNames: ['reason', 'record'] as const,
    registers: o.registry ? [o.registry] : [],
  });
  let waiting = 0;
  let chain: Promise<void> = Promise.resolve();
  const atCap = new Set<string>();
  const toCount = new Map<string, { n: number; reason: string }>();
  let flushQueued = false;

  const write = async (n: RefusalNote) => {
    const requestId = n.requestId ?? `malformed:${crypto.randomUUID()}`;
    try {
      const how = await recordCappedRefusal(o.sql, { submissionId: n.submissionId, signal: SIGNAL[n.message], requestId, reason: n.reason, claimed: n.by, detail: n.detail, proofActorId: n.proofActorId });
      refused.inc({ reason: n.reason, record: how });
      if (how === 'counted') {
        if (atCap.size >= MAX_AT_CAP) atCap.clear();
        atCap.add(n.submissionId);
      } else o.log.warn({ submissionId: n.submissionId, message: n.message, requestId, reason: n.reason, claimedActorId: n.by.actorId }, `${n.message} refused before history: ${n.detail}`);
    } catch (err) {
      refused.inc({ reason: n.reason, record: 'dropped' });
      o.log.error({ err, submissionId: n.submissionId, reason: n.reason }, 'could not record a refusal');
    }
  };
  const flush = async () => {
    flushQueued = false;
    const batch = [...toCount];
    toCount.clear();
    for (const [submissionId, c] of batch) {
      try {
        await countRefusals(o.sql, submissionId, c.n, c.reason);
      } catch (err) {
        refused.inc({ reason: c.reason, record: 'dropped' }, c.n);
        o.log.error({ err, submissionId, refusals: c.n }, 'could not count refusals');
      }
    }
  };
  const count = (n: RefusalNote) => {
    const c = toCount.get(n.submissionId) ?? { n: 0, reason: n.reason };
    c.n++;
    c.reason = n.reason;
    toCount.set(n.submissionId, c);
    refused.inc({ reason: n.reason, record: 'counted' });
    if (!flushQueued) {
      flushQueued = true;
      chain = chain.then(flush);
    }
  };
  return {
    sinks: {
      refusals: {
        record: {
          fn(_info, note) {
            if (atCap.has(note.submissionId) || waiting >= MAX_WAITING) return count(note);
            waiting++;
            chain = chain.then(() => write(note)).finally(() => void waiting--);
          },
          callDuringReplay: false,
        },
      },
    },
    drained: () => chain,
  };
}
