// POST /artist-resolution-requests: a short workflow (id from tenant + idempotency key) so the
// request is idempotent and visible in the Temporal Web UI. Never creates a public profile.
import crypto from 'node:crypto';
import express, { Router } from 'express';
import type { artistResolution } from '../../../workflows/artist-resolution';
import { artistResolutionWorkflowId } from '../../../workflows/messages';
import { actorOf, requireAuth } from '../../auth/middleware';
import type { AppDeps } from '../../deps';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/validate';
import { artistResolutionSchema } from './schemas';
import { withTemporal } from './temporal-calls';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export function artistResolutionRouter(deps: AppDeps): Router {
  const r = Router();
  r.post('/artist-resolution-requests', express.json({ limit: '16kb' }), requireAuth(deps), async (req, res) => {
    const actor = actorOf(res);
    const body = parseInput(artistResolutionSchema, req.body, 'body');
    if (body.tenantId !== actor.organizationId && !actor.capabilities.includes('portfolio_intake:stage_cross_tenant'))
      throw new AppError('out_of_scope', "tenantId is outside the actor's organization.");
    const fingerprint = sha256(JSON.stringify(body, Object.keys(body).sort()));
    const result = await withTemporal(deps.temporal, deps.cfg.TEMPORAL_RPC_DEADLINE_MS, () =>
      deps.temporal.client.workflow.execute<typeof artistResolution>('artistResolution', {
        workflowId: artistResolutionWorkflowId(body.tenantId, sha256(body.idempotencyKey).slice(0, 32)),
        taskQueue: deps.cfg.TEMPORAL_TASK_QUEUE,
        args: [{ ...body, actorId: actor.actorId, fingerprint }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      }),
    );
    if (result.fingerprint !== fingerprint) throw new AppError('idempotency_key_reused', 'This idempotencyKey was used with a different body.');
    res.status(200).json({
      success: true,
      data: { status: result.status, artistCanonicalId: result.artistCanonicalId, reviewRequired: result.reviewRequired, legalKycVerified: false },
    });
  });
  return r;
}
