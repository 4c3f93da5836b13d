// One truth for the status (issue 22, item 2): a read right after a 2xx answer shows at least the
// state that answer named. 200 intakes; after each 2xx (create, upload-complete, approve), 20 reads
// at once: the partner's status read, the operator's, and the partner's list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intakeStatuses, type IntakeStatus } from '../../lib/intake/vocabulary';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, putUpload, submissionBody } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let operator: TestCredential;
beforeAll(async () => {
  stack = await startTestStack({ env: { LOG_LEVEL: 'warn', QUOTA_STAGED_SUBMISSIONS: '1000' } });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
});
afterAll(async () => stack?.stop());

/** How far along the lifecycle a status is (the order a submission goes through them). */
const RANK: Record<IntakeStatus, number> = { staged: 0, expired: 1, verifying: 1, verification_failed: 2, awaiting_review: 2, awaiting_second_review: 3, rejected: 3, promoting: 3, promoted_to_media_store: 4 };
const INTAKES = 200;
const READS = 20;

describe('reads right after a write', () => {
  it(`${INTAKES} intakes, ${READS} reads after each 2xx: none shows an earlier state than the answer named`, async () => {
    expect(Object.keys(RANK).sort()).toEqual([...intakeStatuses].sort());
    const bytes = jpegBytes(2048);
    const earlier: string[] = [];
    let reads = 0;
    const readsAfter = async (id: string, named: IntakeStatus) => {
      const replies = await Promise.all(
        Array.from({ length: READS }, (_, i) =>
          i % 4 === 3
            ? call(stack, 'GET', `${INTAKE}/submissions?limit=50`, { headers: partner.headers }).then((r) => (r.body.data as { submissionId: string; intakeStatus: IntakeStatus }[]).find((x) => x.submissionId === id)?.intakeStatus)
            : call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: (i % 2 ? operator : partner).headers }).then((r) => r.body.data?.intakeStatus as IntakeStatus | undefined),
        ),
      );
      for (const seen of replies) {
        reads++;
        if (!seen || RANK[seen] < RANK[named]) earlier.push(`${id}: answered ${named}, read ${seen ?? 'nothing'}`);
      }
    };
    const one = async () => {
      const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner, { sizeBytes: bytes.length }) });
      expect(created.status).toBe(201);
      const id = created.body.data.submission.submissionId as string;
      await readsAfter(id, created.body.data.submission.intakeStatus);
      expect((await putUpload(created.body.data.upload.url, bytes)).status).toBe(200);
      const done = await call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers });
      expect([200, 202]).toContain(done.status);
      await readsAfter(id, done.body.data.intakeStatus);
      if (done.body.data.intakeStatus !== 'awaiting_review') return;
      const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Rights attested.' } });
      expect([200, 202]).toContain(approved.status);
      await readsAfter(id, approved.body.data.intakeStatus);
    };
    // Eight partners at a time.
    for (let i = 0; i < INTAKES; i += 8) await Promise.all(Array.from({ length: Math.min(8, INTAKES - i) }, one));
    expect(reads).toBeGreaterThanOrEqual(INTAKES * READS * 2);
    expect(earlier.slice(0, 10)).toEqual([]);
  }, 600_000);
});
