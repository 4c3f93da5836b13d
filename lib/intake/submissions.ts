// Intake SQL on the submissions row: create (with its idempotency record), reads by owner, by
// operator and by staging key, and the review queue. Explicit column lists, parameters only.
import crypto from 'node:crypto';
import type postgres from 'postgres';
import type { Sql, Tx } from '../db';
import { DECIDED, stateFlagsOf, transitionOf } from './lifecycle';
import { countTransition, eventFromWritten } from './transitions';
import { EVENTS_CHANNEL, eventFromWrittenRow } from './outbox';
import type { MimeType } from '../media/vocabulary';
import { statusesShownAs, type ActorRef, type IntakeStatus, type RejectReasonCode, type ReviewStatus, type SubmissionRef, type VerificationFailureCode } from './vocabulary';

/** The row as the lifecycle sees it (no free text, no review notes). */
export interface SubmissionRow extends SubmissionRef {
  intakeStatus: IntakeStatus;
  reviewStatus: ReviewStatus;
  failureCode: VerificationFailureCode | null;
  rejectReasonCode: RejectReasonCode | null;
  mediaStoreDocumentId: string | null;
  verifiedSha256: string | null;
  uploadDeadlineAt: Date | null;
}

const rowColumns = (sql: Tx) => sql`
  submission_id, tenant_id, artist_canonical_id, partner_actor_id, credential_id, mime_type,
  size_bytes::float8 as size_bytes, staging_key, intake_status, review_status, failure_code,
  reject_reason_code, media_store_document_id, verified_sha256, upload_deadline_at`;

export function newSubmissionId(): string {
  return 'sub_' + crypto.randomBytes(12).toString('hex');
}

export function stagingKeyOf(submissionId: string): string {
  return `staging/${submissionId}`;
}

/** What a partner declares at create (the validated body). */
export interface SubmissionDeclaration {
  idempotencyKey: string;
  tenantId: string;
  studioCanonicalId?: string | undefined;
  artistCanonicalId: string;
  source: string;
  sourceMessageId?: string | undefined;
  fileName: string;
  mimeType: MimeType;
  sizeBytes: number;
  title?: string | undefined;
  description?: string | undefined;
  styleIds?: string[] | undefined;
  placement?: string | undefined;
  tags?: string[] | undefined;
  rightsPosture: string;
  consentPosture: string;
}

export type CreateResult =
  | { kind: 'created' | 'replayed'; row: SubmissionRow }
  | { kind: 'key_reused' }
  | { kind: 'quota_exceeded'; open: number; openBytes: number };

/**
 * Per organization: how many submissions may be open at once, and the bytes they may declare.
 * Open is every state before a human decided (staged, verifying, awaiting_review): a partner who
 * uploads and completes at once must not slip past the quota by leaving `staged` quickly.
 */
export interface StagedQuota {
  organizationId: string;
  maxStaged: number;
  maxStagedBytes: number;
}

/**
 * The idempotency record, the submission row and its create event in one transaction. Concurrent
 * identical creates queue on the record's primary key; the first commits, the others read its row.
 */
export async function createSubmission(
  sql: Sql,
  o: { by: ActorRef; body: SubmissionDeclaration; fingerprint: string; uploadWindowSeconds: number; quota: StagedQuota },
): Promise<CreateResult> {
  return sql
    .begin((tx) => createIn(tx, o))
    .catch((err: unknown) => {
      if (err instanceof QuotaRefusal) return { kind: 'quota_exceeded', open: err.open, openBytes: err.openBytes } as const;
      throw err;
    });
}

/** Thrown inside the transaction so that it rolls back (the idempotency claim included). */
class QuotaRefusal extends Error {
  constructor(
    readonly open: number,
    readonly openBytes: number,
  ) {
    super('open submissions quota reached');
  }
}

async function createIn(
  tx: postgres.TransactionSql,
  o: { by: ActorRef; body: SubmissionDeclaration; fingerprint: string; uploadWindowSeconds: number; quota: StagedQuota },
): Promise<CreateResult> {
  const submissionId = newSubmissionId();
  const claimed = await tx`
    insert into idempotency_records (actor_id, idempotency_key, operation, fingerprint, resource_id)
    values (${o.by.actorId}, ${o.body.idempotencyKey}, 'create_submission', ${o.fingerprint}, ${submissionId})
    on conflict do nothing returning resource_id`;
  if (claimed.length === 0) {
    const [prior] = await tx<{ fingerprint: string; resourceId: string }[]>`
      select fingerprint, resource_id from idempotency_records
      where actor_id = ${o.by.actorId} and operation = 'create_submission' and idempotency_key = ${o.body.idempotencyKey}`;
    if (!prior || prior.fingerprint !== o.fingerprint) return { kind: 'key_reused' } as const;
    const [row] = await tx<SubmissionRow[]>`select ${rowColumns(tx)} from submissions where submission_id = ${prior.resourceId}`;
    return { kind: 'replayed', row: row! } as const;
  }
  const b = o.body;
  // The quota, counted under a per-organization lock so concurrent creates cannot all pass it.
  // A refusal rolls back the idempotency claim too: nothing of this request remains.
  await tx`select pg_advisory_xact_lock(hashtextextended(${`staged-quota:${o.quota.organizationId}`}, 0))`;
  const [open] = await tx<{ n: number; bytes: number }[]>`
    select count(*)::int as n, coalesce(sum(size_bytes), 0)::float8 as bytes
    from submissions
    -- the flag the transition writer sets (lifecycle.ts stateFlagsOf): the plan reads the partial index submissions_org_open
    where partner_organization_id = ${o.quota.organizationId} and is_undecided`;
  if (open!.n + 1 > o.quota.maxStaged || open!.bytes + b.sizeBytes > o.quota.maxStagedBytes) throw new QuotaRefusal(open!.n, open!.bytes);
  const created = transitionOf({ intakeStatus: null, reviewStatus: 'review_required' }, 'create', { submissionId, by: o.by });
  const flags = stateFlagsOf(created.to);
  // The row, its create event and the partners' `submission.staged` event in one statement, the
  // events written from the row.
  const [written] = await tx<(SubmissionRow & { raised: number })[]>`
    with written as (
      insert into submissions (submission_id, tenant_id, studio_canonical_id, artist_canonical_id, partner_actor_id, partner_organization_id,
        credential_id, source, source_message_id, file_name, mime_type, size_bytes, title, description, style_ids, placement, tags,
        rights_posture, consent_posture, staging_key, intake_status, is_open, is_undecided, is_deciding, review_status, upload_deadline_at)
      values (${submissionId}, ${b.tenantId}, ${b.studioCanonicalId ?? null}, ${b.artistCanonicalId}, ${o.by.actorId}, ${o.quota.organizationId},
        ${o.by.credentialId},
        ${b.source}, ${b.sourceMessageId ?? null}, ${b.fileName}, ${b.mimeType}, ${b.sizeBytes}, ${b.title ?? null}, ${b.description ?? null},
        ${b.styleIds ?? []}, ${b.placement ?? null}, ${b.tags ?? []}, ${b.rightsPosture}, ${b.consentPosture}, ${stagingKeyOf(submissionId)},
        ${created.to}, ${flags.isOpen}, ${flags.isUndecided}, ${flags.isDeciding}, ${created.reviewStatus}, now() + make_interval(secs => ${o.uploadWindowSeconds}))
      returning *
    ), event as (${eventFromWritten(tx, created)}),
    outbox as (${eventFromWrittenRow(tx, 'submission.staged')})
    select ${rowColumns(tx)}, (select count(pg_notify(${EVENTS_CHANNEL}, event_id)) from outbox) as raised
    from written`;
  const { raised: _raised, ...row } = written!;
  countTransition(created.to);
  return { kind: 'created', row } as const;
}

/** When things happened to a submission, and its public asset once published (status view, additive). */
export interface SubmissionTimes {
  createdAt: Date;
  updatedAt: Date;
  awaitingSince: Date | null;
  /** When an operator approved or rejected it. */
  decidedAt: Date | null;
  /** The published portfolio asset projected from its draft, while it is public. */
  publicAssetId: string | null;
  /** When its published asset was taken down (the latest takedown), while none is public. */
  takenDownAt: Date | null;
}

const timeColumns = (sql: Tx) => sql`
  s.created_at, s.updated_at, s.awaiting_since,
  (select min(e.at) from intake_events e
    where e.submission_id = s.submission_id and e.to_status = any(${[...DECIDED]})) as decided_at,
  (select p.id from portfolio_assets p
    where p.source_document_id = s.media_store_document_id and p.unpublished_at is null and p.is_public) as public_asset_id,
  (select max(p.unpublished_at) from portfolio_assets p
    where p.source_document_id = s.media_store_document_id
      and not exists (select 1 from portfolio_assets q where q.source_document_id = s.media_store_document_id and q.unpublished_at is null and q.is_public)) as taken_down_at`;

/**
 * The row and its times in one statement: the status read. The row is the one truth of a
 * submission's state (every transition the workflow decided, written before any answer names it),
 * so a read after a 2xx answer never shows an earlier state.
 */
export async function submissionWithTimes(sql: Tx, submissionId: string): Promise<(SubmissionRow & SubmissionTimes) | undefined> {
  const [row] = await sql<(SubmissionRow & SubmissionTimes)[]>`
    select ${rowColumns(sql)}, ${timeColumns(sql)} from submissions s where s.submission_id = ${submissionId}`;
  return row;
}

export interface OwnListFilters {
  actorId: string;
  intakeStatus?: IntakeStatus | undefined;
  tenantId?: string | undefined;
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
  /** Keyset cursor: the last row of the previous page (created_at exact to the microsecond, as text). */
  after?: { createdAt: string; submissionId: string } | undefined;
  limit: number;
}

export type ListedSubmission = SubmissionRow & SubmissionTimes & { cursorCreatedAt: string };

/** The actor's own submissions, newest first, one keyset page (limit + 1 rows tell whether there is more). */
export async function listOwnSubmissions(sql: Tx, f: OwnListFilters): Promise<{ rows: ListedSubmission[]; more: boolean }> {
  const none = sql``;
  const rows = await sql<ListedSubmission[]>`
    select ${rowColumns(sql)}, ${timeColumns(sql)}, s.created_at::text as cursor_created_at
    from submissions s
    where s.partner_actor_id = ${f.actorId}
      ${f.intakeStatus ? sql`and s.intake_status = any(${statusesShownAs(f.intakeStatus)})` : none}
      ${f.tenantId ? sql`and s.tenant_id = ${f.tenantId}` : none}
      ${f.createdAfter ? sql`and s.created_at > ${f.createdAfter}` : none}
      ${f.createdBefore ? sql`and s.created_at < ${f.createdBefore}` : none}
      ${f.after ? sql`and (s.created_at, s.submission_id) < (${f.after.createdAt}::timestamptz, ${f.after.submissionId})` : none}
    order by s.created_at desc, s.submission_id desc
    limit ${f.limit + 1}`;
  return { rows: rows.slice(0, f.limit), more: rows.length > f.limit };
}

/** The caller's own submission; the ownership check is part of the WHERE. */
export async function findOwnSubmission(sql: Tx, submissionId: string, actorId: string): Promise<SubmissionRow | undefined> {
  const [row] = await sql<SubmissionRow[]>`
    select ${rowColumns(sql)} from submissions where submission_id = ${submissionId} and partner_actor_id = ${actorId}`;
  return row;
}

/** Any submission (operators decide on every tenant's submissions). */
export async function findSubmission(sql: Tx, submissionId: string): Promise<SubmissionRow | undefined> {
  const [row] = await sql<SubmissionRow[]>`select ${rowColumns(sql)} from submissions where submission_id = ${submissionId}`;
  return row;
}

/** The submission a staging key belongs to, for the upload route. */
export async function findByStagingKey(sql: Tx, stagingKey: string): Promise<Pick<SubmissionRow, 'submissionId' | 'intakeStatus' | 'uploadDeadlineAt'> | undefined> {
  const [row] = await sql<Pick<SubmissionRow, 'submissionId' | 'intakeStatus' | 'uploadDeadlineAt'>[]>`
    select submission_id, intake_status, upload_deadline_at from submissions where staging_key = ${stagingKey}`;
  return row;
}

/**
 * Submissions in a final state for longer than the retention whose staged bytes are still kept,
 * locked for this transaction only (replicas sweeping at once take different rows).
 */
export async function claimStagedPastRetention(
  tx: Tx,
  o: { finalStatuses: readonly IntakeStatus[]; retentionSeconds: number; limit: number },
): Promise<{ submissionId: string; stagingKey: string }[]> {
  return tx<{ submissionId: string; stagingKey: string }[]>`
    select submission_id, staging_key from submissions
    where staged_purged_at is null and intake_status = any(${o.finalStatuses as string[]})
      and updated_at < now() - make_interval(secs => ${o.retentionSeconds})
    order by updated_at
    limit ${o.limit}
    for update skip locked`;
}

export async function markStagedPurged(tx: Tx, submissionIds: string[]): Promise<void> {
  await tx`update submissions set staged_purged_at = now() where submission_id = any(${submissionIds})`;
}
