// Publishing through the API: the governed projection of a promoted draft into
// the public runtime store, the takedown, and the settlement of a `review_required` rights /
// consent posture. Bearer of a mapped human operator with portfolios:publish (never a partner key).
// Publish and unpublish are dry-run unless the body says `"dryRun": false`: the dry run answers the
// plan (what would become public, which renditions, the posture check's verdict) and changes
// nothing. The handlers only translate: lib/directory/projection/ and postures.ts hold the
// checks, the writes and the audit rows (`npm run project` and the console call these routes).
//
// Design: publish is addressed by the draft (media-documents/{documentId}: the thing approved),
// unpublish by the public asset (portfolio-assets/{assetId}: the thing listed, `pfa_<documentId>`
// for a projected draft).
import { z } from '../../openapi/zod';
import { defineRoute, type Route } from '../../routing/route';
import { assetIdParams, documentIdParams, publishOp, publishSchema, settleOp, settlePosturesSchema, unpublishOp, unpublishSchema } from '../../operations/publishing';
import { INTAKE_BASE } from '../../routing/bases';

const reason = z.object({ code: z.string(), message: z.string() });
const rendition = z.object({ name: z.string(), url: z.string(), contentType: z.string(), width: z.number().int(), height: z.number().int(), sizeBytes: z.number().int() });
const plannedAsset = z.object({
  id: z.string(),
  artist_id: z.string().nullable(),
  studio_id: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  styles: z.array(z.string()),
  placement: z.string().nullable(),
  image_url: z.string(),
});

export const PublicationPlanAnswer = z
  .object({
    success: z.literal(true),
    data: z.object({
      dryRun: z.literal(true),
      documentId: z.string(),
      assetId: z.string(),
      submissionId: z.string(),
      tenantId: z.string(),
      artistCanonicalId: z.string(),
      state: z.enum(['unpublished', 'published', 'taken_down']),
      verdict: z.enum(['publishable', 'already_published', 'refused']),
      reasons: z.array(reason),
      postureCheck: z.object({ rightsPosture: z.string(), consentPosture: z.string(), verdict: z.enum(['pass', 'refused']), reasons: z.array(reason) }),
      asset: plannedAsset,
      linksArtistProfile: z.boolean(),
      renditions: z.array(rendition),
    }),
  })
  .openapi('PublicationPlan');

export const PublishedAnswer = z
  .object({
    success: z.literal(true),
    data: z.object({
      dryRun: z.literal(false),
      status: z.enum(['projected', 'already_projected']),
      documentId: z.string(),
      assetId: z.string(),
      asset: plannedAsset,
      renditions: z.array(rendition),
    }),
  })
  .openapi('Published');

export const PublishAnswer = z.union([PublicationPlanAnswer, PublishedAnswer]);

export const TakedownAnswer = z
  .object({
    success: z.literal(true),
    data: z.object({
      dryRun: z.boolean(),
      assetId: z.string(),
      status: z.enum(['would_unpublish', 'already_unpublished', 'unpublished']),
      artistId: z.string().optional(),
      title: z.string().optional(),
      renditions: z.array(z.object({ name: z.string(), sizeBytes: z.number().int() })).optional(),
      deletedRenditions: z.number().int().optional(),
    }),
  })
  .openapi('Takedown');

export const SettlementAnswer = z
  .object({
    success: z.literal(true),
    data: z.object({
      documentId: z.string(),
      rightsPosture: z.string(),
      consentPosture: z.string(),
      settled: z.object({
        rights: z.object({ from: z.string(), to: z.string() }).optional(),
        consent: z.object({ from: z.string(), to: z.string() }).optional(),
      }),
      settledBy: z.string(),
      settledAt: z.string(),
    }),
  })
  .openapi('PostureSettlement');

export function publishingRoutes(): Route[] {
  const publishing = { doc: 'intake', tag: 'publishing', auth: 'operator', permission: 'portfolios:publish' } as const;
  return [
    defineRoute({
      ...publishing, method: 'post', path: `${INTAKE_BASE}/media-documents/{documentId}/publish`, operationId: 'publishDraft',
      params: documentIdParams, body: publishSchema, bodyLimit: '4kb',
      summary: 'Publish a promoted draft (dry run unless "dryRun": false): the plan, or the published asset',
      ok: { 200: ['the plan (dryRun true: nothing changed), or the published asset (dryRun false)', PublishAnswer] }, problems: [404, 409],
      async handler({ deps, params, body, actor }) {
        const data = await publishOp(deps, actor(), params.documentId, body);
        // Two answers (the plan, the published asset): each branch is typed by its own schema.
        return data.dryRun ? { data } : { data };
      },
    }),
    defineRoute({
      ...publishing, method: 'post', path: `${INTAKE_BASE}/portfolio-assets/{assetId}/unpublish`, operationId: 'unpublishAsset',
      params: assetIdParams, body: unpublishSchema, bodyLimit: '16kb',
      summary: 'Take a published asset down (dry run unless "dryRun": false): it leaves every public read, its /media URLs answer 410',
      ok: { 200: ['what would come down (dryRun true: nothing changed), or what came down', TakedownAnswer] }, problems: [404],
      async handler({ deps, params, body, actor }) {
        return { data: await unpublishOp(deps, actor(), params.assetId, body) };
      },
    }),
    defineRoute({
      ...publishing, method: 'post', path: `${INTAKE_BASE}/media-documents/{documentId}/postures`, operationId: 'settlePostures',
      params: documentIdParams, body: settlePosturesSchema, bodyLimit: '16kb',
      summary: 'Settle a draft\'s review_required rights and/or consent posture, with a note (recorded with the operator, audited)',
      ok: { 200: ['the draft\'s postures now', SettlementAnswer] }, problems: [404, 409],
      async handler({ deps, params, body, actor }) {
        return { data: await settleOp(deps, actor(), params.documentId, body) };
      },
    }),
  ];
}
