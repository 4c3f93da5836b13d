// The governed projection: the only path from the private media store into the public runtime
// store, and its inverse, the takedown. An operator command (scripts/project-draft.ts) runs them;
// no worker does. Both check the operator mapping; the projection also checks the draft's rights /
// consent posture and that the draft still holds the approved bytes, makes the public renditions
// (lib/media/renditions.ts), then writes the published asset, its renditions and an audit row in
// one transaction. Refusals are audited too.
import type { Sql, Tx } from '../db';
import { makeRenditions, RENDITION_FORMAT, renditionPath, type Rendition } from '../media/renditions';
import type { ObjectStore } from '../storage/types';
import { PUBLISHABLE_CONSENT, PUBLISHABLE_RIGHTS } from './records';

export type ProjectionRefusal =
  | 'document_not_found'
  | 'operator_not_found'
  | 'operator_required'
  | 'permission_missing'
  | 'rights_posture_not_publishable'
  | 'consent_posture_not_publishable'
  | 'draft_missing'
  | 'draft_changed'
  | 'draft_not_renderable'
  | 'asset_taken_down'
  | 'asset_not_found'
  | 'reason_required';

export class ProjectionRefusedError extends Error {
  constructor(
    readonly reason: ProjectionRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ProjectionRefusedError';
  }
}

export interface ProjectionDeps {
  sql: Sql;
  store: ObjectStore;
  /** The decoder's pixel limit (MAX_IMAGE_PIXELS); the draft passed it at verification. */
  maxImagePixels: number;
}

export interface ProjectionInput {
  documentId: string;
  operatorActorId: string;
}

export interface ProjectionResult {
  status: 'projected' | 'already_projected';
  assetId: string;
  documentId: string;
}

export interface TakedownInput {
  assetId: string;
  operatorActorId: string;
  /** Why it comes down (3..2000 characters): kept on the asset and in the audit row. */
  reason: string;
}

export interface TakedownResult {
  status: 'unpublished' | 'already_unpublished';
  assetId: string;
  /** Rendition objects deleted from storage. */
  deletedRenditions: number;
}

export const assetIdOf = (documentId: string) => `pfa_${documentId}`;

interface DraftRow {
  documentId: string;
  objectKey: string;
  mimeType: string;
  sha256: string;
  artistCanonicalId: string;
  studioCanonicalId: string | null;
  title: string | null;
  description: string | null;
  tags: string[];
  styleIds: string[];
  rightsPosture: string;
  consentPosture: string;
  createdAt: Date;
}

/** An active, mapped human operator (bearer) holding portfolio_intake:review, or a refusal. */
async function requireOperator(tx: Tx, actorId: string): Promise<void> {
  const [op] = await tx<{ active: boolean; isHumanOperator: boolean; credentialKind: string; permissions: string[] }[]>`
    select active, is_human_operator, credential_kind, permissions from actor_mappings where actor_id = ${actorId}`;
  if (!op || !op.active) throw new ProjectionRefusedError('operator_not_found', `No active actor mapping ${actorId}.`);
  if (!op.isHumanOperator || op.credentialKind !== 'bearer')
    throw new ProjectionRefusedError('operator_required', 'Only a mapped human operator may publish or unpublish.');
  if (!op.permissions.includes('portfolio_intake:review'))
    throw new ProjectionRefusedError('permission_missing', 'The operator lacks portfolio_intake:review.');
}

/** The draft, if its postures allow a public surface (locked when asked). */
async function publishableDraft(tx: Tx, documentId: string, lock: boolean): Promise<DraftRow> {
  const [doc] = await tx<DraftRow[]>`
    select m.document_id, m.object_key, m.mime_type, m.sha256, m.artist_canonical_id, s.studio_canonical_id, m.title, m.description, m.tags,
      m.style_ids, m.rights_posture, m.consent_posture, m.created_at
    from media_documents m join submissions s on s.submission_id = m.submission_id
    where m.document_id = ${documentId}
    ${lock ? tx`for update of m` : tx``}`;
  if (!doc) throw new ProjectionRefusedError('document_not_found', `No media-store document ${documentId}.`);
  if (!(PUBLISHABLE_RIGHTS as readonly string[]).includes(doc.rightsPosture))
    throw new ProjectionRefusedError('rights_posture_not_publishable', `Rights posture ${doc.rightsPosture} does not allow a public surface.`);
  if (!(PUBLISHABLE_CONSENT as readonly string[]).includes(doc.consentPosture))
    throw new ProjectionRefusedError('consent_posture_not_publishable', `Consent posture ${doc.consentPosture} does not allow a public surface.`);
  return doc;
}

/** Refusals are part of the audit trail too (outside any rolled-back transaction). */
async function audited<T>(sql: Sql, refusedAction: string, subject: string, operatorActorId: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ProjectionRefusedError) {
      await sql`insert into access_audit (action, subject, detail) values (${refusedAction}, ${subject},
        ${sql.json({ operatorActorId, reason: err.reason })})`;
    }
    throw err;
  }
}

/** The public renditions of the draft's bytes, once those bytes are shown to be the approved ones. */
async function renditionsOf(deps: ProjectionDeps, doc: DraftRow): Promise<Rendition[]> {
  const stored = await deps.store.statMedia(doc.objectKey);
  if (!stored) throw new ProjectionRefusedError('draft_missing', `The media store holds no object for ${doc.documentId}.`);
  if (stored.sha256 !== doc.sha256) throw new ProjectionRefusedError('draft_changed', `The stored draft no longer hashes to the approved sha256.`);
  try {
    return await deps.store.withMediaFile(doc.objectKey, (file) => makeRenditions(file, deps.maxImagePixels, doc.mimeType === 'image/heic'));
  } catch (err) {
    throw new ProjectionRefusedError('draft_not_renderable', `The draft could not be decoded here (${(err as Error).message}).`);
  }
}

export function projectDraft(deps: ProjectionDeps, input: ProjectionInput): Promise<ProjectionResult> {
  const { sql, store } = deps;
  return audited(sql, 'draft_projection_refused', input.documentId, input.operatorActorId, async () => {
    const assetId = assetIdOf(input.documentId);
    // 1. Every check before any work: operator, postures, an asset already there.
    const { doc, existing } = await sql.begin(async (tx) => {
      await requireOperator(tx, input.operatorActorId);
      const d = await publishableDraft(tx, input.documentId, false);
      const [e] = await tx<{ unpublishedAt: Date | null }[]>`select unpublished_at from portfolio_assets where source_document_id = ${d.documentId}`;
      return { doc: d, existing: e };
    });
    if (existing?.unpublishedAt) throw new ProjectionRefusedError('asset_taken_down', `Asset ${assetId} was taken down; it is not published again.`);
    if (existing) return { status: 'already_projected', assetId, documentId: doc.documentId } as const;

    // 2. The renditions, stored before the rows that point at them (content-addressed: a retry rewrites the same keys).
    const renditions = await renditionsOf(deps, doc);
    for (const r of renditions) await store.putRendition(r.key, r.bytes, RENDITION_FORMAT.contentType);

    // 3. One transaction: checks again under lock, the asset, its renditions, the audit row.
    return sql.begin(async (tx) => {
      await requireOperator(tx, input.operatorActorId);
      const d = await publishableDraft(tx, input.documentId, true);
      const inserted = await tx`
        insert into portfolio_assets (id, artist_id, studio_id, title, description, image_url, tags, style_ids, featured, is_public,
          publish_state, visibility, rights_posture, consent_posture, source_document_id, projected_by, projected_at,
          record_state, source_type, origin_authority, source_collected_at, license_status, consent_level, source_notes,
          verification_status, approval_status, cultural_sensitivity_level)
        values (${assetId}, ${d.artistCanonicalId}, ${d.studioCanonicalId}, ${d.title ?? ''}, ${d.description ?? ''},
          ${renditionPath(assetId, 'large')}, ${d.tags}::text[], ${d.styleIds}::text[], false, true,
          'published_public', 'public', ${d.rightsPosture}, ${d.consentPosture}, ${d.documentId}, ${input.operatorActorId}, now(),
          'curated', 'portfolio_intake', 'media_store_projection', ${d.createdAt}, ${d.rightsPosture}, ${d.consentPosture},
          ${['projected from an operator-approved media-store draft']}::text[], 'operator_reviewed', 'approved', 'none')
        on conflict (source_document_id) do nothing
        returning id`;
      if (inserted.length === 0) return { status: 'already_projected', assetId, documentId: d.documentId } as const;
      for (const r of renditions) {
        await tx`
          insert into public_renditions (media_id, name, ext, content_type, width, height, size_bytes, sha256, object_key)
          values (${assetId}, ${r.name}, ${RENDITION_FORMAT.ext}, ${RENDITION_FORMAT.contentType}, ${r.width}, ${r.height},
            ${r.bytes.length}, ${r.sha256}, ${r.key})`;
      }
      await tx`insert into access_audit (action, subject, detail) values ('draft_projected', ${d.documentId},
        ${tx.json({
          operatorActorId: input.operatorActorId, assetId, rightsPosture: d.rightsPosture, consentPosture: d.consentPosture,
          renditions: renditions.map((r) => ({ name: r.name, width: r.width, height: r.height, sha256: r.sha256 })),
        })})`;
      return { status: 'projected', assetId, documentId: d.documentId } as const;
    });
  });
}

/**
 * Takedown: the asset leaves every public read and its rendition URLs answer 410 as soon as the
 * transaction commits; then the rendition objects no other asset uses are deleted.
 */
export function unpublishAsset(deps: Pick<ProjectionDeps, 'sql' | 'store'>, input: TakedownInput): Promise<TakedownResult> {
  const { sql, store } = deps;
  return audited(sql, 'asset_unpublish_refused', input.assetId, input.operatorActorId, async () => {
    const reason = input.reason.trim();
    if (reason.length < 3 || reason.length > 2000) throw new ProjectionRefusedError('reason_required', 'A takedown needs a reason of 3 to 2000 characters.');
    const taken = await sql.begin(async (tx) => {
      await requireOperator(tx, input.operatorActorId);
      const [asset] = await tx<{ unpublishedAt: Date | null }[]>`select unpublished_at from portfolio_assets where id = ${input.assetId} for update`;
      if (!asset) throw new ProjectionRefusedError('asset_not_found', `No portfolio asset ${input.assetId}.`);
      if (asset.unpublishedAt) return null;
      await tx`
        update portfolio_assets set publish_state = 'archived', is_public = false, visibility = 'private', unpublished_at = now(),
          unpublished_by = ${input.operatorActorId}, unpublish_reason = ${reason}, updated_at = now()
        where id = ${input.assetId}`;
      const removed = await tx<{ objectKey: string }[]>`delete from public_renditions where media_id = ${input.assetId} returning object_key`;
      await tx`insert into access_audit (action, subject, detail) values ('asset_unpublished', ${input.assetId},
        ${tx.json({ operatorActorId: input.operatorActorId, reason, renditions: removed.map((r) => r.objectKey) })})`;
      return removed.map((r) => r.objectKey);
    });
    if (!taken) return { status: 'already_unpublished', assetId: input.assetId, deletedRenditions: 0 };
    // Content-addressed keys: identical pixels published twice share an object; keep it while used.
    const stillUsed = new Set(
      (await sql<{ objectKey: string }[]>`select object_key from public_renditions where object_key = any(${taken}::text[])`).map((r) => r.objectKey),
    );
    const gone = taken.filter((k) => !stillUsed.has(k));
    for (const key of gone) await store.deleteRendition(key);
    return { status: 'unpublished', assetId: input.assetId, deletedRenditions: gone.length };
  });
}
