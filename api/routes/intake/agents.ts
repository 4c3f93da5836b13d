// The agent lane (docs/agents.md): classifier workers claim submissions awaiting review, read one
// bounded agent context, and post classifications that operators see as suggestions. Nothing here
// can change a submission's status, approve, publish or widen what the caller may do.
import { z } from '../../openapi/zod';
import { AgentContext, ClaimAnswer, ClaimBody, Classification, ClassificationBody, ClassificationList } from '../../../lib/agents/answers';
import { classificationsOf } from '../../../lib/agents/classifications';
import { agentContext } from '../../../lib/agents/context';
import { AGENT_PREVIEW_SECONDS, checkPreview, signPreview } from '../../../lib/agents/preview-grant';
import { claimForClassification } from '../../../lib/agents/queue';
import { applyProposal, PROPOSAL_FIELDS, ProposalError } from '../../../lib/agents/proposals';
import { findSubmission } from '../../../lib/intake/submissions';
import { byActor, isOperatorWith } from '../../auth/middleware';
import { AppError } from '../../http/errors';
import * as C from '../../openapi/components';
import { classify, scopeOf, statusInScope } from '../../operations/classifications';
import { previewBytes, previewQuery } from '../../operations/previews';
import { requestIdOf } from '../../operations/decisions';
import { INTAKE_BASE } from '../../routing/bases';
import { defineRoute, reply, type Route } from '../../routing/route';
import { submissionIdParams } from './schemas';

const iso = z.string().describe('ISO 8601');
const envelope = <T extends z.ZodType>(name: string, data: T) => z.object({ success: z.literal(true), data }).openapi(name);
// Schemas made in lib/ before zod was extended get .openapi() by being extended here.
const named = <T extends z.ZodObject>(schema: T, name: string): T => schema.extend({}).openapi(name) as unknown as T;
const ClassificationAnswer = envelope('ClassificationAnswer', named(Classification, 'Classification'));
const ContextAnswer = envelope('AgentContextAnswer', named(AgentContext, 'AgentContext'));
const ClassificationsAnswer = z.object({ success: z.literal(true), ...ClassificationList.shape }).openapi('Classifications');
const ClaimedAnswer = z.object({ success: z.literal(true), ...ClaimAnswer.shape }).openapi('ClassificationClaim');

const ApplyBody = z
  .object({
    dryRun: z.boolean().default(true).describe('true (the default): answer the diff, change nothing'),
    fields: z.array(z.enum(PROPOSAL_FIELDS)).min(1).max(PROPOSAL_FIELDS.length).default([...PROPOSAL_FIELDS]),
  })
  .strict()
  .openapi('ProposalApplyBody');
const ProposalChange = z.object({ field: z.enum(PROPOSAL_FIELDS), before: z.union([z.array(z.string()), z.string()]).nullable(), after: z.union([z.array(z.string()), z.string()]).nullable() });
const ApplyAnswer = envelope(
  'ProposalApplied',
  z.object({ dryRun: z.boolean(), target: z.object({ kind: z.enum(['portfolio_asset', 'draft']), id: z.string() }), changes: z.array(ProposalChange), appliedAt: iso.nullable() }),
);
const classificationIdParams = z.object({ classificationId: z.string().min(1).max(100) });

export const AGENT_PREVIEW_PATH = `${INTAKE_BASE}/agent-previews`;
const PREVIEW_REFUSED = {
  expired: 'The preview URL has expired: read the agent context again.',
  bad_signature: 'The preview URL signature does not match.',
  too_far: `The preview URL expires further out than a grant lasts (${AGENT_PREVIEW_SECONDS} s): read the agent context again.`,
} as const;
const previewGrantQuery = z.object({
  exp: z.coerce.number().int().min(0).openapi({ type: 'integer', minimum: 0, param: { required: true } }),
  sig: z.string().min(10).max(200),
});

export function agentRoutes(): Route[] {
  const lane = { doc: 'intake', tag: 'agents', auth: 'any' } as const;
  return [
    defineRoute({
      ...lane, method: 'get', path: `${INTAKE_BASE}/submissions/{submissionId}/agent-context`, operationId: 'getAgentContext', permission: 'agent_context:read',
      summary: 'One bounded document for an automated classifier: verified facts, a short-lived preview, the vocabularies, the artist\u2019s public profile, earlier classifications, the caller\u2019s authority, and the partner\u2019s text in an untrusted block',
      params: submissionIdParams, ok: { 200: ['the agent context', ContextAnswer] }, problems: [404],
      async handler({ deps, params: { submissionId }, actor }) {
        const a = actor();
        const preview = (available: boolean) => {
          if (!available) return null;
          const g = signPreview(deps.uploadSigningSecret, submissionId, Math.floor(Date.now() / 1000));
          const url = new URL(`${AGENT_PREVIEW_PATH}/${encodeURIComponent(submissionId)}`, deps.publicBaseUrl);
          url.searchParams.set('exp', String(g.expires));
          url.searchParams.set('sig', g.sig);
          return { url: url.toString(), expiresAt: new Date(g.expires * 1000).toISOString(), mimeType: 'image/webp' as const };
        };
        const ctx = await agentContext(deps.sql, submissionId, { actorId: a.actorId, permissions: a.permissions, ...scopeOf(a) }, preview);
        if (!ctx) throw new AppError('not_found', 'No such submission.');
        return { data: ctx };
      },
    }),
    defineRoute({
      ...lane, method: 'post', path: `${INTAKE_BASE}/submissions/{submissionId}/classifications`, operationId: 'classifySubmission', permission: 'portfolio_intake:classify',
      summary: 'Classify a submission: a suggestion for the operator while it awaits review (taken by its workflow\u2019s validated Update), a proposal once it was promoted. Never changes its status, never approves or publishes; your earlier classification of it is superseded',
      params: submissionIdParams, body: named(ClassificationBody, 'ClassificationBody'),
      ok: { 201: ['recorded', ClassificationAnswer] }, problems: [404, 409, 503],
      async handler({ deps, params: { submissionId }, body, actor, req }) {
        return reply(201, { data: await classify(deps, actor(), submissionId, body, requestIdOf(req)) });
      },
    }),
    defineRoute({
      ...lane, method: 'get', path: `${INTAKE_BASE}/submissions/{submissionId}/classifications`, operationId: 'listClassifications',
      permission: 'portfolio_intake:classify', operatorPermission: 'portfolio_intake:review',
      summary: 'A submission\u2019s classifications, newest first (a classifier: its organization\u2019s submissions; an operator: any)',
      params: submissionIdParams, ok: { 200: ['the classifications', ClassificationsAnswer] }, problems: [404],
      async handler({ deps, params: { submissionId }, actor }) {
        const a = actor();
        if (isOperatorWith(a, 'portfolio_intake:review')) {
          if (!(await findSubmission(deps.sql, submissionId))) throw new AppError('not_found', 'No such submission.');
        } else await statusInScope(deps, a, submissionId);
        return { data: await classificationsOf(deps.sql, submissionId) };
      },
    }),
    defineRoute({
      ...lane, method: 'post', path: `${INTAKE_BASE}/classification-queue/claim`, operationId: 'claimForClassification', permission: 'portfolio_intake:classify',
      summary: 'Claim submissions awaiting review that you have not classified, oldest first, each leased to you for leaseSeconds',
      body: named(ClaimBody, 'ClassificationClaimBody'), ok: { 200: ['the claimed submissions (empty: nothing to do now)', ClaimedAnswer] },
      async handler({ deps, body, actor }) {
        const a = actor();
        const claimed = await claimForClassification(deps.sql, { actorId: a.actorId, ...scopeOf(a) }, body);
        const data = claimed.map((c) => ({
          submissionId: c.submissionId, awaitingSince: c.awaitingSince.toISOString(), leasedUntil: c.leasedUntil.toISOString(),
          contextPath: `${INTAKE_BASE}/submissions/${c.submissionId}/agent-context`,
        }));
        return { data };
      },
    }),
    defineRoute({
      doc: 'intake', tag: 'agents', auth: 'operator', permission: 'portfolios:publish', method: 'post', path: `${INTAKE_BASE}/classifications/{classificationId}/apply`,
      operationId: 'applyProposal', params: classificationIdParams, body: ApplyBody,
      summary: 'A proposal (a classification made after promotion) against the record it would change: a dry run by default (the diff); with dryRun false the operator applies it, audited',
      ok: { 200: ['the diff (dry run) or what was applied', ApplyAnswer] }, problems: [404, 409],
      async handler({ deps, params: { classificationId }, body, actor }) {
        try {
          return { data: await applyProposal(deps.sql, { classificationId, fields: body.fields, dryRun: body.dryRun, by: byActor(actor()) }) };
        } catch (err) {
          if (!(err instanceof ProposalError)) throw err;
          throw new AppError(err.reason === 'not_found' ? 'not_found' : 'invalid_transition', err.message);
        }
      },
    }),
    defineRoute({
      doc: 'intake', tag: 'agents', auth: 'public', method: 'get', path: `${AGENT_PREVIEW_PATH}/{submissionId}`, operationId: 'agentPreview',
      summary: 'The preview URL an agent context hands out (WebP, metadata stripped, valid for minutes, while the submission awaits review): use it as given',
      params: submissionIdParams, query: previewGrantQuery, okContentType: 'image/webp',
      ok: { 200: ['the preview', C.PreviewImage] }, problems: [403, 404, 410, 503],
      async handler({ deps, params: { submissionId }, query, res }) {
        const check = checkPreview(deps.uploadSigningSecret, submissionId, query.exp, query.sig, Math.floor(Date.now() / 1000));
        if (check !== 'ok') throw new AppError('preview_url_invalid', PREVIEW_REFUSED[check]);
        const bytes = await previewBytes(deps, submissionId, previewQuery.parse({}).size, { awaitingReview: true });
        res.set('cache-control', 'private, no-store').set('x-content-type-options', 'nosniff').type('image/webp').send(bytes);
      },
    }),
  ];
}
