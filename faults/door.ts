// F19 (issue 43): the flood that once ended the worker process. 28 approve signals of 1.9 MB, sent
// straight to the Temporal frontend at one intake awaiting review (as anyone who reaches it could),
// and 28 approve Updates of the same size, while other submissions go through their review. The
// door (temporal/limits.ts) refuses each before it is written; the worker process never exits; the
// others keep moving; the operator's approve then answers 200 (or 503 with Retry-After, retried as
// docs/errors.md says) and the submission is promoted once. Runs on the dev server, or on the real
// server when given its binaries (test/faults/faults-door.test.ts runs both).
import { Client, Connection } from '@temporalio/client';
import { sdkTlsOf } from '../temporal/cluster-tls';
import type { RealServerBinaries } from '../temporal/real-server';
import { intakeWorkflowId } from '../workflows/messages';
import { books, waitFinal, waitStatus } from './books';
import { approve, complete, jpeg, retrying, staged, type Reply } from './client';
import { notPromoted, withStack, type Scenario } from './harness';
import { drive } from './resilience';

const FLOOD = 28;
const BIG = 'x'.repeat(1_900_000);

/** Each call's end: taken by the server, or refused (with the first refusal's words). */
async function tally(calls: Promise<unknown>[]): Promise<{ taken: number; refused: number; why: string }> {
  const settled = await Promise.allSettled(calls);
  const refusals = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  const first = refusals[0]?.reason as { message?: string; cause?: { details?: string } } | undefined;
  return { taken: settled.length - refusals.length, refused: refusals.length, why: `${first?.message ?? ''} ${first?.cause?.details ?? ''}`.trim() };
}

export function doorFlood(server: { realTemporal?: RealServerBinaries | undefined } = {}): Scenario {
  return {
    id: 'F19',
    fault: `${FLOOD} approve signals and ${FLOOD} approve Updates of 1.9 MB straight to Temporal (${server.realTemporal ? 'real server' : 'dev server'}) at one intake awaiting review, beside other reviews`,
    holds: 'each refused at the door, none in history; the worker process never exits; the others promoted; the approve answers 200 (or 503) and promotes once; duplicates 0',
    run: async (size) => {
      const others = size === 'short' ? 3 : 10;
      return withStack(async (s) => {
        const ids = await Promise.all(Array.from({ length: others + 1 }, () => staged(s, jpeg(8 * 1024))));
        const [target, ...rest] = ids as [string, ...string[]];
        await Promise.all(ids.map((id) => retrying(() => complete(s, id))));
        if (!(await waitStatus(s, ids, 'awaiting_review'))) throw new Error('the submissions did not reach awaiting_review');
        const workerPid = s.workerPid();
        // As an outsider would: no retries, no credentials beyond the address (and, past the real
        // server's mTLS, a client certificate: the door's limits hold for a caller who has one).
        const connection = await Connection.connect({ address: s.temporalAddress, interceptors: [], ...(s.temporalTls ? { tls: sdkTlsOf(s.temporalTls) } : {}) });
        let signals;
        let updates;
        let historyBefore = 0;
        let historyAfter = 0;
        const answers: number[] = [];
        try {
          const h = new Client({ connection }).workflow.getHandle(intakeWorkflowId(target));
          historyBefore = (await h.describe()).historyLength;
          const big = (i: number) => ({ requestId: `f19-${i}`, by: { actorId: 'bench-operator', credentialId: 'forged' }, reviewNotes: BIG });
          // The others are reviewed while the flood arrives.
          const reviews = Promise.all(rest.map((id) => drive(s, id, answers, 180_000)));
          [signals, updates] = await Promise.all([
            tally(Array.from({ length: FLOOD }, (_, i) => h.signal('approve', big(i) as never))),
            tally(Array.from({ length: FLOOD }, (_, i) => h.executeUpdate('approve', { args: [big(FLOOD + i) as never] }))),
          ]);
          await reviews;
          historyAfter = (await h.describe()).historyLength;
        } finally {
          await connection.close();
        }
        const approved: Reply = await retrying(() => approve(s, target), 120_000);
        await waitFinal(s, ids);
        const b = await books(s, ids);
        const workerStayed = s.workerPid() === workerPid && !s.restarts().worker;
        const measured = {
          signals_refused: signals.refused,
          updates_refused: updates.refused,
          taken: signals.taken + updates.taken,
          refused_as: signals.why.slice(0, 80),
          history_growth: historyAfter - historyBefore,
          worker_restarts: s.restarts().worker ?? 0,
          worker_same_pid: String(s.workerPid() === workerPid),
          approve_status: approved.status,
          others_answers_5xx: answers.filter((a) => a >= 500 && a !== 503).length,
          promoted: b.promoted,
          of: ids.length,
          duplicate_drafts: b.duplicateDrafts,
          duplicate_events: b.duplicateEvents,
          not_promoted: await notPromoted(s, b.statuses),
        };
        const pass =
          signals.taken === 0 && updates.taken === 0 && historyAfter === historyBefore && workerStayed &&
          (approved.status === 200 || approved.status === 503) && b.promoted === ids.length &&
          b.duplicateDrafts === 0 && b.duplicateEvents === 0 && measured.others_answers_5xx === 0;
        return { measured, pass };
      }, {}, { supervise: true, realTemporal: server.realTemporal });
    },
  };
}
