// The workflow is the only author of transitions: the row passes through every state it does,
// each transition is written once (a retried step writes nothing twice), signal routes are woken
// by the transition write, and an upload URL never outlives the upload window.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities';
import { stepOutcomes, transitionOf } from '../../lib/intake/lifecycle';
import { applyTransition, transitionsWritten } from '../../lib/intake/transitions';
import { createObjectStore } from '../../lib/storage';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, putUpload, stageAndVerify, submissionBody, writeStagedAround } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let operator: TestCredential;
// The promotion waits here between the object copy and the draft row, until a test lets it go.
let release: (() => void) | undefined;
let held: Promise<void> | undefined;

beforeAll(async () => {
  stack = await startTestStack({ worker: false, env: { TRANSITION_WAIT_MS: '400' } });
  await stack.startWorker({
    afterMediaCopy: () => {
      if (!held) return Promise.resolve();
      return held;
    },
  });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
});
afterAll(async () => {
  release?.();
  await stack?.stop();
});

const eventsOf = (id: string) =>
  stack.sql<{ fromStatus: string | null; toStatus: string; trigger: string; actorId: string; at: Date }[]>`
    select from_status, to_status, trigger, actor_id, at from intake_events where submission_id = ${id} order by id`;

describe('one author of the intake lifecycle', () => {
  it('the row holds promoting while the promotion runs, and the review queue no longer lists it', async () => {
    const { id, done } = await stageAndVerify(stack, partner);
    expect(done.body.data.intakeStatus).toBe('awaiting_review');
    const queued = await call(stack, 'GET', `${INTAKE}/review-queue?limit=100`, { headers: operator.headers });
    expect(queued.body.data.map((i: { submissionId: string }) => i.submissionId)).toContain(id);

    held = new Promise<void>((r) => (release = r));
    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Rights attested.' } });
    // Not settled within TRANSITION_WAIT_MS: 202 with the state the row is in.
    expect(approved.status, JSON.stringify(approved.body)).toBe(202);
    expect(approved.body.data).toMatchObject({ intakeStatus: 'promoting', reviewStatus: 'approved' });
    const [row] = await stack.sql`select intake_status, review_status from submissions where submission_id = ${id}`;
    expect(row).toMatchObject({ intakeStatus: 'promoting', reviewStatus: 'approved' });
    const during = await call(stack, 'GET', `${INTAKE}/review-queue?limit=100`, { headers: operator.headers });
    expect(during.body.data.map((i: { submissionId: string }) => i.submissionId)).not.toContain(id);

    release!();
    held = undefined;
    await eventually(async () => {
      const [r] = await stack.sql`select intake_status from submissions where submission_id = ${id}`;
      return r!.intakeStatus === 'promoted_to_media_store';
    }, 20_000, 50);
    const events = await eventsOf(id);
    expect(events.map((e) => [e.fromStatus, e.trigger, e.toStatus])).toEqual([
      [null, 'create', 'staged'],
      ['staged', 'upload_complete', 'verifying'],
      ['verifying', 'verification_passed', 'awaiting_review'],
      ['awaiting_review', 'approve', 'promoting'],
      ['promoting', 'promotion_done', 'promoted_to_media_store'],
    ]);
    // staged -> verifying is stamped when verification starts, not after it ends.
    for (let i = 1; i < events.length; i++) expect(events[i]!.at.getTime()).toBeGreaterThanOrEqual(events[i - 1]!.at.getTime());
    expect(events[3]!.actorId).toBe(operator.actorId);
  });

  it('a verification retried after its outcome was written answers the recorded reason and writes nothing twice', async () => {
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: 3000 }) });
    const id = created.body.data.submission.submissionId as string;
    const file = writeStagedAround(stack, id, jpegBytes(3001));
    const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect(done.body.data).toMatchObject({ intakeStatus: 'verification_failed', failureReason: 'size_mismatch' });
    await eventually(async () => !fs.existsSync(file), 5000, 50);
    const before = await eventsOf(id);

    // The same task again, as Temporal would retry it after a worker died before reporting.
    const acts = createActivities({ sql: stack.sql, store: createObjectStore(stack.cfg) });
    const by = { actorId: partner.actorId, credentialId: 'retry' };
    const enter = transitionOf({ intakeStatus: 'staged', reviewStatus: 'review_required' }, 'upload_complete', { submissionId: id, by });
    const again = await acts.verifyStagedMedia({
      submissionId: id,
      stagingKey: `staging/${id}`,
      sizeBytes: 3000,
      mimeType: 'image/jpeg',
      by,
      enter,
      outcomes: stepOutcomes(enter, 'verification_passed', 'verification_failed'),
    });
    expect(again).toEqual({ ok: false, code: 'size_mismatch' });
    expect(await eventsOf(id)).toEqual(before);
  });

  it('a transition applies once, from the state it starts at, and is counted once by the process that wrote it', async () => {
    const { id } = await stageAndVerify(stack, partner);
    const counted = async () => (await transitionsWritten.get()).values.find((v) => v.labels.status === 'rejected')?.value ?? 0;
    const before = await counted();
    const rejected = transitionOf({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required' }, 'reject', {
      submissionId: id,
      by: { actorId: operator.actorId, credentialId: 'test' },
      note: 'duplicate: seen before',
      facts: { rejectReasonCode: 'duplicate' },
    });
    expect(await stack.sql.begin((tx) => applyTransition(tx, rejected))).toBe(true);
    expect(await stack.sql.begin((tx) => applyTransition(tx, rejected))).toBe(false);
    expect(await counted()).toBe(before + 1);
    const [row] = await stack.sql`select intake_status, review_status, reject_reason_code from submissions where submission_id = ${id}`;
    expect(row).toEqual({ intakeStatus: 'rejected', reviewStatus: 'rejected', rejectReasonCode: 'duplicate' });
    expect((await eventsOf(id)).filter((e) => e.toStatus === 'rejected')).toHaveLength(1);
  });
});

describe('the upload window is one window', () => {
  let short: TestStack;
  let p: TestCredential;
  beforeAll(async () => {
    short = await startTestStack({ env: { UPLOAD_URL_TTL_SECONDS: '4', UPLOAD_GRACE_SECONDS: '2' } });
    p = await apiKeyActor(short, { permissions: ['portfolio_intake:stage'] });
  });
  afterAll(async () => short?.stop());

  it('a create replayed late in the window gets a URL that ends with the window, not a fresh full lifetime', async () => {
    const body = submissionBody(p);
    const first = await call(short, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body });
    expect(first.body.data.upload.expiresInSeconds).toBe(4);
    // late in the window: at most 2.5 s of it left, by the database's clock (the one the route reads)
    const id = first.body.data.submission.submissionId as string;
    await eventually(async () => (await short.sql`select 1 from submissions where submission_id = ${id} and upload_deadline_at - now() <= interval '2.5 seconds'`).length === 1, 10_000, 50);
    const replay = await call(short, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // 6 s window, at most 2.5 s left: a URL for what is left (2 s, rounded down), never the 4 s lifetime.
    expect(replay.body.data.upload.expiresInSeconds).toBeLessThanOrEqual(2);
    const exp = Number(new URL(replay.body.data.upload.url).searchParams.get('exp'));
    const [row] = await short.sql`select extract(epoch from upload_deadline_at)::float8 as deadline from submissions where submission_id = ${replay.body.data.submission.submissionId}`;
    expect(exp).toBeLessThanOrEqual(Math.ceil(row!.deadline));
  });

  it('after the workflow expired the submission, bytes sent to a still-valid URL are refused and nothing is left behind', async () => {
    const created = await call(short, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body: submissionBody(p) });
    const id = created.body.data.submission.submissionId as string;
    await eventually(async () => {
      const [r] = await short.sql`select intake_status from submissions where submission_id = ${id}`;
      return r!.intakeStatus === 'expired';
    }, 30_000, 100);
    // A URL signed for longer than the window (as a build before this fix handed out on replays).
    const old = await short.api.deps.store.signUpload(`staging/${id}`, { contentType: 'image/jpeg', sizeBytes: 2048, expiresInSeconds: 900 });
    const put = await putUpload(old.url, jpegBytes(2048));
    expect(put.status).toBe(409);
    expect(put.body.code).toBe('invalid_transition');
    expect(fs.existsSync(path.join(short.dataDir, 'objects', 'staging', 'staging', id))).toBe(false);
  });
});
