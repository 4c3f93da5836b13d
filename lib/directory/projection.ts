// The governed projection: the only path from the private media store into the public runtime
// store. An operator command (scripts/project-draft.ts) runs it; no route and no worker does.
// It checks the operator mapping and the draft's rights / consent posture, then writes one
// published portfolio asset (idempotent on the document id) and an audit row, in one transaction.
import type { Sql } from '../db';
import { PUBLISHABLE_CONSENT, PUBLISHABLE_RIGHTS } from './records';

export type ProjectionRefusal =
  | 'document_not_found'
  | 'operator_not_found'
  | 'operator_required'
  | 'permission_missing'
  | 'rights_posture_not_publishable'
  | 'consent_posture_not_publishable';

export class ProjectionRefusedError extends Error {
  constructor(
    readonly reason: ProjectionRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ProjectionRefusedError';
  }
}

export interface ProjectionInput {
  documentId: string;
  operatorActorId: string;
  /** Public address of the image; defaults to a URN naming the media-store document (no storage pointer). */
  imageUrl?: string | undefined;
}

export interface ProjectionResult {
  status: 'projected' | 'already_projected';
  assetId: string;
  documentId: string;
}

export const assetIdOf = (documentId: string) => `pfa_${documentId}`;

export async function projectDraft(sql: Sql, input: ProjectionInput): Promise<ProjectionResult> {
  try {
    return await sql.begin(async (tx) => {
      const [op] = await tx<{ active: boolean; isHumanOperator: boolean; credentialKind: string; permissions: string[] }[]>`
        select active, is_human_operator, credential_kind, permissions from actor_mappings where actor_id = ${input.operatorActorId}`;
      if (!op || !op.active) throw new ProjectionRefusedError('operator_not_found', `No active actor mapping ${input.operatorActorId}.`);
      if (!op.isHumanOperator || op.credentialKind !== 'bearer')
        throw new ProjectionRefusedError('operator_required', 'Only a mapped human operator may project a draft.');
      if (!op.permissions.includes('portfolio_intake:review'))
        throw new ProjectionRefusedError('permission_missing', 'The operator lacks portfolio_intake:review.');

      const [doc] = await tx<
        {
          documentId: string;
          artistCanonicalId: string;
          studioCanonicalId: string | null;
          title: string | null;
          description: string | null;
          tags: string[];
          styleIds: string[];
          rightsPosture: string;
          consentPosture: string;
          createdAt: Date;
        }[]
      >`
        select m.document_id, m.artist_canonical_id, s.studio_canonical_id, m.title, m.description, m.tags, m.style_ids,
          m.rights_posture, m.consent_posture, m.created_at
        from media_documents m join submissions s on s.submission_id = m.submission_id
        where m.document_id = ${input.documentId}
        for update of m`;
      if (!doc) throw new ProjectionRefusedError('document_not_found', `No media-store document ${input.documentId}.`);
      if (!(PUBLISHABLE_RIGHTS as readonly string[]).includes(doc.rightsPosture))
        throw new ProjectionRefusedError('rights_posture_not_publishable', `Rights posture ${doc.rightsPosture} does not allow a public surface.`);
      if (!(PUBLISHABLE_CONSENT as readonly string[]).includes(doc.consentPosture))
        throw new ProjectionRefusedError('consent_posture_not_publishable', `Consent posture ${doc.consentPosture} does not allow a public surface.`);

      const assetId = assetIdOf(doc.documentId);
      const inserted = await tx`
        insert into portfolio_assets (id, artist_id, studio_id, title, description, image_url, tags, style_ids, featured, is_public,
          publish_state, visibility, rights_posture, consent_posture, source_document_id, projected_by, projected_at,
          record_state, source_type, origin_authority, source_collected_at, license_status, consent_level, source_notes,
          verification_status, approval_status, cultural_sensitivity_level)
        values (${assetId}, ${doc.artistCanonicalId}, ${doc.studioCanonicalId}, ${doc.title ?? ''}, ${doc.description ?? ''},
          ${input.imageUrl ?? `urn:media-store:document:${doc.documentId}`}, ${doc.tags}::text[], ${doc.styleIds}::text[], false, true,
          'published_public', 'public', ${doc.rightsPosture}, ${doc.consentPosture}, ${doc.documentId}, ${input.operatorActorId}, now(),
          'curated', 'portfolio_intake', 'media_store_projection', ${doc.createdAt}, ${doc.rightsPosture}, ${doc.consentPosture},
          ${['projected from an operator-approved media-store draft']}::text[], 'operator_reviewed', 'approved', 'none')
        on conflict (source_document_id) do nothing
        returning id`;
      if (inserted.length === 0) return { status: 'already_projected', assetId, documentId: doc.documentId } as const;
      await tx`insert into access_audit (action, subject, detail) values ('draft_projected', ${doc.documentId},
        ${tx.json({ operatorActorId: input.operatorActorId, assetId, rightsPosture: doc.rightsPosture, consentPosture: doc.consentPosture })})`;
      return { status: 'projected', assetId, documentId: doc.documentId } as const;
    });
  } catch (err) {
    if (err instanceof ProjectionRefusedError) {
      // Refusals are part of the audit trail too (outside the rolled-back transaction).
      await sql`insert into access_audit (action, subject, detail) values ('draft_projection_refused', ${input.documentId},
        ${sql.json({ operatorActorId: input.operatorActorId, reason: err.reason })})`;
    }
    throw err;
  }
}
