import type { Sql } from '../lib/db';
import { MAGIC_PREFIX_BYTES, matchesMagic } from '../lib/media/magic';
import type { ObjectStore } from '../lib/storage/types';
import type { VerifyInput, VerifyResult } from './types';
import { recordEvent, setSubmissionStatus } from './intake-records';

export function verifyStagedMedia(deps: { sql: Sql; store: ObjectStore }) {
  return async (i: VerifyInput): Promise<VerifyResult> => {
    const { store, sql } = deps;
    // Seal first: from here on the upload endpoint refuses to replace the bytes, so the hash we
    // record is the hash of what the operator will approve.
    await store.sealStaged(i.stagingKey, 'pending');
    const stat = await store.statStaged(i.stagingKey);
    let result: VerifyResult;
    if (!stat) result = { ok: false, code: 'object_missing' };
    else if (stat.size !== i.sizeBytes) result = { ok: false, code: 'size_mismatch' };
    else if (!matchesMagic(i.mimeType, await store.readStagedPrefix(i.stagingKey, MAGIC_PREFIX_BYTES), stat.size))
      result = { ok: false, code: 'magic_bytes_mismatch' };
    else {
      const sha256 = await store.sha256Staged(i.stagingKey);
      await store.sealStaged(i.stagingKey, sha256);
      result = { ok: true, sha256 };
    }
    await sql.begin(async (tx) => {
      await recordEvent(tx, { submissionId: i.submissionId, by: i.by, from: 'staged', to: 'verifying' });
      if (result.ok) {
        await setSubmissionStatus(tx, i.submissionId, { intakeStatus: 'awaiting_review', reviewStatus: 'review_required', sha256: result.sha256 });
        await recordEvent(tx, { submissionId: i.submissionId, by: i.by, from: 'verifying', to: 'awaiting_review' });
      } else {
        await setSubmissionStatus(tx, i.submissionId, { intakeStatus: 'verification_failed', reviewStatus: 'not_reviewed', failureCode: result.code });
        await recordEvent(tx, { submissionId: i.submissionId, by: i.by, from: 'verifying', to: 'verification_failed', note: result.code });
      }
    });
    if (!result.ok) await store.deleteStaged(i.stagingKey);
    return result;
  };
}
