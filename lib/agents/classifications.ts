// Classifications in PostgreSQL: append-only rows (migrations/1700000028000_agent-lane.sql), the
// newest of an actor superseding its earlier one, and the checks that keep a classifier inside its
// organization. Nothing here changes a submission, a draft or a published record.
import crypto from 'node:crypto';
import type { Sql, Tx } from '../db';
import type { Classification, ClassificationBody } from './answers';
import type { ClassificationLabels } from './vocabulary';

export interface ClassifierRef {
  actorId: string;
  credentialKind: 'api_key' | 'bearer';
  credentialId: string;
  organizationId: string;
}

/** Who may see and classify a submission: its partner's organization, within the actor's studio and artist scopes. */
export interface ClassifierScope {
  organizationId: string;
  studioScope: readonly string[];
  artistScope: readonly string[];
}

/** The SQL condition "submission `s` is within the scope" (alias s). */
export const inScope = (sql: Tx, a: ClassifierScope) => sql`
  s.partner_organization_id = ${a.organizationId}
  and (${a.studioScope.length === 0} or s.studio_canonical_id = any(${[...a.studioScope]}))
  and (${a.artistScope.length === 0} or s.artist_canonical_id = any(${[...a.artistScope]}))`;

interface Row {
  classificationId: string;
  submissionId: string;
  kind: 'suggestion' | 'proposal';
  actorId: string;
  modelName: string;
  modelVersion: string;
  labels: ClassificationLabels;
  rationale: string;
  createdAt: Date;
  supersededAt: Date | null;
  appliedAt: Date | null;
}

const COLUMNS = 'classification_id, submission_id, kind, actor_id, model_name, model_version, labels, rationale, created_at, superseded_at, applied_at';

export function classificationOf(r: Row): Classification {
  return {
    classificationId: r.classificationId,
    submissionId: r.submissionId,
    kind: r.kind,
    actorId: r.actorId,
    model: { name: r.modelName, version: r.modelVersion },
    styles: r.labels.styles,
    placement: r.labels.placement,
    subjects: r.labels.subjects,
    contentFlags: r.labels.contentFlags,
    rationale: r.rationale,
    createdAt: r.createdAt.toISOString(),
    current: r.supersededAt === null,
    appliedAt: r.appliedAt ? r.appliedAt.toISOString() : null,
  };
}

export const newClassificationId = () => 'cls_' + crypto.randomBytes(12).toString('hex');

/** Two writes of one actor's classification of one submission met (not expected: they are serialized); the caller may retry. */
export class ClassificationConflict extends Error {
  constructor() {
    super('another classification of this submission by this actor was being recorded at the same time');
    this.name = 'ClassificationConflict';
  }
}

/**
 * Record a classification: the actor's earlier current one is superseded and the new one added, in
 * one transaction; the actor's lease on the submission ends. The same request again returns the
 * row it wrote (an activity retried after a crash appends nothing). Writes of one actor for one
 * submission are serialized (a transaction-scoped advisory lock), so parallel requests supersede
 * each other in turn, never meet on classifications_current.
 */
export async function insertClassification(
  sql: Sql,
  c: { submissionId: string; requestId: string; by: ClassifierRef; kind: Row['kind']; body: ClassificationBody },
): Promise<Classification> {
  try {
    return await insertSerialized(sql, c);
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new ClassificationConflict();
    throw err;
  }
}

async function insertSerialized(sql: Sql, c: Parameters<typeof insertClassification>[1]): Promise<Classification> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${`classification:${c.submissionId}:${c.by.actorId}`}, 0))`;
    const again = await classificationOfRequest(tx, c.submissionId, c.by.actorId, c.requestId);
    if (again) return again;
    // clock_timestamp(), not now(): a transaction that waited for the lock is newer than the one it waited for.
    await tx`update classifications set superseded_at = clock_timestamp() where submission_id = ${c.submissionId} and actor_id = ${c.by.actorId} and superseded_at is null`;
    const { model, rationale, styles, placement, subjects, contentFlags } = c.body;
    const labels: ClassificationLabels = { styles, placement, subjects, contentFlags };
    const [row] = await tx<Row[]>`
      insert into classifications (classification_id, submission_id, request_id, actor_id, credential_kind, credential_id, organization_id, kind,
        model_name, model_version, labels, rationale, created_at)
      values (${newClassificationId()}, ${c.submissionId}, ${c.requestId}, ${c.by.actorId}, ${c.by.credentialKind}, ${c.by.credentialId}, ${c.by.organizationId},
        ${c.kind}, ${model.name}, ${model.version}, ${tx.json(labels as never)}, ${rationale}, clock_timestamp())
      returning ${tx.unsafe(COLUMNS)}`;
    await tx`delete from classification_leases where submission_id = ${c.submissionId} and actor_id = ${c.by.actorId}`;
    return classificationOf(row!);
  });
}

/** The classification an actor's request recorded (undefined: none). */
export async function classificationOfRequest(sql: Tx, submissionId: string, actorId: string, requestId: string): Promise<Classification | undefined> {
  const [row] = await sql<Row[]>`select ${sql.unsafe(COLUMNS)} from classifications
    where submission_id = ${submissionId} and actor_id = ${actorId} and request_id = ${requestId}`;
  return row ? classificationOf(row) : undefined;
}

/** One classification by its id (undefined: none). */
export async function findClassification(sql: Tx, classificationId: string): Promise<Classification | undefined> {
  const [row] = await sql<Row[]>`select ${sql.unsafe(COLUMNS)} from classifications where classification_id = ${classificationId}`;
  return row ? classificationOf(row) : undefined;
}

/** A submission's classifications, newest first (every actor's; superseded ones with current: false). */
export async function classificationsOf(sql: Tx, submissionId: string, o: { currentOnly?: boolean; limit?: number } = {}): Promise<Classification[]> {
  const rows = await sql<Row[]>`select ${sql.unsafe(COLUMNS)} from classifications
    where submission_id = ${submissionId} ${o.currentOnly ? sql`and superseded_at is null` : sql``}
    order by created_at desc, classification_id desc limit ${o.limit ?? 50}`;
  return rows.map(classificationOf);
}

/**
 * The worker's re-check before it records a classification the workflow took: the actor the
 * payload names is still an active mapping of this credential, holds portfolio_intake:classify and
 * its scope covers the submission. A payload sent around the API names whoever it likes; this is
 * what keeps a forged actor out of the record. Returns the classifier, or null.
 */
export async function activeClassifier(sql: Tx, submissionId: string, by: { actorId: string; credentialId: string }): Promise<ClassifierRef | null> {
  const [row] = await sql<{ actorId: string; credentialKind: 'api_key' | 'bearer'; organizationId: string }[]>`
    select m.actor_id, m.credential_kind, m.organization_id
    from actor_mappings m, submissions s
    where s.submission_id = ${submissionId} and m.actor_id = ${by.actorId} and m.active
      and 'portfolio_intake:classify' = any(m.permissions)
      and ((m.credential_kind = 'api_key' and m.credential_issuer = '' and m.credential_subject = api_key_mapping_subject(${by.credentialId}))
        or (m.credential_kind = 'bearer' and m.credential_issuer || '#' || m.credential_subject = ${by.credentialId}))
      and s.partner_organization_id = m.organization_id
      and (cardinality(m.studio_scope) = 0 or s.studio_canonical_id = any(m.studio_scope))
      and (cardinality(m.artist_scope) = 0 or s.artist_canonical_id = any(m.artist_scope))`;
  return row ? { ...row, credentialId: by.credentialId } : null;
}

/**
 * Why suggested labels an operator accepts at approve cannot be taken (null: they can): the
 * classification must be a current suggestion of this submission and hold every label accepted.
 */
export async function acceptedMismatch(
  sql: Tx,
  submissionId: string,
  a: { classificationId: string; styleIds: readonly string[]; placement?: string | undefined; tags: readonly string[] },
): Promise<string | null> {
  const [row] = await sql<Row[]>`select ${sql.unsafe(COLUMNS)} from classifications where classification_id = ${a.classificationId} and submission_id = ${submissionId}`;
  if (!row) return 'no such classification of this submission';
  if (row.kind !== 'suggestion') return 'a proposal is applied, not accepted at approve';
  if (row.supersededAt) return 'its classifier classified the submission again since: reload the suggestions';
  const has = (xs: { id: string }[], id: string) => xs.some((x) => x.id === id);
  const missing = [
    ...a.styleIds.filter((s) => !has(row.labels.styles, s)).map((s) => `style ${s}`),
    ...(a.placement && row.labels.placement?.id !== a.placement ? [`placement ${a.placement}`] : []),
    ...a.tags.filter((t) => !has(row.labels.subjects, t)).map((t) => `subject ${t}`),
  ];
  return missing.length ? `not in the classification: ${missing.join(', ')}` : null;
}
