// The preview operation (one module for what the API's routes and the console both do):
// a verified submission's private review preview, waiting (bounded) for one just being made.
import { z } from 'zod';
import { isFinal } from '../../lib/intake/lifecycle';
import { findSubmission } from '../../lib/intake/submissions';
import { isFirstReview } from '../../lib/intake/vocabulary';
import type { PreviewSize } from '../../lib/storage/types';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';

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
 * unknown or unverified one, or once a settled one's retention passed; 503 while it is being made;
 * 410 for an agent's grant (`awaitingReview`) once the submission left review.
 */
export async function previewBytes(deps: AppDeps, submissionId: string, size: PreviewSize, o: { awaitingReview?: boolean } = {}): Promise<Buffer> {
  const row = await findSubmission(deps.sql, submissionId);
  if (!row) throw new AppError('not_found', 'No such submission.');
  if (!row.verifiedSha256) throw new AppError('not_found', 'This submission has no preview: its bytes were not verified.');
  // An agent's grant lasts only while the submission awaits review: previews stop with the review.
  if (o.awaitingReview && !isFirstReview(row.intakeStatus)) throw new AppError('preview_gone', `The submission no longer awaits review (status ${row.intakeStatus}): its agent preview is gone.`);
  const bytes = await previewOf(deps, row.stagingKey, size, isFinal(row.intakeStatus));
  if (bytes) return bytes;
  if (isFinal(row.intakeStatus)) throw new AppError('not_found', 'The previews of a settled submission are deleted with its staged bytes once its retention passes.');
  throw new AppError('preview_pending', 'The preview is still being made; retry shortly.', { headers: { 'Retry-After': '2' } });
}

