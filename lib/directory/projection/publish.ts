// The publish: the draft's renditions, the published asset and its audit row in one transaction.
import { recordAssetEvent } from '../../intake/outbox';
import { RENDITION_FORMAT, renditionPath } from '../../media/renditions';
import { copyFingerprintsToAsset } from '../../media/fingerprints/index';
import { assetIdOf, ProjectionRefusedError, type ProjectionDeps, type ProjectionInput, type ProjectionResult } from './types';
import { audited, publishableDraft, renditionsOf, requireOperator, runtimeArtistOf } from './checks';

export function projectDraft(deps: ProjectionDeps, input: ProjectionInput): Promise<ProjectionResult> {
  const { sql, store } = deps;
  return audited(sql, 'draft_projection_refused', input.documentId, input.operatorActorId, async () => {
    const assetId = assetIdOf(input.documentId);
    // 1. Every check before any work: operator, postures, an asset already there, the runtime artist profile.
    const { doc, existing } = await sql.begin(async (tx) => {
      await requireOperator(tx, input.operatorActorId);
      const d = await publishableDraft(tx, input.documentId, false);
      const [e] = await tx<{ unpublishedAt: Date | null }[]>`select unpublished_at from portfolio_assets where source_document_id = ${d.documentId}`;
      if (!e) await runtimeArtistOf(tx, d.artistCanonicalId, input.artistId);
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
      const artist = await runtimeArtistOf(tx, d.artistCanonicalId, input.artistId);
      const inserted = await tx`
        insert into portfolio_assets (id, artist_id, studio_id, title, description, image_url, tags, style_ids, placement, featured, is_public,
          publish_state, visibility, rights_posture, consent_posture, source_document_id, projected_by, projected_at,
          record_state, source_type, origin_authority, source_collected_at, license_status, consent_level, source_notes,
          verification_status, approval_status, cultural_sensitivity_level)
        values (${assetId}, ${artist.artistId}, ${artist.studioId}, ${d.title ?? ''}, ${d.description ?? ''},
          ${renditionPath(assetId, 'large')}, ${d.tags}::text[], ${d.styleIds}::text[], ${d.placement}, false, true,
          'published_public', 'public', ${d.rightsPosture}, ${d.consentPosture}, ${d.documentId}, ${input.operatorActorId}, now(),
          'curated', 'portfolio_intake', 'media_store_projection', ${d.createdAt}, ${d.rightsPosture}, ${d.consentPosture},
          ${['projected from an operator-approved media-store draft']}::text[], 'operator_reviewed', 'approved', 'none')
        on conflict (source_document_id) do nothing
        returning id`;
      if (inserted.length === 0) return { status: 'already_projected', assetId, documentId: d.documentId } as const;
      if (artist.newLink) {
        await tx`insert into artist_runtime_profiles (artist_canonical_id, artist_id, linked_by) values (${d.artistCanonicalId}, ${artist.artistId}, ${input.operatorActorId})
          on conflict (artist_canonical_id) do nothing`;
        await tx`insert into access_audit (action, subject, detail) values ('artist_runtime_profile_linked', ${d.artistCanonicalId},
          ${tx.json({ operatorActorId: input.operatorActorId, credentialId: input.credentialId ?? null, artistId: artist.artistId, documentId: d.documentId })})`;
      }
      for (const r of renditions) {
        await tx`
          insert into public_renditions (media_id, name, ext, content_type, width, height, size_bytes, sha256, object_key)
          values (${assetId}, ${r.name}, ${RENDITION_FORMAT.ext}, ${RENDITION_FORMAT.contentType}, ${r.width}, ${r.height},
            ${r.bytes.length}, ${r.sha256}, ${r.key})`;
      }
      // The asset carries the fingerprints of the submission it comes from (similar images).
      await copyFingerprintsToAsset(tx, d.submissionId, assetId);
      // The partner's asset.published event, in the same transaction (lib/intake/outbox.ts).
      await recordAssetEvent(tx, { type: 'asset.published', assetId, documentId: d.documentId });
      await tx`insert into access_audit (action, subject, detail) values ('draft_projected', ${d.documentId},
        ${tx.json({
          operatorActorId: input.operatorActorId, credentialId: input.credentialId ?? null, assetId, artistId: artist.artistId,
          artistCanonicalId: d.artistCanonicalId, rightsPosture: d.rightsPosture, consentPosture: d.consentPosture,
          renditions: renditions.map((r) => ({ name: r.name, width: r.width, height: r.height, sha256: r.sha256 })),
        })})`;
      return { status: 'projected', assetId, documentId: d.documentId } as const;
    });
  });
}
