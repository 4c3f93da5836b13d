// Create a submission (row + workflow + signed upload URL) and read its status (the workflow query).
import { fingerprintOf, scopeViolation } from '../../../lib/intake/requests';
import { createSubmission, findOwnSubmission, findSubmission, listOwnSubmissions, submissionWithTimes, type SubmissionRow } from '../../../lib/intake/submissions';
import { stageArtistViolation } from '../../../lib/intake/artist-ties';
import { acceptsUpload } from '../../../lib/intake/lifecycle';
import { statusView } from '../../../lib/intake/status-view';
import { byActor, isOperatorWith, type Actor } from '../../auth/middleware';
import type { AppDeps } from '../../deps';
import { AppError } from '../../http/errors';
import { defineRoute, reply, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { INTAKE_BASE } from '../../routing/bases';
import { createSubmissionSchema, encodeCursor, listSubmissionsQuery, submissionIdParams } from './schemas';
import { startIntake } from '../../temporal/workflow-calls';

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
      summary: 'Create a submission (idempotent) for an artist of your organization and get a signed upload URL',
      body: createSubmissionSchema(o.maxMediaBytes),
      ok: { 201: ['created, or the same submission again for the same idempotencyKey and body (Idempotent-Replayed: true)', C.CreatedSubmission] },
      problems: [409, 422], limit: 'create',
      async handler({ deps, body, actor, res }) {
        const { cfg } = deps;
        const violation = scopeViolation(actor(), body);
        if (violation) throw new AppError(violation.code, violation.detail);
        const foreign = await stageArtistViolation(deps.sql, actor(), body.artistCanonicalId);
        if (foreign) throw new AppError('artist_out_of_scope', foreign);
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
            `Your organization has ${result.open} submissions (${result.openBytes} declared bytes) open (staged, verifying or awaiting review); the quota is ${cfg.QUOTA_STAGED_SUBMISSIONS} submissions and ${cfg.QUOTA_STAGED_BYTES} bytes. Retry once some are decided or expired.`,
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
        return reply(201, { data: {
            submission: { submissionId: row.submissionId, intakeStatus: row.intakeStatus, reviewStatus: row.reviewStatus },
            upload: upload && { method: 'PUT', url: upload.url, expiresInSeconds: upload.expiresInSeconds, headers: upload.headers },
          },
        });
      },
    }),
    defineRoute({
      ...stage, method: 'get', path: `${INTAKE_BASE}/submissions/{submissionId}`, operationId: 'getSubmission',
      summary: 'Status of one of your submissions (a human operator: of any submission)', params: submissionIdParams,
      operatorPermission: 'portfolio_intake:review',
      ok: { 200: ['the status view', C.StatusEnvelope] }, problems: [404],
      async handler({ deps, params, actor }) {
        // Operators decide on every tenant's submissions, so they read any; a stage actor reads its own.
        const row = isOperatorWith(actor(), 'portfolio_intake:review')
          ? await findSubmission(deps.sql, params.submissionId)
          : await ownSubmission(deps, actor(), params.submissionId);
        if (!row) throw new AppError('not_found', 'No such submission.');
        // The row, not the workflow's query: the query can lag the row (an activity commits its
        // outcome before the workflow has processed the result), and answers need a worker.
        const now = await submissionWithTimes(deps.sql, row.submissionId);
        if (!now) throw new AppError('not_found', 'No such submission.');
        return { data: statusView(now, { times: now, publicBaseUrl: deps.publicBaseUrl }) };
      },
    }),
    defineRoute({
      ...stage, method: 'get', path: `${INTAKE_BASE}/submissions`, operationId: 'listSubmissions',
      summary: 'Your submissions, newest first (cursor pages)', query: listSubmissionsQuery,
      ok: { 200: ['a page of status views; next_cursor is null on the last page', C.SubmissionList] },
      async handler({ deps, query, actor }) {
        // The rows, not the workflows: a list never waits on Temporal.
        const { rows, more } = await listOwnSubmissions(deps.sql, {
          actorId: actor().actorId,
          intakeStatus: query.intakeStatus,
          tenantId: query.tenantId,
          createdAfter: query.createdAfter ? new Date(query.createdAfter) : undefined,
          createdBefore: query.createdBefore ? new Date(query.createdBefore) : undefined,
          after: query.cursor,
          limit: query.limit,
        });
        const last = rows.at(-1);
        return { data: rows.map((r) => statusView(r, { times: r, publicBaseUrl: deps.publicBaseUrl })),
          next_cursor: more && last ? encodeCursor({ createdAt: last.cursorCreatedAt, submissionId: last.submissionId }) : null,
        };
      },
    }),
  ];
}
