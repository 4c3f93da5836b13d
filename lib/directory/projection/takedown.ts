// The takedown: the asset leaves every public read, then its unused rendition objects are deleted.
import { recordAssetEvent } from '../../intake/outbox';
import { ProjectionRefusedError, type ProjectionDeps, type TakedownInput, type TakedownResult } from './types';
import { audited, requireOperator } from './checks';

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
      const [source] = await tx<{ sourceDocumentId: string | null }[]>`select source_document_id from portfolio_assets where id = ${input.assetId}`;
      if (source?.sourceDocumentId) await recordAssetEvent(tx, { type: 'asset.unpublished', assetId: input.assetId, documentId: source.sourceDocumentId });
      await tx`insert into access_audit (action, subject, detail) values ('asset_unpublished', ${input.assetId},
        ${tx.json({ operatorActorId: input.operatorActorId, credentialId: input.credentialId ?? null, reason, renditions: removed.map((r) => r.objectKey) })})`;
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
