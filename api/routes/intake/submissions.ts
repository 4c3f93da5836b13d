// Create a submission (row + workflow + signed upload URL) and read its status (the workflow query).
import { fingerprintOf, scopeViolation } from '../../../lib/intake/requests';
import { createSubmission, findOwnSubmission, type SubmissionRow } from '../../../lib/intake/submissions';
import { acceptsUpload } from '../../../lib/intake/lifecycle';
import type { IntakeView } from '../../../lib/intake/vocabulary';
import type { Actor } from '../../auth/middleware';
import type { AppDeps } from '../../deps';
import { AppError } from '../../http/errors';
import { defineRoute, type Route } from '../../http/route';
import * as C from '../../openapi/components';
import { INTAKE_BASE } from '../bases';
import { createSubmissionSchema, submissionIdParams } from './schemas';
import { queryIntake, startIntake } from './workflow-calls';

/** The contract's status view (2.3): no storage pointers, review notes or credential details. */
export function statusView(s: IntakeView) {
  return {
    submissionId: s.submissionId,
    artistCanonicalId: s.artistCanonicalId,
    intakeStatus: s.intakeStatus,
    reviewStatus: s.reviewStatus,
    mediaStoreDocumentId: s.mediaStoreDocumentId,
    ...(s.failureCode ? { failureReason: s.failureCode } : {}),
    ...(s.rejectReasonCode ? { rejectReason: s.rejectReasonCode } : {}),
    governance: {
      reviewRequired: s.reviewStatus === 'review_required',
      promotedToMediaStore: s.intakeStatus === 'promoted_to_media_store',
      publicSurfaceActivated: false,
      canonicalRuntimeMutationExecuted: false,
    },
  };
}

export const byActor = (actor: Actor) => ({ actorId: actor.actorId, credentialId: actor.credential.id });

/** The caller's own submission, or 404 (another partner's looks exactly like a missing one). */
async function ownSubmission(deps: AppDeps, actor: Actor, submissionId: string): Promise<SubmissionRow> {
  const row = await findOwnSubmission(deps.sql, submissionId, actor.actorId);
  if (!row) throw new AppError('not_found', 'No such submission.');
  return row;
}

/** Seconds an upload URL for this row may live: the configured lifetime, never past the upload deadline. */
function uploadUrlSeconds(deps: AppDeps, row: SubmissionRow): number {
  const ttl = deps.cfg.UPLOAD_URL_TTL_SECONDS;
  if (!row.uploadDeadlineAt) return ttl;
  return Math.min(ttl, Math.floor((row.uploadDeadlineAt.getTime() - Date.now()) / 1000));
}

export function submissionRoutes(o: { maxMediaBytes: number }): Route[] {
  const stage = { doc: 'intake', tag: 'submissions', auth: 'any', permission: 'portfolio_intake:stage' } as const;
  return [
    defineRoute({
      ...stage, method: 'post', path: `${INTAKE_BASE}/submissions`, operationId: 'createSubmission',
      summary: 'Create a submission (idempotent) and get a signed upload URL',
      body: createSubmissionSchema(o.maxMediaBytes),
      ok: { 201: ['created, or the same submission again for the same idempotencyKey and body (Idempotent-Replayed: true)', C.CreatedSubmission] },
      problems: [409, 422], limit: 'create',
      async handler({ deps, body, actor, res }) {
        const { cfg } = deps;
        const violation = scopeViolation(actor(), body);
        if (violation) throw new AppError('out_of_scope', violation);
        const result = await createSubmission(deps.sql, {
          by: byActor(actor()),
          body,
          fingerprint: fingerprintOf(body),
          uploadWindowSeconds: cfg.UPLOAD_URL_TTL_SECONDS + cfg.UPLOAD_GRACE_SECONDS,
          quota: { organizationId: actor().organizationId, maxStaged: cfg.QUOTA_STAGED_SUBMISSIONS, maxStagedBytes: cfg.QUOTA_STAGED_BYTES },
        });
        if (result.kind === 'key_reused') throw new AppError('idempotency_key_reused', 'This idempotencyKey was used with a different body.');
        if (result.kind === 'quota_exceeded')
          throw new AppError(
            'quota_exceeded',
            `Your organization has ${result.open} submissions (${result.openBytes} declared bytes) open in staged; the quota is ${cfg.QUOTA_STAGED_SUBMISSIONS} submissions and ${cfg.QUOTA_STAGED_BYTES} bytes. Upload or let them expire, then retry.`,
            { headers: { 'Retry-After': '60' } },
          );
        const row = result.row;
        // Fault suite only (F4; refused in production): die between the committed row and the start.
        if (cfg.FAULT_KILL_AFTER_SUBMISSION_COMMIT && result.kind === 'created') process.kill(process.pid, 'SIGKILL');
        await startIntake(deps, row, body.fileName);
        // A replay gets a fresh URL while the submission still takes an upload, and never one
        // that outlives the workflow's upload deadline.
        const seconds = uploadUrlSeconds(deps, row);
        const upload =
          acceptsUpload(row.intakeStatus) && seconds > 0
            ? await deps.store.signUpload(row.stagingKey, { contentType: row.mimeType, sizeBytes: row.sizeBytes, expiresInSeconds: seconds })
            : null;
        if (result.kind === 'replayed') res.setHeader('Idempotent-Replayed', 'true');
        res.status(201).json({
          success: true,
          data: {
            submission: { submissionId: row.submissionId, intakeStatus: row.intakeStatus, reviewStatus: row.reviewStatus },
            upload: upload && { method: 'PUT', url: upload.url, expiresInSeconds: upload.expiresInSeconds, headers: upload.headers },
          },
        });
      },
    }),
    defineRoute({
      ...stage, method: 'get', path: `${INTAKE_BASE}/submissions/{submissionId}`, operationId: 'getSubmission',
      summary: 'Status of one of your submissions', params: submissionIdParams,
      ok: { 200: ['the status view', C.StatusEnvelope] }, problems: [404],
      async handler({ deps, params, actor, res }) {
        const row = await ownSubmission(deps, actor(), params.submissionId);
        res.json({ success: true, data: statusView(await queryIntake(deps, row.submissionId)) });
      },
    }),
  ];
}
