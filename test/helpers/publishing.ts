// A runtime artist profile (what GET /api/v1/artists/{id} answers) for tests that publish: the
// governed projection refuses an artist without one (lib/directory/projection/checks.ts runtimeArtistOf).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { realJpeg } from '../../bench/lib/images';
import { uid, type TestStack } from './stack';

export async function runtimeArtistProfile(stack: TestStack, artistId: string, name = 'Test Artist'): Promise<void> {
  await stack.sql`insert into artists (id, name, bio, source_type) values (${artistId}, ${name}, 'A test profile.', 'test_fixture') on conflict (id) do nothing`;
}

/** The permissions of an operator who reviews and publishes. */
export const PUBLISHING_OPERATOR = ['portfolio_intake:review', 'portfolios:publish'] as const;

/**
 * A private draft as intake approval leaves it, written directly: a promoted submission row, its
 * media_documents row and the bytes in the local media store. Returns the document id.
 */
export async function insertDraft(
  stack: TestStack,
  o: { artistId: string; tenantId: string; title: string; tags: string[]; styles: string[]; rights?: string; consent?: string },
): Promise<string> {
  const submissionId = uid('sub_');
  const documentId = uid('mdoc_');
  const bytes = realJpeg(3000);
  const objectKey = `drafts/${submissionId}`;
  const file = path.join(stack.dataDir, 'objects', 'media', objectKey);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  const rights = o.rights ?? 'artist_attested';
  const consent = o.consent ?? 'client_consented';
  const partner = `partner-${o.tenantId}`;
  await stack.sql`
    insert into submissions (submission_id, tenant_id, studio_canonical_id, artist_canonical_id, partner_actor_id, credential_id, source,
      file_name, mime_type, size_bytes, title, tags, rights_posture, consent_posture, staging_key, intake_status, review_status)
    values (${submissionId}, ${o.tenantId}, ${`studio-canonical-${o.tenantId}`}, ${o.artistId}, ${partner}, 'key-draft', 'partner_api',
      'draft.jpg', 'image/jpeg', 1234, ${o.title}, ${o.tags}, ${rights}, ${consent}, ${`staging/${submissionId}`},
      'promoted_to_media_store', 'approved')`;
  await stack.sql`
    insert into media_documents (document_id, submission_id, tenant_id, artist_canonical_id, owner_actor_id, object_key, sha256,
      mime_type, size_bytes, title, tags, style_ids, rights_posture, consent_posture, approved_by, review_notes)
    values (${documentId}, ${submissionId}, ${o.tenantId}, ${o.artistId}, ${partner}, ${objectKey}, ${crypto.createHash('sha256').update(bytes).digest('hex')},
      'image/jpeg', 1234, ${o.title}, ${o.tags}, ${o.styles}, ${rights}, ${consent}, 'operator-x', 'Looks right.')`;
  return documentId;
}
