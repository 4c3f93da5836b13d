import crypto from 'node:crypto';
import type { Sql } from '../lib/db';
import { ObjectChangedError, type ObjectStore } from '../lib/storage/types';
import type { PromoteInput, PromoteResult } from './types';
import { recordEvent, setSubmissionStatus } from './intake-records';

/** Deterministic ids: a retry after a crash targets the same object and the same row. */
export function mediaDocumentId(submissionId: string): string {
  return 'mdoc_' + crypto.createHash('sha256').update(submissionId).digest('hex').slice(0, 24);
}
export function mediaObjectKey(submissionId: string): string {
  return `drafts/${submissionId}`;
}

export interface PromotionHooks {
  /** Test-only: runs between the object copy and the row insert (fault injection F2). */
  afterMediaCopy?: (submissionId: string) => Promise<void>;
}

export function promoteToMediaStore(deps: { sql: Sql; store: ObjectStore; hooks?: PromotionHooks | undefined }) {
  return async (i: PromoteInput): Promise<PromoteResult> => {
    const documentId = mediaDocumentId(i.submissionId);
    const objectKey = mediaObjectKey(i.submissionId);
    try {
      await deps.store.copyToMedia(i.stagingKey, objectKey, i.sha256);
    } catch (err) {
      if (!(err instanceof ObjectChangedError)) throw err; // transient: the activity retries
      await deps.sql.begin(async (tx) => {
        await recordEvent(tx, { submissionId: i.submissionId, by: i.by, from: 'awaiting_review', to: 'verification_failed', note: 'object_changed' });
        await setSubmissionStatus(tx, i.submissionId, { intakeStatus: 'verification_failed', reviewStatus: 'approved', failureCode: 'object_changed' });
      });
      return { ok: false, code: 'object_changed' };
    }
    await deps.hooks?.afterMediaCopy?.(i.submissionId);
    await deps.sql.begin(async (tx) => {
      await recordEvent(tx, { submissionId: i.submissionId, by: i.by, from: 'awaiting_review', to: 'promoting', note: i.reviewNotes });
      // A private draft: visibility is constrained to 'private' by the table itself.
      await tx`
        insert into media_documents (document_id, submission_id, tenant_id, artist_canonical_id, owner_actor_id,
          object_key, sha256, mime_type, size_bytes, title, description, tags, style_ids,
          rights_posture, consent_posture, approved_by, review_notes)
        select ${documentId}, s.submission_id, s.tenant_id, s.artist_canonical_id, s.partner_actor_id,
          ${objectKey}, ${i.sha256}, s.mime_type, s.size_bytes, s.title, s.description, s.tags, s.style_ids,
          s.rights_posture, s.consent_posture, ${i.by.actorId}, ${i.reviewNotes}
        from submissions s where s.submission_id = ${i.submissionId}
        on conflict (document_id) do nothing`;
      await setSubmissionStatus(tx, i.submissionId, { intakeStatus: 'promoted_to_media_store', reviewStatus: 'approved', documentId });
      await recordEvent(tx, { submissionId: i.submissionId, by: i.by, from: 'promoting', to: 'promoted_to_media_store' });
    });
    return { ok: true, mediaStoreDocumentId: documentId };
  };
}
