// POST /artist-resolution-requests: a short workflow (id from tenant + idempotency key) so the
// request is idempotent and visible in the Temporal Web UI. Never creates a public profile.
import crypto from 'node:crypto';
import { fingerprintOf, scopeViolation } from '../../../lib/intake/requests';
import type { artistResolution } from '../../../workflows/artist-resolution';
import { artistResolutionWorkflowId } from '../../../workflows/messages';
import { AppError } from '../../http/errors';
import { defineRoute, reply, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { INTAKE_BASE } from '../../routing/bases';
import { artistResolutionSchema } from './schemas';
import { temporalCall } from '../../temporal/workflow-calls';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export function artistResolutionRoutes(): Route[] {
  return [
    defineRoute({
      doc: 'intake', method: 'post', path: `${INTAKE_BASE}/artist-resolution-requests`, operationId: 'resolveArtist', tag: 'artists', auth: 'any',
      summary: 'Resolve artist identity evidence (idempotent per idempotencyKey)', body: artistResolutionSchema, bodyLimit: '16kb',
      ok: { 200: ['the resolution', C.ArtistResolution] }, problems: [422],
      async handler({ deps, body, actor }) {
        const violation = scopeViolation(actor(), { tenantId: body.tenantId });
        if (violation) throw new AppError(violation.code, violation.detail);
        const fingerprint = fingerprintOf(body);
        const result = await temporalCall(deps, 'execute', () =>
          deps.temporal.client.workflow.execute<typeof artistResolution>('artistResolution', {
            workflowId: artistResolutionWorkflowId(body.tenantId, sha256(body.idempotencyKey).slice(0, 32)),
            taskQueue: deps.cfg.TEMPORAL_TASK_QUEUE,
            args: [{ ...body, actorId: actor().actorId, fingerprint }],
            workflowIdConflictPolicy: 'USE_EXISTING',
            workflowIdReusePolicy: 'ALLOW_DUPLICATE',
          }),
        );
        if (result.fingerprint !== fingerprint) throw new AppError('idempotency_key_reused', 'This idempotencyKey was used with a different body.');
        return reply(200, { data: { status: result.status, artistCanonicalId: result.artistCanonicalId, reviewRequired: result.reviewRequired, legalKycVerified: false },
        });
      },
    }),
  ];
}
