// PUT <signed url> for the local storage driver: signature, expiry, Content-Type and length are
// checked before a byte is stored; a verified (sealed) object is never replaced.
import { Router } from 'express';
import { z } from 'zod';
import { LocalObjectStore, SealedError, UploadTooLargeError } from '../../../lib/storage/local';
import { checkGrant } from '../../../lib/storage/signing';
import type { AppDeps } from '../../deps';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/validate';

export const uploadKeyParams = z.object({ key: z.string().min(1).max(300) });

export const uploadQuery = z.object({
  ct: z.string().min(1).max(100),
  len: z.coerce.number().int().min(1),
  exp: z.coerce.number().int().min(0),
  sig: z.string().min(10).max(200),
});

export function uploadsRouter(deps: AppDeps): Router {
  const r = Router();
  r.put('/uploads/:key', async (req, res) => {
    const store = deps.store;
    if (!(store instanceof LocalObjectStore)) throw new AppError('not_found', 'Uploads go to the object store directly.');
    const q = parseInput(uploadQuery, req.query, 'query');
    const { key } = parseInput(uploadKeyParams, req.params, 'path');
    const grant = { key, contentType: q.ct, sizeBytes: q.len, expires: q.exp };
    const check = checkGrant(deps.uploadSigningSecret, grant, q.sig, Math.floor(Date.now() / 1000));
    if (!check.ok) {
      throw check.reason === 'expired'
        ? new AppError('upload_url_expired', 'The upload URL has expired; create the submission again with the same idempotencyKey for a fresh one.')
        : new AppError('upload_url_invalid', 'The upload URL signature does not match.');
    }
    if ((req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase() !== q.ct)
      throw new AppError('upload_url_invalid', `Content-Type must be ${q.ct}, as signed.`);
    if (req.get('content-length') !== String(q.len))
      throw new AppError('upload_url_invalid', `Content-Length must be ${q.len}, as signed.`);
    if (await store.isSealed(key)) throw new AppError('upload_sealed', 'This upload was already verified and can no longer be replaced.');
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
    res.status(200).json({ success: true, data: { bytes: written } });
  });
  return r;
}
