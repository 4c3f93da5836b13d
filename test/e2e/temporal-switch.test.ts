// A stack moved from one Temporal to another with submissions open (issue 43 item 6): the dev
// server, then the real server on the same .data (it has never heard of those runs), then the dev
// server again (its runs of the first phase are stale there). Each time the worker's reconciler,
// starting from PostgreSQL, gives every open submission a run from the state its row records, and
// every one reaches its decision exactly once: one draft per promoted submission, no event twice.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startBenchStack, type BenchStack } from '../../bench/lib/stack';
import { books, waitStatus } from '../../faults/books';
import { approve, complete, create, createBody, INTAKE, jpeg, put, retrying, send, type Reply } from '../../faults/client';
import { tempStackDir } from '../../scripts/stack';
import { stackTemporalClient } from '../../temporal/connection';
import { intakeWorkflowId } from '../../workflows/messages';
import { realServerOrSkip } from './real-temporal-suite';

const bin = realServerOrSkip('a stack switched between the dev server and the real server');
const dir = tempStackDir('temporal-switch-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const BYTES = jpeg(8 * 1024);
const ENV = { RECONCILE_SECONDS: '2' };

/** A decision through the API, sent again while the run is being resumed (503 workflow_resuming) or away. */
async function decided(s: BenchStack, call: () => Promise<Reply>, want: string): Promise<Reply> {
  const r = await retrying(call, 120_000);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.data.intakeStatus).toBe(want);
  return r;
}
const reject = (s: BenchStack, id: string) => send(s, 'POST', `${INTAKE}/submissions/${id}/reject`, { headers: s.operator.headers, body: { reasonCode: 'other', reviewNotes: 'Not for the portfolio.' } });

/** As rows made before the switch: older than the reconciler's grace for a create still starting its run. */
const age = (s: BenchStack, ids: string[]) => s.sql`update submissions set created_at = created_at - interval '10 minutes' where submission_id = any(${ids})`;

if (bin) {
  describe('switching Temporal under open submissions', () => {
    it('dev server -> real server -> dev server: every open submission resumed from its row and decided exactly once', { timeout: 600_000 }, async () => {
      // 1. On the dev server: one staged and not uploaded, one uploaded but not completed, two awaiting review.
      let s = await startBenchStack({ dir, env: ENV });
      const notUploaded = createBody(s, { sizeBytes: BYTES.length });
      const a1 = (await create(s, notUploaded)).id;
      const a2c = await create(s, createBody(s, { sizeBytes: BYTES.length }));
      expect(await put(a2c.upload.url, a2c.upload.headers, BYTES)).toBe(200);
      const a2 = a2c.id;
      const review: string[] = [];
      for (let i = 0; i < 2; i++) {
        const c = await create(s, createBody(s, { sizeBytes: BYTES.length }));
        expect(await put(c.upload.url, c.upload.headers, BYTES)).toBe(200);
        expect((await retrying(() => complete(s, c.id))).status).toBeLessThan(300);
        review.push(c.id);
      }
      expect(await waitStatus(s, review, 'awaiting_review', 60_000)).toBe(true);
      const [a3, a4] = review as [string, string];
      await age(s, [a1, a2, a3, a4]);
      await s.stop();

      // 2. The real server on the same .data: no run of any of them exists there.
      s = await startBenchStack({ dir, env: ENV, realTemporal: bin });
      await decided(s, () => approve(s, a3), 'promoted_to_media_store');
      await decided(s, () => reject(s, a4), 'rejected');
      await decided(s, () => complete(s, a2), 'awaiting_review');
      await decided(s, () => approve(s, a2), 'promoted_to_media_store');
      // The same create again (its idempotency key) hands out a fresh upload URL for this API.
      const again = await create(s, notUploaded);
      expect(again.id).toBe(a1);
      expect(await put(again.upload.url, again.upload.headers, BYTES)).toBe(200);
      await decided(s, () => complete(s, a1), 'awaiting_review');
      await decided(s, () => approve(s, a1), 'promoted_to_media_store');
      // Two opened here, left open for the way back.
      const b1c = await create(s, createBody(s, { sizeBytes: BYTES.length }));
      expect(await put(b1c.upload.url, b1c.upload.headers, BYTES)).toBe(200);
      await decided(s, () => complete(s, b1c.id), 'awaiting_review');
      const b2c = await create(s, createBody(s, { sizeBytes: BYTES.length }));
      expect(await put(b2c.upload.url, b2c.upload.headers, BYTES)).toBe(200);
      await age(s, [b1c.id, b2c.id]);
      const resumedOnServer = (await s.sql<{ n: number }[]>`select count(*)::int as n from intake_resumptions where closed_as = 'not_found'`)[0]!.n;
      // Decided a while before the way back (the stale-run sweep leaves rows final for under two minutes alone).
      await s.sql`update submissions set updated_at = updated_at - interval '10 minutes' where submission_id = any(${[a1, a2, a3, a4]})`;
      await s.stop();

      // 3. Back on the dev server: its runs of step 1 are stale (their rows are decided), the runs of step 2 unknown.
      s = await startBenchStack({ dir, env: ENV });
      try {
        await decided(s, () => approve(s, b1c.id), 'promoted_to_media_store');
        await decided(s, () => complete(s, b2c.id), 'awaiting_review');
        await decided(s, () => approve(s, b2c.id), 'promoted_to_media_store');
        // A decided submission stays decided whatever run the dev server still holds for it.
        const late = await send(s, 'POST', `${INTAKE}/submissions/${a3}/approve`, { headers: s.operator.headers, body: { reviewNotes: 'Approved twice?' } });
        expect([late.status, late.body.code]).toEqual([409, 'invalid_transition']);

        const ids = [a1, a2, a3, a4, b1c.id, b2c.id];
        // The dev server's runs of step 1 waited for decisions taken on the real server: the worker
        // terminated them at its start (on-call's queries list no stale run as awaiting review).
        const { client, connection } = stackTemporalClient(s);
        try {
          const statusOf = async (id: string) => (await client.workflow.getHandle(intakeWorkflowId(id)).describe()).status.name;
          let statuses: string[] = [];
          for (let i = 0; i < 60; i++) {
            statuses = await Promise.all([a3, a4, a1, a2].map(statusOf));
            if (statuses.every((x) => x === 'TERMINATED')) break;
            await new Promise((r) => setTimeout(r, 500));
          }
          expect(statuses).toEqual(['TERMINATED', 'TERMINATED', 'TERMINATED', 'TERMINATED']);
        } finally {
          await connection.close();
        }
        const b = await books(s, ids);
        expect(b.statuses).toEqual({ [a1]: 'promoted_to_media_store', [a2]: 'promoted_to_media_store', [a3]: 'promoted_to_media_store', [a4]: 'rejected', [b1c.id]: 'promoted_to_media_store', [b2c.id]: 'promoted_to_media_store' });
        expect([b.promoted, b.draftRows, b.duplicateDrafts, b.duplicateEvents, b.orphanObjects]).toEqual([5, 5, 0, 0, 0]);
        // Every resumption is on record: the four of step 1 on the real server, the two of step 2 back on the dev server.
        expect(resumedOnServer).toBeGreaterThanOrEqual(4);
        const resumptions = await s.sql<{ submissionId: string; n: number }[]>`
          select submission_id, count(*)::int as n from intake_resumptions where closed_as = 'not_found' group by submission_id`;
        expect(Object.fromEntries(resumptions.map((r) => [r.submissionId, r.n]))).toEqual({ [a1]: 1, [a2]: 1, [a3]: 1, [a4]: 1, [b1c.id]: 1, [b2c.id]: 1 });
      } finally {
        await s.stop();
      }
    });
  });
}
