// Identity evidence review. Artist resolutions that ended `review_required`,
// `unmatched` (or `phone_matched`) wait for an operator; the operator links the evidence the
// request carried to a canonical artist and marks it `verified_by_operator`, so the next
// resolution with that evidence answers so (activities/resolve-artist.ts). Review evidence only:
// never legal identity verification (KYC), never a public profile. Audited in access_audit.
import type { Sql } from '../db';
import { EVIDENCE_KINDS, type EvidenceKind, type ResolutionReview, type VerifyEvidenceResult } from './evidence-answers';

export { EVIDENCE_KINDS, type EvidenceKind, type ResolutionReview, type VerifyEvidenceResult };
import { isActiveOperator } from './actors';

export const REVIEWABLE_STATUSES = ['review_required', 'unmatched', 'phone_matched'] as const;
export type ReviewableStatus = (typeof REVIEWABLE_STATUSES)[number];

export type EvidenceReviewRefusal = 'operator_required' | 'resolution_not_found' | 'evidence_missing' | 'already_reviewed' | 'note_required';

export class EvidenceReviewRefusedError extends Error {
  constructor(
    readonly reason: EvidenceReviewRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'EvidenceReviewRefusedError';
  }
}

/** A resolution as PostgreSQL gives it: the answer's own fields, and the rest raw. */
type ResolutionRow = Pick<ResolutionReview, 'resolutionId' | 'tenantId' | 'actorId' | 'status' | 'artistCanonicalId' | 'reviewRequired'> & {
  evidence: string | null;
  /** jsonb read as text: the camelCase transform of the client would rename its snake_case keys. */
  evidenceJson: string;
  createdAt: Date;
  reviewedBy: string | null;
  reviewedAt: Date | null;
  reviewNote: string | null;
  reviewedArtistCanonicalId: string | null;
};

const COLUMNS = `resolution_id, tenant_id, actor_id, status, artist_canonical_id, review_required, evidence, evidence_values::text as evidence_json, created_at,
  reviewed_by, reviewed_at, review_note, reviewed_artist_canonical_id`;

function evidenceOf(r: ResolutionRow): Partial<Record<EvidenceKind, string>> {
  const raw = JSON.parse(r.evidenceJson) as Record<string, unknown>;
  return Object.fromEntries(EVIDENCE_KINDS.filter((k) => typeof raw[k] === 'string' && raw[k] !== '').map((k) => [k, raw[k] as string]));
}

function view(r: ResolutionRow): ResolutionReview {
  return {
    resolutionId: r.resolutionId,
    tenantId: r.tenantId,
    actorId: r.actorId,
    status: r.status,
    artistCanonicalId: r.artistCanonicalId,
    reviewRequired: r.reviewRequired,
    matchedEvidence: r.evidence,
    evidence: evidenceOf(r),
    createdAt: r.createdAt.toISOString(),
    review:
      r.reviewedAt && r.reviewedBy
        ? { by: r.reviewedBy, at: r.reviewedAt.toISOString(), artistCanonicalId: r.reviewedArtistCanonicalId ?? '', note: r.reviewNote ?? '' }
        : null,
    legalKycVerified: false,
  };
}

export interface ResolutionFilters {
  /** One status; default: review_required and unmatched. */
  status?: ReviewableStatus | undefined;
  /** open (default): not reviewed yet; reviewed; all. */
  state: 'open' | 'reviewed' | 'all';
  tenantId?: string | undefined;
  page: number;
  limit: number;
}

/** Resolutions for operators to review, oldest first. */
export async function listArtistResolutions(sql: Sql, f: ResolutionFilters): Promise<{ items: ResolutionReview[]; total: number }> {
  const statuses: readonly string[] = f.status ? [f.status] : ['review_required', 'unmatched'];
  const none = sql``;
  const where = sql`
    where status = any(${statuses as string[]}::text[])
    ${f.state === 'open' ? sql`and reviewed_at is null` : f.state === 'reviewed' ? sql`and reviewed_at is not null` : none}
    ${f.tenantId ? sql`and tenant_id = ${f.tenantId}` : none}`;
  const [rows, [count]] = await Promise.all([
    sql<ResolutionRow[]>`select ${sql.unsafe(COLUMNS)} from artist_resolutions ${where}
      order by created_at, resolution_id limit ${f.limit} offset ${(f.page - 1) * f.limit}`,
    sql<{ total: number }[]>`select count(*)::int as total from artist_resolutions ${where}`,
  ]);
  return { items: rows.map(view), total: count?.total ?? 0 };
}

export async function findArtistResolution(sql: Sql, resolutionId: string): Promise<ResolutionReview | null> {
  const [row] = await sql<ResolutionRow[]>`select ${sql.unsafe(COLUMNS)} from artist_resolutions where resolution_id = ${resolutionId}`;
  return row ? view(row) : null;
}

export interface VerifyEvidenceInput {
  resolutionId: string;
  /** The canonical artist the evidence belongs to, as the operator established it. */
  artistCanonicalId: string;
  /** Which of the request's evidence to link; default: all it carried. */
  evidence?: readonly EvidenceKind[] | undefined;
  note: string;
  operatorActorId: string;
  /** `<issuer>#<subject>` of the bearer the operator was verified with. */
  credentialId: string;
}

/**
 * Link the resolution's evidence to the artist as `verified_by_operator` (upserting
 * artist_identity_evidence for the request's tenant) and record the review on the resolution, in
 * one transaction with the audit row. Re-checks the operator mapping (portfolio_intake:review).
 */
export async function verifyArtistEvidence(sql: Sql, input: VerifyEvidenceInput): Promise<VerifyEvidenceResult> {
  try {
    return await verifyOnce(sql, input);
  } catch (err) {
    if (err instanceof EvidenceReviewRefusedError) {
      await sql`insert into access_audit (action, subject, detail) values ('identity_evidence_review_refused', ${input.resolutionId},
        ${sql.json({ operatorActorId: input.operatorActorId, reason: err.reason })})`;
    }
    throw err;
  }
}

async function verifyOnce(sql: Sql, input: VerifyEvidenceInput): Promise<VerifyEvidenceResult> {
  const note = input.note.trim();
  if (note.length < 3 || note.length > 2000) throw new EvidenceReviewRefusedError('note_required', 'A review needs a note of 3 to 2000 characters.');
  if (!(await isActiveOperator(sql, { actorId: input.operatorActorId, credentialId: input.credentialId, permission: 'portfolio_intake:review' })))
    throw new EvidenceReviewRefusedError('operator_required', 'Only an active human operator with portfolio_intake:review may verify identity evidence.');
  return sql.begin(async (tx) => {
    const [r] = await tx<ResolutionRow[]>`select ${tx.unsafe(COLUMNS)} from artist_resolutions where resolution_id = ${input.resolutionId} for update`;
    if (!r) throw new EvidenceReviewRefusedError('resolution_not_found', `No artist resolution ${input.resolutionId}.`);
    const values = evidenceOf(r);
    const carried = EVIDENCE_KINDS.filter((k) => values[k] !== undefined);
    const kinds = input.evidence ? [...new Set(input.evidence)] : carried;
    const absent = kinds.filter((k) => !carried.includes(k));
    if (kinds.length === 0 || absent.length > 0)
      throw new EvidenceReviewRefusedError(
        'evidence_missing',
        carried.length === 0
          ? 'This resolution carried no evidence (mapping, phone hash, Instagram handle, marketplace profile URL) to link.'
          : `This resolution carried no ${absent.join(', ')} evidence; it carried ${carried.join(', ')}.`,
      );
    if (r.reviewedAt && r.reviewedBy) {
      if (r.reviewedArtistCanonicalId === input.artistCanonicalId)
        return {
          resolutionId: r.resolutionId, status: 'verified_by_operator', changed: false, artistCanonicalId: input.artistCanonicalId, tenantId: r.tenantId,
          evidence: kinds, verifiedBy: r.reviewedBy, verifiedAt: r.reviewedAt.toISOString(), legalKycVerified: false,
        };
      throw new EvidenceReviewRefusedError(
        'already_reviewed',
        `Resolution ${r.resolutionId} was already reviewed by ${r.reviewedBy} (artist ${r.reviewedArtistCanonicalId}).`,
      );
    }
    const previous: { kind: string; artistCanonicalId: string; verifiedByOperator: boolean }[] = [];
    for (const kind of kinds) {
      const value = values[kind]!;
      const [before] = await tx<{ artistCanonicalId: string; verifiedByOperator: boolean }[]>`
        select artist_canonical_id, verified_by_operator from artist_identity_evidence where tenant_id = ${r.tenantId} and kind = ${kind} and value = ${value} for update`;
      if (before) previous.push({ kind, ...before });
      await tx`
        insert into artist_identity_evidence (tenant_id, kind, value, artist_canonical_id, verified_by_operator, verified_by, verified_at, verification_note)
        values (${r.tenantId}, ${kind}, ${value}, ${input.artistCanonicalId}, true, ${input.operatorActorId}, now(), ${note})
        on conflict (tenant_id, kind, value) do update set artist_canonical_id = excluded.artist_canonical_id, verified_by_operator = true,
          verified_by = excluded.verified_by, verified_at = excluded.verified_at, verification_note = excluded.verification_note`;
    }
    const [done] = await tx<{ reviewedAt: Date }[]>`
      update artist_resolutions set reviewed_by = ${input.operatorActorId}, reviewed_credential_id = ${input.credentialId}, reviewed_at = now(),
        review_note = ${note}, reviewed_artist_canonical_id = ${input.artistCanonicalId}
      where resolution_id = ${r.resolutionId} returning reviewed_at`;
    await tx`insert into access_audit (action, subject, detail) values ('identity_evidence_verified', ${r.resolutionId},
      ${tx.json({
        operatorActorId: input.operatorActorId, credentialId: input.credentialId, tenantId: r.tenantId, artistCanonicalId: input.artistCanonicalId,
        evidence: kinds, previous, note, legalKycVerified: false,
      })})`;
    return {
      resolutionId: r.resolutionId, status: 'verified_by_operator', changed: true, artistCanonicalId: input.artistCanonicalId, tenantId: r.tenantId,
      evidence: kinds, verifiedBy: input.operatorActorId, verifiedAt: done!.reviewedAt.toISOString(), legalKycVerified: false,
    };
  });
}
