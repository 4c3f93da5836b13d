// The publishing operations (one module for what the API's routes and the console both
// do): the governed projection of a promoted draft into the public runtime store, the takedown,
// and the settlement of a `review_required` posture, with their inputs. Publish and unpublish are
// dry-run unless the body says `"dryRun": false`. lib/directory/projection/ and postures.ts hold
// the checks, the writes and the audit rows; this translates their refusals into problems.
import { z } from '../openapi/zod';
import {
  planProjection,
  planTakedown,
  projectDraft,
  ProjectionRefusedError,
  unpublishAsset,
  type ProjectionRefusal,
} from '../../lib/directory/projection';
import { settlePostures } from '../../lib/directory/postures';
import { PUBLISHABLE_CONSENT, PUBLISHABLE_RIGHTS } from '../../lib/directory/records';
import { plainText, trimmedText } from '../../lib/validation/text';
import type { Actor } from '../auth/middleware';
import type { AppDeps } from '../deps';
import { AppError, type ErrorCode } from '../http/errors';

const idParam = (what: string) => z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, `not a ${what}`);
export const documentIdParams = z.object({ documentId: idParam('media-store document id').describe('media-store document id (mdoc_…), as the promoted submission names it') });
export const assetIdParams = z.object({ assetId: idParam('portfolio asset id').describe('portfolio asset id (pfa_<documentId> for a projected draft)') });

const dryRun = z.boolean().default(true).describe('true (the default): answer the plan and change nothing; false: do it');

export const publishSchema = z
  .object({
    dryRun,
    artistId: trimmedText(200)
      .optional()
      .describe('the listed runtime artist profile (GET /api/v1/artists/{id}) to publish under, when the draft\'s canonical artist has none yet; a real publish records the link'),
  })
  .strict();

export const unpublishSchema = z
  .object({ dryRun, reason: plainText(2000, 3).describe('why it comes down (3..2000 characters); kept on the asset and audited') })
  .strict();

export const settlePosturesSchema = z
  .object({
    rightsPosture: z.enum(PUBLISHABLE_RIGHTS).optional().describe('the settled rights posture (the draft\'s must be review_required)'),
    consentPosture: z.enum(PUBLISHABLE_CONSENT).optional().describe('the settled consent posture (the draft\'s must be review_required)'),
    note: plainText(2000, 3).describe('what was established, and how (3..2000 characters)'),
  })
  .strict();

/** The API code of each refusal of the projection (docs/errors.md). */
const CODE_OF: Record<ProjectionRefusal, ErrorCode> = {
  document_not_found: 'not_found',
  asset_not_found: 'not_found',
  operator_not_found: 'operator_required',
  operator_required: 'operator_required',
  permission_missing: 'permission_denied',
  rights_posture_not_publishable: 'posture_not_publishable',
  consent_posture_not_publishable: 'posture_not_publishable',
  draft_missing: 'draft_not_publishable',
  draft_changed: 'draft_not_publishable',
  draft_not_renderable: 'draft_not_publishable',
  asset_taken_down: 'asset_taken_down',
  reason_required: 'validation_failed',
  artist_profile_missing: 'artist_profile_missing',
  artist_profile_conflict: 'artist_profile_conflict',
  posture_not_review_required: 'invalid_transition',
};

/** A refusal of the projection as the API's problem; anything else as it is. */
export function problemOfRefusal(err: unknown): unknown {
  return err instanceof ProjectionRefusedError ? new AppError(CODE_OF[err.reason], err.message) : err;
}

const projectionDeps = (deps: AppDeps) => ({ sql: deps.sql, store: deps.store, maxImagePixels: deps.cfg.MAX_IMAGE_PIXELS });

async function translated<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw problemOfRefusal(err);
  }
}

type Operator = Pick<Actor, 'actorId' | 'credential'>;

/** Publish (or plan it): the one code path of the API route, the console and `npm run project`. */
export async function publishOp(deps: AppDeps, a: Operator, documentId: string, body: z.output<typeof publishSchema>) {
  const input = { documentId, operatorActorId: a.actorId, credentialId: a.credential.id, artistId: body.artistId };
  const done = body.dryRun ? undefined : await translated(() => projectDraft(projectionDeps(deps), input));
  const after = await translated(() => planProjection(projectionDeps(deps), { ...input, publicBaseUrl: deps.publicBaseUrl }));
  if (!done) return { dryRun: true as const, ...after };
  return { dryRun: false as const, status: done.status, documentId: done.documentId, assetId: done.assetId, asset: after.asset, renditions: after.renditions };
}

/** Take down (or plan it). */
export async function unpublishOp(deps: AppDeps, a: Operator, assetId: string, body: z.output<typeof unpublishSchema>) {
  const who = { assetId, operatorActorId: a.actorId, credentialId: a.credential.id };
  if (body.dryRun) {
    const p = await translated(() => planTakedown(projectionDeps(deps), who));
    return { dryRun: true as const, assetId: p.assetId, status: p.verdict, artistId: p.artistId, title: p.title, renditions: p.renditions };
  }
  const r = await translated(() => unpublishAsset(projectionDeps(deps), { ...who, reason: body.reason }));
  return { dryRun: false as const, assetId: r.assetId, status: r.status, deletedRenditions: r.deletedRenditions };
}

/** Settle a review_required posture, with the operator and the note. */
export function settleOp(deps: AppDeps, a: Operator, documentId: string, body: z.output<typeof settlePosturesSchema>) {
  return translated(() =>
    settlePostures(deps.sql, {
      documentId, operatorActorId: a.actorId, credentialId: a.credential.id,
      rightsPosture: body.rightsPosture, consentPosture: body.consentPosture, note: body.note,
    }),
  );
}

