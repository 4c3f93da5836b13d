// GET /submissions/{id}/preview: the private review preview of a verified submission, for human
// operators only (bearer, portfolio_intake:review), never cached, never to an API key.
import { z } from 'zod';
import { isFinal } from '../../../lib/intake/lifecycle';
import { findSubmission } from '../../../lib/intake/submissions';
import type { PreviewSize } from '../../../lib/storage/types';
import type { AppDeps } from '../../deps';
import { AppError } from '../../http/errors';
import { defineRoute, type Route } from '../../http/route';
import * as C from '../../openapi/components';
import { INTAKE_BASE } from '../bases';
import { submissionIdParams } from './schemas';

export const previewQuery = z.object({ size: z.enum(['thumb', 'large']).default('large').describe('thumb: 320 px long edge; large: 1600 px') }).strict();

/** How long the route waits for previews the worker makes right after committing a verification. */
const PREVIEW_WAIT_MS = 10_000;
const PREVIEW_LOOK_EVERY_MS = 100;

/**
 * The preview, waiting (bounded) for it when the submission was just verified: the worker writes
 * the previews right after the outcome, so an operator who looks at once gets the image, not a 404.
 */
async function previewOf(deps: AppDeps, stagingKey: string, size: PreviewSize, settled: boolean): Promise<Buffer | null> {
  const deadline = Date.now() + (settled ? 0 : PREVIEW_WAIT_MS);
  for (;;) {
    const bytes = await deps.store.readPreview(stagingKey, size);
    if (bytes || Date.now() >= deadline) return bytes;
    await new Promise((r) => setTimeout(r, PREVIEW_LOOK_EVERY_MS));
  }
}

/**
 * A verified submission's review preview (the API route and the console serve it): 404 for an
 * unknown or unverified one, or once a settled one's retention passed; 503 while it is being made.
 */
export async function previewBytes(deps: AppDeps, submissionId: string, size: PreviewSize): Promise<Buffer> {
  const row = await findSubmission(deps.sql, submissionId);
  if (!row) throw new AppError('not_found', 'No such submission.');
  if (!row.verifiedSha256) throw new AppError('not_found', 'This submission has no preview: its bytes were not verified.');
  const bytes = await previewOf(deps, row.stagingKey, size, isFinal(row.intakeStatus));
  if (bytes) return bytes;
  if (isFinal(row.intakeStatus)) throw new AppError('not_found', 'The previews of a settled submission are deleted with its staged bytes once its retention passes.');
  throw new AppError('preview_pending', 'The preview is still being made; retry shortly.', { headers: { 'Retry-After': '2' } });
}

export function previewRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'intake', method: 'get', path: `${INTAKE_BASE}/submissions/{submissionId}/preview`, operationId: 'getPreview', tag: 'review',
      auth: 'operator', permission: 'portfolio_intake:review',
      summary: 'The review preview of a verified submission (WebP, upright, every metadata block stripped)',
      params: submissionIdParams, query: previewQuery, okContentType: 'image/webp',
      ok: { 200: ['the preview', C.PreviewImage] }, problems: [404, 503],
      async handler({ deps, params, query, res }) {
        const bytes = await previewBytes(deps, params.submissionId, query.size);
        res.set('cache-control', 'private, no-store').set('x-content-type-options', 'nosniff').type('image/webp').send(bytes);
      },
    }),
  ];
}
