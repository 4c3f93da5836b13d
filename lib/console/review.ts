// The review queue (oldest first, with what an operator needs to decide: the one query of the API's
// GET /review-queue and the console's), one submission's detail with its full event history, recent
// decisions and the promoted drafts. SQL only.
import type { Tx } from '../db';
import { DECISION_KINDS, DECISION_LABELS, DECISION_TABLE, HELD_TRIGGERS, type DecisionLabel } from '../intake/decisions';
import { heldStatuses } from '../intake/vocabulary';
import { accepts, DECISIONS } from '../intake/lifecycle';
import { classificationsOf } from '../agents/classifications';
import { FLAG_CONFIDENCE, isoOf, type DecisionCounts, type DraftRow, type QueueItem, type RecentDecision, type SubmissionDetail } from './answers';

export type { DraftRow, QueueItem, RecentDecision, SubmissionDetail };
/** A row as PostgreSQL gives it: its times are Dates. */
type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]: T[P] extends string ? Date : Date | null };

export interface QueueFilters {
  tenantId?: string | undefined;
  /** partner actor or partner organization */
  partner?: string | undefined;
  /** only items waiting at least this many minutes */
  minAgeMinutes?: number | undefined;
  page: number;
  limit: number;
}

/** The organizations the artist belongs to (lib/intake/artist-ties.ts): resolved by them, or in their mappings' artist scope. */
const artistOrganizationsOf = (sql: Tx) => sql`
  array(
    select r.tenant_id from artist_resolutions r where r.artist_canonical_id = s.artist_canonical_id
    union
    select m.organization_id from actor_mappings m where m.active and s.artist_canonical_id = any(m.artist_scope)
    order by 1 limit 5)`;

/**
 * The artist has a runtime profile (what GET /api/v1/artists/{id} answers): the one its profile link
 * names (artist_runtime_profiles, written by the first real publish under it), or the canonical id
 * itself when that is a listed artist.
 */
const runtimeProfileOf = (sql: Tx) => sql`
  coalesce(
    (select p.artist_id from artist_runtime_profiles p where p.artist_canonical_id = s.artist_canonical_id),
    (select a.id from artists a where a.id = s.artist_canonical_id))`;

/** The content flags of the current machine classifications at or above FLAG_CONFIDENCE, highest first. */
const contentFlagsOf = (sql: Tx) => sql`
  coalesce((
    select jsonb_agg(jsonb_build_object('id', f->>'id', 'confidence', (f->>'confidence')::float8, 'actorId', c.actor_id) order by (f->>'confidence')::float8 desc)
    from classifications c, jsonb_array_elements(c.labels->'contentFlags') f
    where c.submission_id = s.submission_id and c.superseded_at is null and (f->>'confidence')::float8 >= ${FLAG_CONFIDENCE}), '[]'::jsonb)`;

/** A held approval's first half (lib/intake/second-review.ts): who approved first, when, and why a second operator is needed; null when none is waited for. */
const secondReviewOf = (sql: Tx) => sql`
  case when s.intake_status = any(${heldStatuses}) then (
    select jsonb_build_object('firstApprovedBy', e.actor_id, 'firstApprovedAt', to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'firstNotes', e.note, 'reasons', to_jsonb(coalesce(s.second_review_reasons, '{}'::text[])))
    from intake_events e where e.submission_id = s.submission_id and e.trigger = any(${[...HELD_TRIGGERS]}) order by e.at desc, e.id desc limit 1)
  end`;

const evidenceOf = (sql: Tx) => sql`
  case
    when exists (select 1 from artist_identity_evidence ev where ev.artist_canonical_id = s.artist_canonical_id and ev.verified_by_operator) then 'verified_by_operator'
    when exists (select 1 from artist_identity_evidence ev where ev.artist_canonical_id = s.artist_canonical_id) then 'evidence_on_file'
    else 'no_evidence'
  end`;

type QueueRow = Dated<Omit<QueueItem, 'artistHasProfile'>, 'awaitingSince' | 'claimedUntil'>;
type DetailRow = Dated<Omit<SubmissionDetail, 'artistHasProfile' | 'events' | 'classifications'>, 'awaitingSince' | 'claimedUntil' | 'createdAt'>;
/** The answer's shape of a queue or detail row: its profile flag, its times as ISO strings. */
const asQueueItem = <T extends { artistProfileId: string | null; awaitingSince: Date | null; claimedUntil: Date | null }>(row: T) => ({
  ...row,
  artistHasProfile: row.artistProfileId !== null,
  awaitingSince: isoOf(row.awaitingSince),
  claimedUntil: isoOf(row.claimedUntil),
});

export async function reviewQueue(sql: Tx, f: QueueFilters): Promise<{ items: QueueItem[]; total: number }> {
  const none = sql``;
  const where = sql`
    s.is_deciding
    ${f.tenantId ? sql`and s.tenant_id = ${f.tenantId}` : none}
    ${f.partner ? sql`and (s.partner_actor_id = ${f.partner} or s.partner_organization_id = ${f.partner})` : none}
    ${f.minAgeMinutes ? sql`and s.awaiting_since <= now() - make_interval(mins => ${f.minAgeMinutes})` : none}`;
  const items = await sql<QueueRow[]>`
    select s.submission_id, s.file_name, s.title, s.partner_actor_id, s.partner_organization_id, s.tenant_id, s.artist_canonical_id,
      ${evidenceOf(sql)} as artist_evidence,
      ${runtimeProfileOf(sql)} as artist_profile_id,
      ${artistOrganizationsOf(sql)} as artist_organizations,
      s.rights_posture, s.consent_posture, s.mime_type, s.size_bytes::float8 as size_bytes, s.image_width as width, s.image_height as height, s.image_orientation,
      s.awaiting_since, floor(extract(epoch from now() - s.awaiting_since))::int as age_seconds,
      c.actor_id as claimed_by, c.claimed_until, ${contentFlagsOf(sql)} as content_flags, ${secondReviewOf(sql)} as second_review
    from submissions s
    left join review_claims c on c.submission_id = s.submission_id and c.claimed_until > now()
    where ${where}
    order by s.awaiting_since asc, s.submission_id asc
    limit ${f.limit} offset ${(f.page - 1) * f.limit}`;
  const [count] = await sql<{ n: number }[]>`select count(*)::int as n from submissions s where ${where}`;
  return { items: items.map(asQueueItem), total: count!.n };
}

/**
 * The decisions a submission's state takes (the lifecycle's rows), as the console offers them to
 * `viewer`: a held decision's first operator cannot take it again where it waits (the second-review
 * rule; the API refuses it too: 409 second_operator_required).
 */
export function decisionsOffered(d: Pick<SubmissionDetail, 'intakeStatus' | 'secondReview'>, viewer: string): SubmissionDetail['decisions'] {
  return DECISION_KINDS.filter((kind) => accepts(d.intakeStatus, kind)).map((kind) => {
    const spec = DECISION_TABLE[kind];
    const heldHere = spec.held?.to === d.intakeStatus;
    const approvedFirst = heldHere && d.secondReview?.firstApprovedBy === viewer;
    return {
      kind,
      action: heldHere ? `${spec.console.action} (second operator)` : spec.console.action,
      tone: spec.console.tone,
      reasonCodes: spec.console.reasonCodes ? [...spec.console.reasonCodes] : null,
      refusedBecause: approvedFirst ? `you ${spec.label} it first: another operator takes this decision` : null,
    };
  });
}

export async function submissionDetail(sql: Tx, submissionId: string, viewer: string): Promise<SubmissionDetail | undefined> {
  const [d] = await sql<DetailRow[]>`
    select s.submission_id, s.file_name, s.title, s.partner_actor_id, s.partner_organization_id, s.tenant_id, s.artist_canonical_id,
      ${evidenceOf(sql)} as artist_evidence,
      ${runtimeProfileOf(sql)} as artist_profile_id,
      ${artistOrganizationsOf(sql)} as artist_organizations,
      s.rights_posture, s.consent_posture, s.mime_type, s.size_bytes::float8 as size_bytes, s.image_width as width, s.image_height as height, s.image_orientation,
      s.awaiting_since, coalesce(floor(extract(epoch from now() - s.awaiting_since))::int, 0) as age_seconds,
      c.actor_id as claimed_by, c.claimed_until, ${contentFlagsOf(sql)} as content_flags, ${secondReviewOf(sql)} as second_review,
      s.intake_status, s.review_status, s.verified_sha256, s.image_format, s.image_frames,
      s.description, s.tags, s.style_ids, s.placement, s.created_at
    from submissions s
    left join review_claims c on c.submission_id = s.submission_id and c.claimed_until > now()
    where s.submission_id = ${submissionId}`;
  if (!d) return undefined;
  const events = await sql<Dated<SubmissionDetail['events'][number], 'at'>[]>`
    select at, from_status, to_status, trigger, actor_id, note from intake_events where submission_id = ${submissionId} order by at, id`;
  const classifications = await classificationsOf(sql, submissionId, { currentOnly: true });
  const item = asQueueItem(d);
  return { ...item, createdAt: isoOf(d.createdAt), classifications, events: events.map((e) => ({ ...e, at: isoOf(e.at) })), decisions: decisionsOffered(item, viewer) };
}

/** A decision event's console label: its trigger (the decision's kind) looked up in the decision table. */
const labelOf = (sql: Tx) => sql`(${DECISION_KINDS.map((k) => DECISION_TABLE[k].label)}::text[])[array_position(${[...DECISION_KINDS]}::text[], e.trigger)]`;

/** Who decided what, when, with the notes: the decision events, newest first. */
export async function recentDecisions(sql: Tx, limit: number): Promise<RecentDecision[]> {
  const rows = await sql<Dated<RecentDecision, 'at'>[]>`
    select e.submission_id, s.file_name, ${labelOf(sql)} as decision,
      e.actor_id, e.at, e.note, s.intake_status
    from intake_events e join submissions s on s.submission_id = e.submission_id
    where e.to_status = any(${[...DECISIONS]})
    order by e.at desc limit ${limit}`;
  return rows.map((r) => ({ ...r, at: isoOf(r.at) }));
}

/** Promoted drafts, newest first, with whether their asset is public: what the Published view lists. */
export async function consoleDrafts(sql: Tx, o: { publication?: string | undefined; limit: number }): Promise<DraftRow[]> {
  const publication = sql`case when p.id is null then 'draft' when p.unpublished_at is null and p.is_public then 'published' else 'unpublished' end`;
  const rows = await sql<Dated<DraftRow, 'createdAt'>[]>`
    select d.document_id, d.submission_id, s.file_name, d.title, d.tenant_id, d.artist_canonical_id, d.rights_posture, d.consent_posture,
      d.approved_by, d.created_at, p.id as asset_id, ${publication} as publication
    from media_documents d join submissions s on s.submission_id = d.submission_id
    left join portfolio_assets p on p.source_document_id = d.document_id
    ${o.publication ? sql`where ${publication} = ${o.publication}` : sql``}
    order by d.created_at desc limit ${o.limit}`;
  return rows.map((r) => ({ ...r, createdAt: isoOf(r.createdAt) }));
}

export interface QueueFigures {
  /** Submissions awaiting review (a first or a second operator). */
  queueDepth: number;
  /** Age of the oldest one (0 when none). */
  oldestAgeSeconds: number;
  /** Submissions by intake status. */
  byStatus: Record<string, number>;
}

/** The review queue's figures: the metrics' gauges and the console's status page read this one query. */
export async function queueFigures(sql: Tx): Promise<QueueFigures> {
  const [[q], rows] = await Promise.all([
    sql<{ n: number; age: number }[]>`
      select count(*)::int as n, coalesce(floor(extract(epoch from now() - min(awaiting_since))), 0)::int as age
      from submissions where is_deciding`,
    sql<{ status: string; n: number }[]>`select intake_status as status, count(*)::int as n from submissions group by 1`,
  ]);
  return { queueDepth: q?.n ?? 0, oldestAgeSeconds: q?.age ?? 0, byStatus: Object.fromEntries(rows.map((r) => [r.status, r.n])) };
}

/** Decisions since `since`, by kind (its console label; 0 for a kind not taken). */
export async function decisionsSince(sql: Tx, since: Date): Promise<DecisionCounts> {
  const rows = await sql<{ decision: DecisionLabel; n: number }[]>`
    select ${labelOf(sql)} as decision, count(*)::int as n
    from intake_events e where e.to_status = any(${[...DECISIONS]}) and e.at >= ${since} group by 1`;
  const counts = Object.fromEntries(DECISION_LABELS.map((l) => [l, 0])) as DecisionCounts;
  for (const r of rows) if (r.decision in counts) counts[r.decision] = r.n;
  return counts;
}

/** The runtime artist profiles whose name matches, with their studio and city: the publishing view's lookup. */
export async function artistProfiles(sql: Tx, ids: string[]): Promise<{ id: string; name: string; studioName: string | null; city: string | null; country: string | null }[]> {
  if (ids.length === 0) return [];
  const rows = await sql<{ id: string; name: string; studioName: string | null; city: string | null; country: string | null }[]>`
    select a.id, a.name, st.name as studio_name, st.city, st.country
    from artists a left join studios st on st.id = a.studio_id
    where a.id = any(${ids})`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
