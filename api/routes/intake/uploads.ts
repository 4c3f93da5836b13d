// PUT <signed url> for the local storage driver: signature, expiry, Content-Type and length are
// checked before a byte is stored; bytes are taken only while the transition table says the
// submission accepts an upload, and a verified (sealed) object is never replaced.
import { z } from '../../openapi/zod';
import { acceptsUpload, isFinal } from '../../../lib/intake/lifecycle';
import { findByStagingKey } from '../../../lib/intake/submissions';
import { isSafeObjectKey, LocalObjectStore, SAFE_KEY, SealedError, UploadTooLargeError } from '../../../lib/storage/local';
import { checkGrant } from '../../../lib/storage/signing';
import { AppError } from '../../http/errors';
import { defineRoute, reply, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { INTAKE_BASE } from '../../routing/bases';

// The key is judged before the signature: an unsafe one is the client's error (400), never a 500
// from the store refusing to map it to a file.
export const uploadKeyParams = z.object({
  key: z
    .string()
    .min(1)
    .max(300)
    .regex(SAFE_KEY, 'letters, digits, ., _, - and /')
    .refine(isSafeObjectKey, 'path segments that are not empty, . or ..'),
});

export const uploadQuery = z.object({
  ct: z.string().min(1).max(100),
  // Integers as the signed URL carries them (documented as such: zod-to-openapi would otherwise
  // describe what coercion lets through).
  len: z.coerce.number().int().min(1).openapi({ type: 'integer', minimum: 1, param: { required: true } }),
  exp: z.coerce.number().int().min(0).openapi({ type: 'integer', minimum: 0, param: { required: true } }),
  sig: z.string().min(10).max(200),
});

const closed = (status: string) => new AppError('invalid_transition', `This submission no longer accepts an upload (status ${status}).`);

export function uploadRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'intake', method: 'put', path: `${INTAKE_BASE}/uploads/{key}`, operationId: 'uploadBytes', tag: 'uploads', auth: 'public',
      summary: 'The signed upload URL of the local storage driver (use the URL from createSubmission as given)',
      params: uploadKeyParams, query: uploadQuery, rawBody: true,
      ok: { 200: ['stored', C.UploadAccepted] },
      problems: [400, 403, 404, 409, 413],
      async handler({ deps, params: { key }, query: q, req }) {
        const store = deps.store;
        if (!(store instanceof LocalObjectStore)) throw new AppError('not_found', 'Uploads go to the object store directly.');
        const grant = { key, contentType: q.ct, sizeBytes: q.len, expires: q.exp };
        const check = checkGrant(deps.uploadSigningSecret, grant, q.sig, Math.floor(Date.now() / 1000));
        if (!check.ok) {
          if (check.reason !== 'expired') throw new AppError('upload_url_invalid', 'The upload URL signature does not match.');
          // An authentic URL past its expiry: a fresh one helps only while the submission still
          // takes an upload; once it has moved on (verified, decided, expired), 409 says so.
          if (await store.isSealed(key)) throw new AppError('upload_sealed', 'This upload was already verified and can no longer be replaced.');
          const owner = await findByStagingKey(deps.sql, key);
          if (owner && !acceptsUpload(owner.intakeStatus)) throw closed(owner.intakeStatus);
          throw new AppError('upload_url_expired', 'The upload URL has expired; create the submission again with the same idempotencyKey for a fresh one.');
        }
        if ((req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase() !== q.ct)
          throw new AppError('upload_url_invalid', `Content-Type must be ${q.ct}, as signed.`);
        if (req.get('content-length') !== String(q.len)) throw new AppError('upload_url_invalid', `Content-Length must be ${q.len}, as signed.`);
        if (await store.isSealed(key)) throw new AppError('upload_sealed', 'This upload was already verified and can no longer be replaced.');
        const submission = await findByStagingKey(deps.sql, key);
        if (!submission) throw new AppError('not_found', 'No such upload.');
        if (!acceptsUpload(submission.intakeStatus)) throw closed(submission.intakeStatus);
        let written: number;
        try {
          written = await store.writeStaged(key, req, q.len);
        } catch (err) {
          if (err instanceof SealedError) throw new AppError('upload_sealed', 'This upload was already verified and can no longer be replaced.');
          if (err instanceof UploadTooLargeError) throw new AppError('payload_too_large', 'The body is longer than the signed length.');
          throw new AppError('validation_failed', 'The upload body was incomplete.');
        }
        if (written !== q.len) {
          await store.deleteStaged(key);
          throw new AppError('validation_failed', `Received ${written} bytes, signed for ${q.len}.`);
        }
        // The window may have closed while the bytes streamed in: the workflow's cleanup has run
        // or will not see this object, so it is removed here and nothing is left orphaned.
        const after = await findByStagingKey(deps.sql, key);
        if (!after || isFinal(after.intakeStatus)) {
          await store.deleteStaged(key);
          throw closed(after?.intakeStatus ?? 'gone');
        }
        return reply(200, { data: { bytes: written } });
      },
    }),
  ];
}
