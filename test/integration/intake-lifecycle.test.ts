import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signGrant } from '../../lib/storage/signing';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, putUpload, stageAndVerify, submissionBody, writeStagedAround } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

describe('portfolio intake over HTTP, on a real Temporal dev server and PostgreSQL', () => {
  let stack: TestStack;
  let partner: TestCredential;
  let operator: TestCredential;
  beforeAll(async () => {
    stack = await startTestStack();
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
  });
  afterAll(async () => stack?.stop());

  it('create, PUT, upload-complete, approve: the draft is private, in the media store, and nothing is public', async () => {
    const runtimeBefore = await stack.sql`select count(*)::int as n from pg_stat_user_tables where relname in ('studios','portfolio_assets','designs','artists') and n_tup_ins > 0`;
    const bytes = jpegBytes(4096);
    const { id, created, done } = await stageAndVerify(stack, partner, bytes);
    expect(created.body).toMatchObject({
      success: true,
      data: { submission: { submissionId: id, intakeStatus: 'staged', reviewStatus: 'review_required' }, upload: { method: 'PUT', expiresInSeconds: 900 } },
    });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required', mediaStoreDocumentId: null });
    expect(done.body.data.governance).toEqual({ reviewRequired: true, promotedToMediaStore: false, publicSurfaceActivated: false, canonicalRuntimeMutationExecuted: false });

    const queue = await call(stack, 'GET', `${INTAKE}/review-queue`, { headers: operator.headers });
    expect(queue.status).toBe(200);
    expect(queue.body.data.map((i: { submissionId: string }) => i.submissionId)).toContain(id);

    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Rights attested, looks good.' } });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ intakeStatus: 'promoted_to_media_store', reviewStatus: 'approved' });
    expect(approved.body.data.mediaStoreDocumentId).toMatch(/^mdoc_/);
    expect(approved.body.data.governance).toEqual({ reviewRequired: false, promotedToMediaStore: true, publicSurfaceActivated: false, canonicalRuntimeMutationExecuted: false });

    const status = await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: partner.headers });
    expect(status.body.data.intakeStatus).toBe('promoted_to_media_store');
    expect(JSON.stringify(status.body)).not.toMatch(/staging\/|drafts\/|reviewNotes|Rights attested|x-api-key/i);

    const [doc] = await stack.sql`select visibility, publish_state, sha256, object_key from media_documents where submission_id = ${id}`;
    expect(doc).toMatchObject({ visibility: 'private', publishState: 'draft' });
    const objectFile = path.join(stack.dataDir, 'objects', 'media', doc!.objectKey);
    expect(fs.readFileSync(objectFile).equals(bytes)).toBe(true);
    const events = await stack.sql`select to_status from intake_events where submission_id = ${id} order by id`;
    expect(events.map((e) => e.toStatus)).toEqual(['staged', 'verifying', 'awaiting_review', 'promoting', 'promoted_to_media_store']);
    const runtimeAfter = await stack.sql`select count(*)::int as n from pg_stat_user_tables where relname in ('studios','portfolio_assets','designs','artists') and n_tup_ins > 0`;
    expect(runtimeAfter).toEqual(runtimeBefore);
  });

  it('when the upload is smaller than declared, the signed URL refuses it; upload-complete without an object is 409 upload_missing and the submission stays staged for a real upload', async () => {
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: 3000 }) });
    const put = await putUpload(created.body.data.upload.url, jpegBytes(1000));
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('upload_url_invalid');
    const id = created.body.data.submission.submissionId;
    const early = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('upload_missing');
    const status = await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: partner.headers });
    expect(status.body.data).toMatchObject({ intakeStatus: 'staged', reviewStatus: 'review_required' });
    const [refusal] = await stack.sql`select decision, reason, claimed_actor_id from decision_refusals where submission_id = ${id}`;
    expect(refusal).toMatchObject({ decision: 'upload_complete', reason: 'object_missing', claimedActorId: partner.actorId });
    // The real upload after it is taken and verified.
    expect((await putUpload(created.body.data.upload.url, jpegBytes(3000))).status).toBe(200);
    const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ intakeStatus: 'awaiting_review' });
  });

  it('when the stored bytes differ in size from the declaration (written around the URL), verification says size_mismatch', async () => {
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: 3000 }) });
    const id = created.body.data.submission.submissionId;
    const file = writeStagedAround(stack, id, jpegBytes(3001));
    const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
    expect(done.body.data).toMatchObject({ intakeStatus: 'verification_failed', failureReason: 'size_mismatch' });
    // The outcome is written first (so a retried verification answers the recorded reason), then the bytes go.
    await eventually(async () => !fs.existsSync(file), 5000, 50);
  });

  it('when the bytes are not the declared image type, verification says magic_bytes_mismatch', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1000)]);
    const { done } = await stageAndVerify(stack, partner, png);
    expect(done.body.data).toMatchObject({ intakeStatus: 'verification_failed', failureReason: 'magic_bytes_mismatch' });
  });

  it('approving before verification is 409, approving twice promotes once, reject after approve is 409', async () => {
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner) });
    const early = await call(stack, 'POST', `${INTAKE}/submissions/${created.body.data.submission.submissionId}/approve`, { headers: operator.headers, body: { reviewNotes: 'too early' } });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('invalid_transition');

    const { id } = await stageAndVerify(stack, partner);
    const [a, b] = await Promise.all([
      call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'first' } }),
      call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'second' } }),
    ]);
    expect([a.status, b.status].sort()).toContain(200);
    const again = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'third' } });
    expect(again.status).toBe(409);
    const docs = await stack.sql`select count(*)::int as n from media_documents where submission_id = ${id}`;
    expect(docs[0]!.n).toBe(1);
    const reject = await call(stack, 'POST', `${INTAKE}/submissions/${id}/reject`, { headers: operator.headers, body: { reasonCode: 'other', reviewNotes: 'changed my mind' } });
    expect(reject.status).toBe(409);
  });

  it('a rejected submission cannot be approved afterwards', async () => {
    const { id } = await stageAndVerify(stack, partner);
    const rejected = await call(stack, 'POST', `${INTAKE}/submissions/${id}/reject`, { headers: operator.headers, body: { reasonCode: 'rights_unclear', reviewNotes: 'No attestation from the artist.' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ intakeStatus: 'rejected', reviewStatus: 'rejected', rejectReason: 'rights_unclear' });
    const approve = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'late approval' } });
    expect(approve.status).toBe(409);
  });

  it('when the staged bytes change behind the seal before approval, promotion stops at verification_failed (object_changed), with no draft', async () => {
    const { id } = await stageAndVerify(stack, partner);
    fs.writeFileSync(path.join(stack.dataDir, 'objects', 'staging', 'staging', id), jpegBytes(2048).fill(7, 100));
    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Looks fine to me.' } });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ intakeStatus: 'verification_failed', failureReason: 'object_changed', mediaStoreDocumentId: null });
    const docs = await stack.sql`select count(*)::int as n from media_documents where submission_id = ${id}`;
    expect(docs[0]!.n).toBe(0);
    expect(fs.existsSync(path.join(stack.dataDir, 'objects', 'media', 'drafts', id))).toBe(false);
    const [row] = await stack.sql`select intake_status, failure_code from submissions where submission_id = ${id}`;
    expect(row).toEqual({ intakeStatus: 'verification_failed', failureCode: 'object_changed' });
  });

  it('an expired or tampered upload URL is refused with 403, and a verified upload cannot be replaced', async () => {
    const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner) });
    const url = new URL(created.body.data.upload.url);
    const tampered = new URL(url);
    tampered.searchParams.set('len', '4096');
    expect((await putUpload(tampered.toString(), jpegBytes(4096))).status).toBe(403);
    const expired = new URL(url);
    expired.searchParams.set('exp', '1000');
    expect((await putUpload(expired.toString(), jpegBytes(2048))).body.code).toBe('upload_url_invalid');
    const wrongType = await putUpload(url.toString(), jpegBytes(2048), 'image/png');
    expect(wrongType.status).toBe(403);

    const { created: c2 } = await stageAndVerify(stack, partner);
    const replace = await putUpload(c2.body.data.upload.url, jpegBytes(2048));
    expect(replace.status).toBe(409);
    expect(replace.body.code).toBe('upload_sealed');
  });

  it('an authentic URL past its expiry: 403 upload_url_expired while the submission takes an upload (a replay gives a fresh URL), 409 once it has moved on', async () => {
    const secret = stack.api.deps.uploadSigningSecret;
    const expiredUrlOf = (u: string) => {
      const url = new URL(u);
      const grant = { key: decodeURIComponent(url.pathname.split('/uploads/')[1]!), contentType: url.searchParams.get('ct')!, sizeBytes: Number(url.searchParams.get('len')), expires: Math.floor(Date.now() / 1000) - 5 };
      url.searchParams.set('exp', String(grant.expires));
      url.searchParams.set('sig', signGrant(secret, grant));
      return url.toString();
    };
    const body = submissionBody(partner, { sizeBytes: 2048 });
    const staged = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body });
    const early = await putUpload(expiredUrlOf(staged.body.data.upload.url), jpegBytes(2048));
    expect([early.status, early.body.code]).toEqual([403, 'upload_url_expired']);
    const replay = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body });
    expect(replay.body.data.upload?.url).toBeTruthy();

    const { created: verified } = await stageAndVerify(stack, partner);
    const late = await putUpload(expiredUrlOf(verified.body.data.upload.url), jpegBytes(2048));
    expect(late.status).toBe(409);
    expect(['upload_sealed', 'invalid_transition']).toContain(late.body.code);
  });

  it('another partner reading the status gets 404, an API key trying to approve gets 403', async () => {
    const { id } = await stageAndVerify(stack, partner);
    const other = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const read = await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: other.headers });
    expect(read.status).toBe(404);
    const keyApprove = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: partner.headers, body: { reviewNotes: 'self approval' } });
    expect(keyApprove.status).toBe(403);
    expect(keyApprove.body.code).toBe('operator_required');
  });

  it('reviewNotes of 2 and 2001 characters are 400 naming the field; a 201-character submission id is 400', async () => {
    for (const notes of ['ab', 'x'.repeat(2001)]) {
      const r = await call(stack, 'POST', `${INTAKE}/submissions/sub_x/approve`, { headers: operator.headers, body: { reviewNotes: notes } });
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.errors.map((e: { path: string }) => e.path)).toContain('body.reviewNotes');
    }
    const long = await call(stack, 'POST', `${INTAKE}/submissions/${'s'.repeat(201)}/approve`, { headers: operator.headers, body: { reviewNotes: 'fine notes' } });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].path).toBe('path.submissionId');
  });

  it('bad create bodies are 400 naming each field; sizes above the maximum are refused', async () => {
    const r = await call(stack, 'POST', `${INTAKE}/submissions`, {
      headers: partner.headers,
      body: submissionBody(partner, { idempotencyKey: 'short', mimeType: 'image/gif', sizeBytes: 0, extra: 1 }),
    });
    expect(r.status).toBe(400);
    const paths = r.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['body.idempotencyKey', 'body.mimeType', 'body.sizeBytes']));
    const big = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: 50 * 1024 * 1024 + 1 }) });
    expect(big.status).toBe(400);
    const notJson = await fetch(`${stack.url}${INTAKE}/submissions`, { method: 'POST', headers: { ...partner.headers, 'content-type': 'application/json' }, body: '{"a":' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { code: string }).code).toBe('invalid_json');
  });

  it('the same key and body give the same submission; a different body is 422; 20 concurrent creates make one submission and one workflow', async () => {
    const body = submissionBody(partner);
    const first = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body });
    const again = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body });
    expect(again.status).toBe(201);
    expect(again.body.data.submission.submissionId).toBe(first.body.data.submission.submissionId);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const changed = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: { ...body, title: 'another' } });
    expect(changed.status).toBe(422);
    expect(changed.body.code).toBe('idempotency_key_reused');

    const burst = submissionBody(partner);
    const results = await Promise.all(Array.from({ length: 20 }, () => call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: burst })));
    const ids = new Set(results.map((r) => r.body.data?.submission.submissionId));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(ids.size).toBe(1);
    const rows = await stack.sql`select count(*)::int as n from idempotency_records where idempotency_key = ${burst.idempotencyKey}`;
    expect(rows[0]!.n).toBe(1);
    const [id] = [...ids];
    const wf = await stack.api.deps.temporal.client.workflow.count(`WorkflowId = "intake/${id}"`);
    expect(wf.count).toBe(1);
  });

  it('when no upload arrives before the window ends, the submission expires and its staged object is deleted', async () => {
    const short = await startTestStack({ env: { UPLOAD_URL_TTL_SECONDS: '1', UPLOAD_GRACE_SECONDS: '1' } });
    try {
      const p = await apiKeyActor(short, { permissions: ['portfolio_intake:stage'] });
      const created = await call(short, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body: submissionBody(p) });
      const id = created.body.data.submission.submissionId;
      const final = await eventually(async () => {
        const s = await call(short, 'GET', `${INTAKE}/submissions/${id}`, { headers: p.headers });
        return s.body.data.intakeStatus === 'expired' && s;
      }, 30_000);
      expect(final.body.data.reviewStatus).toBe('not_reviewed');
      const [row] = await short.sql`select intake_status from submissions where submission_id = ${id}`;
      expect(row!.intakeStatus).toBe('expired');
      const late = await call(short, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: p.headers });
      expect(late.status).toBe(409);
    } finally {
      await short.stop();
    }
  });
});
