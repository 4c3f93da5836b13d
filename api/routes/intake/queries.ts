import crypto from 'node:crypto';
import type { Sql } from '../../../lib/db';
import type { IntakeStatus, MimeType } from '../../../workflows/messages';
import type { CreateSubmissionBody } from './schemas';

export interface SubmissionRow {
  submissionId: string;
  tenantId: string;
  artistCanonicalId: string;
  partnerActorId: string;
  credentialId: string;
  mimeType: MimeType;
  sizeBytes: string | number;
  stagingKey: string;
  intakeStatus: IntakeStatus;
  reviewStatus: string;
}

const COLUMNS = 'submission_id, tenant_id, artist_canonical_id, partner_actor_id, credential_id, mime_type, size_bytes, staging_key, intake_status, review_status';

export function newSubmissionId(): string {
  return 'sub_' + crypto.randomBytes(12).toString('hex');
}

export type InsertResult = { kind: 'created' | 'replayed'; row: SubmissionRow } | { kind: 'key_reused' };

/**
 * The idempotency record and the submission row in one transaction. Concurrent identical creates
 * queue on the record's primary key; the first commits, the others read its submission.
 */
export async function insertSubmission(
  sql: Sql,
  o: { actorId: string; credentialId: string; body: CreateSubmissionBody; fingerprint: string },
): Promise<InsertResult> {
  return sql.begin(async (tx) => {
    const submissionId = newSubmissionId();
    const claimed = await tx`
      insert into idempotency_records (actor_id, idempotency_key, operation, fingerprint, resource_id)
      values (${o.actorId}, ${o.body.idempotencyKey}, 'create_submission', ${o.fingerprint}, ${submissionId})
      on conflict do nothing returning resource_id`;
    if (claimed.length === 0) {
      const [prior] = await tx<{ fingerprint: string; resourceId: string }[]>`
        select fingerprint, resource_id from idempotency_records
        where actor_id = ${o.actorId} and operation = 'create_submission' and idempotency_key = ${o.body.idempotencyKey}`;
      if (!prior || prior.fingerprint !== o.fingerprint) return { kind: 'key_reused' } as const;
      const [row] = await tx<SubmissionRow[]>`select ${tx.unsafe(COLUMNS)} from submissions where submission_id = ${prior.resourceId}`;
      return { kind: 'replayed', row: row! } as const;
    }
    const b = o.body;
    const [row] = await tx<SubmissionRow[]>`
      insert into submissions (submission_id, tenant_id, studio_canonical_id, artist_canonical_id, partner_actor_id, credential_id,
        source, source_message_id, file_name, mime_type, size_bytes, title, description, style_ids, placement, tags,
        rights_posture, consent_posture, staging_key)
      values (${submissionId}, ${b.tenantId}, ${b.studioCanonicalId ?? null}, ${b.artistCanonicalId}, ${o.actorId}, ${o.credentialId},
        ${b.source}, ${b.sourceMessageId ?? null}, ${b.fileName}, ${b.mimeType}, ${b.sizeBytes}, ${b.title ?? null}, ${b.description ?? null},
        ${b.styleIds ?? []}, ${b.placement ?? null}, ${b.tags ?? []}, ${b.rightsPosture}, ${b.consentPosture}, ${`staging/${submissionId}`})
      returning ${tx.unsafe(COLUMNS)}`;
    await tx`insert into intake_events (submission_id, actor_id, credential_id, from_status, to_status)
      values (${submissionId}, ${o.actorId}, ${o.credentialId}, null, 'staged')`;
    return { kind: 'created', row: row! } as const;
  });
}

/** The caller's own submission; the ownership check is part of the WHERE. */
export async function findOwnSubmission(sql: Sql, submissionId: string, actorId: string): Promise<SubmissionRow | undefined> {
  const [row] = await sql<SubmissionRow[]>`
    select ${sql.unsafe(COLUMNS)} from submissions where submission_id = ${submissionId} and partner_actor_id = ${actorId}`;
  return row;
}

export async function reviewQueue(sql: Sql, q: { page: number; limit: number }) {
  const items = await sql<
    { submissionId: string; tenantId: string; artistCanonicalId: string; mimeType: string; sizeBytes: string; awaitingSince: Date; ageSeconds: number }[]
  >`
    select submission_id, tenant_id, artist_canonical_id, mime_type, size_bytes, rights_posture, consent_posture, awaiting_since,
      floor(extract(epoch from now() - awaiting_since))::int as age_seconds
    from submissions where intake_status = 'awaiting_review'
    order by awaiting_since asc, submission_id asc
    limit ${q.limit} offset ${(q.page - 1) * q.limit}`;
  const [count] = await sql<{ n: number }[]>`select count(*)::int as n from submissions where intake_status = 'awaiting_review'`;
  return { items: items.map((i) => ({ ...i, sizeBytes: Number(i.sizeBytes) })), total: count?.n ?? 0 };
}
