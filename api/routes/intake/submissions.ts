// Private intake routes: HTTP translated into workflow start, signals and queries.
import crypto from 'node:crypto';
import express, { Router, type Request } from 'express';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { AppDeps } from '../../deps';
import { actorOf, requireAuth, type Actor } from '../../auth/middleware';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/validate';
import {
  approveSignal,
  ArtistCanonicalIdKey,
  intakeStateQuery,
  IntakeStatusKey,
  intakeWorkflowId,
  PartnerActorIdKey,
  rejectSignal,
  ReviewStatusKey,
  TenantIdKey,
  uploadCompleteSignal,
  type IntakeInput,
  type IntakeState,
  type IntakeStatus,
} from '../../../workflows/messages';
import type { portfolioIntake } from '../../../workflows/portfolio-intake';
import { findOwnSubmission, insertSubmission, reviewQueue, type SubmissionRow } from './queries';
import { approveSchema, createSubmissionSchema, rejectSchema, reviewQueueQuery, submissionIdParams, type CreateSubmissionBody } from './schemas';
import { withTemporal } from './temporal-calls';

/** The contract's status view (2.3): no storage pointers, review notes or credential details. */
export function statusView(s: IntakeState) {
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

function fingerprint(body: CreateSubmissionBody): string {
  const canonical = JSON.stringify(body, Object.keys(body).sort());
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

function checkTenantScope(actor: Actor, body: CreateSubmissionBody) {
  const crossTenant = actor.capabilities.includes('portfolio_intake:stage_cross_tenant');
  if (body.tenantId !== actor.organizationId && !crossTenant) throw new AppError('out_of_scope', 'tenantId is outside the actor\'s organization.');
  if (actor.artistScope.length && !actor.artistScope.includes(body.artistCanonicalId))
    throw new AppError('out_of_scope', 'artistCanonicalId is outside the actor\'s artist scope.');
  if (actor.studioScope.length && body.studioCanonicalId && !actor.studioScope.includes(body.studioCanonicalId))
    throw new AppError('out_of_scope', 'studioCanonicalId is outside the actor\'s studio scope.');
}

const by = (actor: Actor) => ({ actorId: actor.actorId, credentialId: actor.credential.id });
const requestIdOf = (req: Request) => String(req.id ?? crypto.randomUUID());

export function submissionsRouter(deps: AppDeps): Router {
  const r = Router();
  const json = express.json({ limit: '64kb' });
  const { cfg } = deps;
  const createSchema = createSubmissionSchema(cfg.MAX_MEDIA_BYTES);
  const temporal = <T>(fn: () => Promise<T>) => withTemporal(deps.temporal, cfg.TEMPORAL_RPC_DEADLINE_MS, fn);
  const handle = (submissionId: string) => deps.temporal.client.workflow.getHandle(intakeWorkflowId(submissionId));
  const queryState = (submissionId: string) => temporal(() => handle(submissionId).query(intakeStateQuery));

  /** Wait, bounded, until the workflow leaves the given states. */
  async function settle(submissionId: string, transient: IntakeStatus[]): Promise<{ state: IntakeState; settled: boolean }> {
    const deadline = Date.now() + cfg.TRANSITION_WAIT_MS;
    let state = await queryState(submissionId);
    while (transient.includes(state.intakeStatus) && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 50));
      state = await queryState(submissionId);
    }
    return { state, settled: !transient.includes(state.intakeStatus) };
  }

  async function ownSubmission(actor: Actor, rawId: unknown): Promise<SubmissionRow> {
    const { submissionId } = parseInput(submissionIdParams, { submissionId: rawId }, 'path');
    const row = await findOwnSubmission(deps.sql, submissionId, actor.actorId);
    if (!row) throw new AppError('not_found', 'No such submission.');
    return row;
  }

  async function startWorkflow(row: SubmissionRow) {
    const input: IntakeInput = {
      submissionId: row.submissionId,
      tenantId: row.tenantId,
      artistCanonicalId: row.artistCanonicalId,
      partnerActorId: row.partnerActorId,
      credentialId: row.credentialId,
      mimeType: row.mimeType,
      sizeBytes: Number(row.sizeBytes),
      stagingKey: row.stagingKey,
      uploadDeadlineSeconds: cfg.UPLOAD_URL_TTL_SECONDS + cfg.UPLOAD_GRACE_SECONDS,
    };
    await temporal(async () => {
      try {
        await deps.temporal.client.workflow.start<typeof portfolioIntake>('portfolioIntake', {
          workflowId: intakeWorkflowId(row.submissionId),
          taskQueue: cfg.TEMPORAL_TASK_QUEUE,
          args: [input],
          // A retry after a crash between the row and the start lands on the same workflow.
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          typedSearchAttributes: [
            { key: IntakeStatusKey, value: 'staged' },
            { key: ReviewStatusKey, value: 'review_required' },
            { key: TenantIdKey, value: row.tenantId },
            { key: ArtistCanonicalIdKey, value: row.artistCanonicalId },
            { key: PartnerActorIdKey, value: row.partnerActorId },
          ],
        });
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err; // a closed run: nothing to heal
      }
    });
  }

  r.post('/submissions', json, requireAuth(deps, { permission: 'portfolio_intake:stage' }), async (req, res) => {
    const actor = actorOf(res);
    const body = parseInput(createSchema, req.body, 'body');
    checkTenantScope(actor, body);
    const result = await insertSubmission(deps.sql, { actorId: actor.actorId, credentialId: actor.credential.id, body, fingerprint: fingerprint(body) });
    if (result.kind === 'key_reused') throw new AppError('idempotency_key_reused', 'This idempotencyKey was used with a different body.');
    const row = result.row;
    // Fault suite only (F4; refused in production): die between the committed row and the start.
    if (cfg.FAULT_KILL_AFTER_SUBMISSION_COMMIT && result.kind === 'created') process.kill(process.pid, 'SIGKILL');
    await startWorkflow(row);
    const upload =
      row.intakeStatus === 'staged'
        ? await deps.store.signUpload(row.stagingKey, { contentType: row.mimeType, sizeBytes: Number(row.sizeBytes), expiresInSeconds: cfg.UPLOAD_URL_TTL_SECONDS })
        : null;
    if (result.kind === 'replayed') res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json({
      success: true,
      data: {
        submission: { submissionId: row.submissionId, intakeStatus: row.intakeStatus, reviewStatus: row.reviewStatus },
        upload: upload && { method: 'PUT', url: upload.url, expiresInSeconds: upload.expiresInSeconds, headers: upload.headers },
      },
    });
  });

  r.get('/submissions/:submissionId', requireAuth(deps, { permission: 'portfolio_intake:stage' }), async (req, res) => {
    const row = await ownSubmission(actorOf(res), req.params.submissionId);
    res.json({ success: true, data: statusView(await queryState(row.submissionId)) });
  });

  r.post('/submissions/:submissionId/upload-complete', requireAuth(deps, { permission: 'portfolio_intake:stage', credentials: ['api_key'] }), async (req, res) => {
    const actor = actorOf(res);
    const row = await ownSubmission(actor, req.params.submissionId);
    const before = await queryState(row.submissionId);
    if (before.intakeStatus !== 'staged') throw new AppError('invalid_transition', `Upload already completed (status ${before.intakeStatus}).`);
    await temporal(() => handle(row.submissionId).signal(uploadCompleteSignal, { requestId: requestIdOf(req), by: by(actor) }));
    const { state, settled } = await settle(row.submissionId, ['staged', 'verifying']);
    res.status(settled ? 200 : 202).json({ success: true, data: statusView(state) });
  });

  const operator = requireAuth(deps, { permission: 'portfolio_intake:review', credentials: ['bearer'], operator: true });

  async function decide(req: Request, actor: Actor, kind: 'approve' | 'reject') {
    const { submissionId } = parseInput(submissionIdParams, req.params, 'path');
    const body = kind === 'approve' ? parseInput(approveSchema, req.body, 'body') : parseInput(rejectSchema, req.body, 'body');
    const exists = await deps.sql`select 1 from submissions where submission_id = ${submissionId}`;
    if (exists.length === 0) throw new AppError('not_found', 'No such submission.');
    const before = await queryState(submissionId);
    if (before.intakeStatus !== 'awaiting_review')
      throw new AppError('invalid_transition', `Only a submission awaiting review can be decided (status ${before.intakeStatus}).`);
    const requestId = requestIdOf(req);
    await temporal(() =>
      'reasonCode' in body
        ? handle(submissionId).signal(rejectSignal, { requestId, by: by(actor), reasonCode: body.reasonCode, notes: body.reviewNotes })
        : handle(submissionId).signal(approveSignal, { requestId, by: by(actor), reviewNotes: body.reviewNotes }),
    );
    return settle(submissionId, ['awaiting_review', 'promoting']);
  }

  r.post('/submissions/:submissionId/approve', json, operator, async (req, res) => {
    const { state, settled } = await decide(req, actorOf(res), 'approve');
    // verification_failed here is this approval's own outcome: the bytes changed behind the seal.
    const outcomes: IntakeStatus[] = ['promoted_to_media_store', 'verification_failed'];
    if (settled && !outcomes.includes(state.intakeStatus)) throw new AppError('invalid_transition', `The submission was decided otherwise (status ${state.intakeStatus}).`);
    res.status(settled ? 200 : 202).json({ success: true, data: statusView(state) });
  });

  r.post('/submissions/:submissionId/reject', json, operator, async (req, res) => {
    const { state, settled } = await decide(req, actorOf(res), 'reject');
    if (settled && state.intakeStatus !== 'rejected') throw new AppError('invalid_transition', `The submission was decided otherwise (status ${state.intakeStatus}).`);
    res.status(settled ? 200 : 202).json({ success: true, data: statusView(state) });
  });

  r.get('/review-queue', operator, async (req, res) => {
    const q = parseInput(reviewQueueQuery, req.query, 'query');
    const { items, total } = await reviewQueue(deps.sql, q);
    res.json({
      success: true,
      data: items,
      pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) },
    });
  });

  return r;
}
