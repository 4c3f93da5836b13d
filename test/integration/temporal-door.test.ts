// The Temporal frontend is a door (issue 43 item 2): the server itself refuses a start, a signal or an
// Update larger than the project's own messages need (temporal/limits.ts), and a run takes at most
// SIGNALS_PER_RUN signals, so nothing sent around the API can grow a run towards the size at which
// the server would terminate it. Sent as an outsider would: a plain connection, no retries. Run on
// the dev server here and on the real server by test/e2e/real-temporal.test.ts.
import { temporalConnectionOptions } from '../../temporal/connection';
import { Client, Connection, WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_SIZE_ERROR, SIGNALS_PER_RUN, UPDATE_PAYLOADS_IN_FLIGHT } from '../../temporal/limits';
import { intakeWorkflowId } from '../../workflows/messages';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let operator: TestCredential;
let connection: Connection;
let outsider: Client;
beforeAll(async () => {
  stack = await startTestStack({ env: { LOG_LEVEL: 'error' } });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
  // As an outsider would: no retries, no token (on the real server, past its mTLS with a client certificate).
  connection = await Connection.connect({ ...temporalConnectionOptions(stack.cfg), interceptors: [] });
  outsider = new Client({ connection, namespace: stack.cfg.TEMPORAL_NAMESPACE });
});
afterAll(async () => {
  await connection?.close();
  await stack?.stop();
});

/** How a call ended: 'taken', or the server's words for the refusal. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'taken',
    (err: Error & { cause?: { details?: string } }) => `${err.name}: ${err.message} ${err.cause?.details ?? ''}`.trim(),
  );
const notes = (bytes: number) => 'x'.repeat(bytes);

describe('the frontend refuses what no message of ours needs', () => {
  it('a start, a signal and an Update above the limits are refused before history; the run goes on and promotes', async () => {
    const { id, done } = await stageAndVerify(stack, partner);
    expect(done.body.data.intakeStatus).toBe('awaiting_review');
    const h = outsider.workflow.getHandle(intakeWorkflowId(id));
    const before = await h.describe();

    // A start whose input is over the blob limit.
    expect(await outcome(outsider.workflow.start('portfolioIntake', { taskQueue: 'nobody-polls', workflowId: `door-${id}`, args: [notes(BLOB_SIZE_ERROR + 1024)] as never }))).toMatch(/Blob data size exceeds limit/);
    // 1.9 MB signals (the flood that once terminated runs and ended the worker process).
    const signals = await Promise.all(Array.from({ length: 5 }, (_, i) => outcome(h.signal('approve', { requestId: `big-${i}`, reviewNotes: notes(1_900_000) } as never))));
    expect(signals.every((s) => /Blob data size exceeds limit/.test(s)), signals.join('\n')).toBe(true);
    // An Update above what may be in flight is refused at admission: no worker sees it, so no refusal echoes it back.
    const big = await outcome(h.executeUpdate('approve', { args: [{ requestId: 'big-update', reviewNotes: notes(UPDATE_PAYLOADS_IN_FLIGHT) }] as never }));
    expect(big).toMatch(/in-flight updates/);
    // One just under it reaches the worker, whose validator refuses it; the refusal (it echoes the
    // request) fits under the blob limit, so the run is not terminated for it.
    const under = await h.executeUpdate('approve', { args: [{ requestId: 'under', reviewNotes: notes(UPDATE_PAYLOADS_IN_FLIGHT - 4096) }] as never }).then(() => 'taken', (err: unknown) => err);
    expect(under).toBeInstanceOf(WorkflowUpdateFailedError);

    const after = await h.describe();
    expect(after.status.name).toBe('RUNNING');
    expect(after.runId).toBe(before.runId);
    expect(after.historyLength).toBe(before.historyLength);

    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'looks right' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.intakeStatus).toBe('promoted_to_media_store');
  });

  it(`a run takes at most ${SIGNALS_PER_RUN} signals; the next is refused and the run is untouched`, async () => {
    const { id, done } = await stageAndVerify(stack, partner);
    expect(done.body.data.intakeStatus).toBe('awaiting_review');
    const h = outsider.workflow.getHandle(intakeWorkflowId(id));
    const ends: string[] = [];
    for (let i = 0; i < SIGNALS_PER_RUN + 5; i++) ends.push(await outcome(h.signal('reject', { requestId: `s-${i}`, reasonCode: 'nope' } as never)));
    const refused = ends.filter((e) => e !== 'taken');
    // A run that continued as new meanwhile takes more; this one stays short, so it must not.
    expect(ends.slice(0, SIGNALS_PER_RUN).every((e) => e === 'taken'), refused.slice(0, 2).join('\n')).toBe(true);
    expect(refused).toHaveLength(5);
    expect(refused.every((e) => /limit for signal events/.test(e)), refused[0]).toBe(true);
    expect((await h.describe()).status.name).toBe('RUNNING');
    const row = await stack.sql<{ intakeStatus: string }[]>`select intake_status from submissions where submission_id = ${id}`;
    expect(row[0]!.intakeStatus).toBe('awaiting_review');
  });
});
