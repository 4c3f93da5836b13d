import type { Sql } from '../lib/db';
import { headerFormat, inspectImage } from '../lib/media/inspect';
import { MAGIC_PREFIX_BYTES, matchesMagic } from '../lib/media/magic';
import type { ObjectStore, PreviewSize } from '../lib/storage/types';
import { legacyStep, persist, persistOutcome, recordedRow } from './steps';
import type { VerifyInput, VerifyResult } from './types';

export function verifyStagedMedia(deps: { sql: Sql; store: ObjectStore; maxImagePixels: number }) {
  return async (i: VerifyInput): Promise<VerifyResult> => {
    const { store, sql } = deps;
    const { enter, outcomes } = legacyStep(i, { trigger: 'upload_complete', reviewStatus: 'review_required' }, 'verification_passed', 'verification_failed');
    // A retry after the outcome was written answers what was recorded: the staged object of a
    // failed verification is already gone, and re-checking it would give another reason.
    const row = await recordedRow(sql, i.submissionId, await persist(sql, enter));
    if (row && row.intakeStatus !== enter.to) {
      if (row.verifiedSha256) return { ok: true, sha256: row.verifiedSha256 };
      if (row.failureCode) return { ok: false, code: row.failureCode };
    }
    // Seal first: from here on the upload endpoint refuses to replace the bytes, so the hash we
    // record is the hash of what the operator will approve.
    await store.sealStaged(i.stagingKey, 'pending');
    const stat = await store.statStaged(i.stagingKey);
    let result: VerifyResult;
    if (!stat) result = { ok: false, code: 'object_missing' };
    else if (stat.size !== i.sizeBytes) result = { ok: false, code: 'size_mismatch' };
    else if (!matchesMagic(i.mimeType, await store.readStagedPrefix(i.stagingKey, MAGIC_PREFIX_BYTES), stat.size))
      // Another image type than declared (a PNG sent as image/jpeg), or not an image at all.
      result = { ok: false, code: (await store.withStagedFile(i.stagingKey, headerFormat)) ? 'type_mismatch' : 'magic_bytes_mismatch' };
    else {
      // Decoded once, into the review previews, which are stored before the outcome is written:
      // when awaiting_review is visible, the previews of exactly these bytes exist.
      const inspected = await store.withStagedFile(i.stagingKey, (file) => inspectImage(file, i.mimeType, deps.maxImagePixels));
      if (!inspected.ok) result = inspected;
      else {
        for (const [size, bytes] of Object.entries(inspected.previews ?? {})) await store.putPreview(i.stagingKey, size as PreviewSize, bytes);
        const sha256 = await store.sha256Staged(i.stagingKey);
        await store.sealStaged(i.stagingKey, sha256);
        result = { ok: true, sha256, image: inspected.image };
      }
    }
    await persistOutcome(sql, outcomes, result);
    if (!result.ok) await store.deleteStaged(i.stagingKey);
    return result;
  };
}
