import type { Sql } from '../lib/db';
import { fingerprintsOf, type Fingerprints } from '../lib/media/fingerprints/compute';
import { storeFingerprints } from '../lib/media/fingerprints/index';
import { outcomeOf } from '../lib/intake/lifecycle';
import { applyTransition } from '../lib/intake/transitions';
import { headerFormat, inspectImage, type Inspection } from '../lib/media/inspect';
import { decodeForPreviews, encodePreviews } from '../lib/media/previews';
import { MAGIC_PREFIX_BYTES, matchesMagic } from '../lib/media/magic';
import type { ObjectStore, PreviewSize } from '../lib/storage/types';
import { findSubmission } from '../lib/intake/submissions';
import { insertRefusal } from '../lib/intake/refusals';
import { persist, recordedRow } from './steps';
import type { VerifyInput, VerifyResult } from './types';

export function verifyStagedMedia(deps: { sql: Sql; store: ObjectStore; maxImagePixels: number }) {
  return async (i: VerifyInput): Promise<VerifyResult> => {
    const { store, sql } = deps;
    const { enter, outcomes } = i;
    // An upload-complete sent before the bytes: nothing is written, the submission stays staged
    // (the refusal is recorded; the partner may upload and complete again while the window lasts).
    if (!(await store.statStaged(i.stagingKey)) && (await findSubmission(sql, i.submissionId))?.intakeStatus === enter.from) {
      const detail = 'no uploaded object yet; the submission stays staged until the upload window ends';
      const requestId = i.requestId ?? `object-missing:${i.submissionId}`;
      await insertRefusal(sql, { submissionId: i.submissionId, signal: 'upload_complete', requestId, reason: 'object_missing', claimed: i.by, detail });
      return { refused: true, reason: 'object_missing' };
    }
    // A retry after the outcome was written answers what was recorded: the staged object of a
    // failed verification is already gone, and re-checking it would give another reason.
    const row = await recordedRow(sql, i.submissionId, await persist(sql, enter));
    if (row && row.intakeStatus !== enter.to) {
      if (row.verifiedSha256) {
        await remakeMissingPreviews(store, i, deps.maxImagePixels);
        return { ok: true, sha256: row.verifiedSha256 };
      }
      if (row.failureCode) return { ok: false, code: row.failureCode };
    }
    // Seal first: from here on the upload endpoint refuses to replace the bytes, so the hash we
    // record is the hash of what the operator will approve.
    await store.sealStaged(i.stagingKey, 'pending');
    // The size and the first bytes are asked for at once (the partner's answer waits for this
    // step); the first bytes count only where the object is there at its declared size.
    const prefixRead = store.readStagedPrefix(i.stagingKey, MAGIC_PREFIX_BYTES).then(
      (bytes) => ({ bytes }),
      (err: unknown) => ({ err }),
    );
    const stat = await store.statStaged(i.stagingKey);
    const prefix = async () => {
      const r = await prefixRead;
      if ('err' in r) throw r.err; // the object is there: a failed read is transient, and the activity retries
      return r.bytes;
    };
    let result: Exclude<VerifyResult, { refused: true }>;
    let inspected: Inspection | undefined;
    let fingerprints: Fingerprints | undefined;
    let previews: Promise<void> | undefined;
    if (!stat) result = { ok: false, code: 'object_missing' };
    else if (stat.size !== i.sizeBytes) result = { ok: false, code: 'size_mismatch' };
    else if (!matchesMagic(i.mimeType, await prefix(), stat.size))
      // Another image type than declared (a PNG sent as image/jpeg), or not an image at all.
      result = { ok: false, code: (await store.withStagedFile(i.stagingKey, headerFormat)) ? 'type_mismatch' : 'magic_bytes_mismatch' };
    else {
      // Decoded once; the decoded pixels (in memory) also become the fingerprints and the previews. The
      // hash is taken at the same time (the bytes are sealed: both read the same bytes).
      const [inspection, sha256] = await Promise.all([
        store.withStagedFile(i.stagingKey, (file) => inspectImage(file, i.mimeType, deps.maxImagePixels)),
        store.sha256Staged(i.stagingKey),
      ]);
      inspected = inspection;
      if (!inspected.ok) result = inspected;
      else {
        // The review previews, from the pixels verification decoded (not from the file again: the
        // staged bytes are sealed, but the previews must show what was verified), made while the
        // rest runs. Encoding is libvips's work on its own threads, so the partner's answer (the
        // run's workflow task holds this local activity) waits for the slower of the two, not the
        // sum. If storing them fails, the retried activity makes them (remakeMissingPreviews).
        const decoded = inspected.decoded;
        previews = encodePreviews(decoded).then((p) => storePreviews(store, i.stagingKey, p));
        previews.catch(() => {}); // awaited below; a failure meanwhile is not left unhandled
        // The hash sealed, and the perceptual fingerprints from the same decoded pixels
        // (lib/media/fingerprints), at once.
        [, fingerprints] = await Promise.all([store.sealStaged(i.stagingKey, sha256), fingerprintsOf(decoded)]);
        result = { ok: true, sha256, image: inspected.image };
      }
    }
    // The outcome and the fingerprints commit together; a retry after the commit writes neither.
    // The fingerprints are not part of the result: the workflow's history and its input stay as they were.
    await sql.begin(async (tx) => {
      const written = await applyTransition(tx, outcomeOf(outcomes, result));
      if (written && fingerprints) await storeFingerprints(tx, { kind: 'submission', id: i.submissionId, submissionId: i.submissionId }, fingerprints);
    });
    if (!result.ok) await store.deleteStaged(i.stagingKey);
    await previews;
    return result;
  };
}

async function storePreviews(store: ObjectStore, stagingKey: string, previews: Record<PreviewSize, Buffer>): Promise<void> {
  for (const size of ['thumb', 'large'] as const) await store.putPreview(stagingKey, size, previews[size]);
}

/**
 * A retried verification whose outcome was written: make the previews if they are missing. They
 * are for display only; when they cannot be made (the sealed bytes were tampered with outside
 * the API), the verdict stands and the preview route answers 404, rather than the lifecycle
 * waiting on an activity that can never succeed.
 */
async function remakeMissingPreviews(store: ObjectStore, i: VerifyInput, maxPixels: number): Promise<void> {
  if (await store.readPreview(i.stagingKey, 'large')) return;
  try {
    const decoded = await store.withStagedFile(i.stagingKey, (file) => decodeForPreviews(file, maxPixels, i.mimeType === 'image/heic'));
    await storePreviews(store, i.stagingKey, await encodePreviews(decoded));
  } catch {
    // see above: no previews for this submission
  }
}
