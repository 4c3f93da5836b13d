// The private media store's draft document of an approved submission. Deterministic ids, so a
// promotion retried after a crash targets the same object and the same row.
import crypto from 'node:crypto';
import type { Tx } from '../db';
import type { ActorRef } from './vocabulary';
import type { AcceptedSuggestion } from './decisions';

export function mediaDocumentId(submissionId: string): string {
  return 'mdoc_' + crypto.createHash('sha256').update(submissionId).digest('hex').slice(0, 24);
}

export function mediaObjectKey(submissionId: string): string {
  return `drafts/${submissionId}`;
}

/**
 * A private draft: visibility is constrained to 'private' by the table itself. `approval`: the
 * signed decision, which carries who approved, the review notes and the machine-suggested labels
 * the operator accepted (styles replace the partner's when any were accepted, tags are added, the
 * placement is the draft's own).
 */
export async function insertDraftDocument(
  tx: Tx,
  d: { submissionId: string; sha256: string; approval: { by: ActorRef; reviewNotes: string; accepted?: AcceptedSuggestion | undefined } },
): Promise<void> {
  const a = d.approval.accepted;
  const styles = a?.styleIds.length ? tx`${a.styleIds}::text[]` : tx`s.style_ids`;
  const tags = a?.tags.length ? tx`s.tags || array(select t from unnest(${a.tags}::text[]) t where not t = any(s.tags))` : tx`s.tags`;
  await tx`
    insert into media_documents (document_id, submission_id, tenant_id, artist_canonical_id, owner_actor_id,
      object_key, sha256, mime_type, size_bytes, title, description, tags, style_ids, placement,
      rights_posture, consent_posture, approved_by, review_notes)
    select ${mediaDocumentId(d.submissionId)}, s.submission_id, s.tenant_id, s.artist_canonical_id, s.partner_actor_id,
      ${mediaObjectKey(d.submissionId)}, ${d.sha256}, s.mime_type, s.size_bytes, s.title, s.description, ${tags}, ${styles}, ${a?.placement ?? null},
      s.rights_posture, s.consent_posture, ${d.approval.by.actorId}, ${d.approval.reviewNotes}
    from submissions s where s.submission_id = ${d.submissionId}
    on conflict (document_id) do nothing`;
}
