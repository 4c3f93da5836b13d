// The governed projection: the only path from the private media store into the public runtime
// store, and its inverse, the takedown. The operator routes (api/routes/intake/publishing.ts, which
// `npm run project` and the console call with a verified bearer) run them; no worker does. Both
// have a dry run (planProjection, planTakedown) and check the operator mapping (portfolios:publish);
// the projection also checks the draft's rights / consent posture, the artist's runtime profile
// and that the draft still holds the approved bytes, makes the public renditions
// (lib/media/renditions.ts), then writes the published asset, its renditions and an audit row in
// one transaction. Refusals are audited too.
import { recordAssetEvent } from '../webhooks/events';
import type { Sql, Tx } from '../db';
import { makeRenditions, RENDITION_FORMAT, renditionPath, type Rendition } from '../media/renditions';
import type { ObjectStore } from '../storage/types';
import { copyFingerprintsToAsset } from '../media/fingerprints/index';
import { PUBLISHABLE_CONSENT, PUBLISHABLE_RIGHTS } from './records';

export type ProjectionRefusal =
  | 'document_not_found'
  | 'operator_not_found'
  | 'operator_required'
  | 'permission_missing'
  | 'rights_posture_not_publishable'
  | 'consent_posture_not_publishable'
  | 'draft_missing'
  | 'draft_changed'
  | 'draft_not_renderable'
  | 'asset_taken_down'
  | 'asset_not_found'
  | 'reason_required'
  | 'artist_profile_missing'
  | 'artist_profile_conflict'
  | 'posture_not_review_required';

export class ProjectionRefusedError extends Error {
  constructor(
    readonly reason: ProjectionRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ProjectionRefusedError';
  }
}

export interface ProjectionDeps {
  sql: Sql;
  store: ObjectStore;
  /** The decoder's pixel limit (MAX_IMAGE_PIXELS); the draft passed it at verification. */
  maxImagePixels: number;
}

export interface ProjectionInput {
  documentId: string;
  operatorActorId: string;
  /** The credential the operator was verified with (`<issuer>#<subject>`), for the audit row. */
  credentialId?: string | undefined;
  /**
   * The runtime artist profile (artists.id) to publish under when the draft's canonical artist
   * has none yet; the first real publish records the link (artist_runtime_profiles).
   */
  artistId?: string | undefined;
}

export interface ProjectionResult {
  status: 'projected' | 'already_projected';
  assetId: string;
  documentId: string;
}

export interface TakedownInput {
  assetId: string;
  operatorActorId: string;
  credentialId?: string | undefined;
  /** Why it comes down (3..2000 characters): kept on the asset and in the audit row. */
  reason: string;
}

export interface TakedownResult {
  status: 'unpublished' | 'already_unpublished';
  assetId: string;
  /** Rendition objects deleted from storage. */
  deletedRenditions: number;
}

export const assetIdOf = (documentId: string) => `pfa_${documentId}`;

interface DraftRow {
  documentId: string;
  submissionId: string;
  tenantId: string;
  objectKey: string;
  mimeType: string;
  sha256: string;
  artistCanonicalId: string;
  studioCanonicalId: string | null;
  title: string | null;
  description: string | null;
  tags: string[];
  styleIds: string[];
  placement: string | null;
  rightsPosture: string;
  consentPosture: string;
  createdAt: Date;
}

/** An active, mapped human operator (bearer) holding portfolios:publish, or a refusal. */
export async function requireOperator(tx: Tx, actorId: string): Promise<void> {
  const [op] = await tx<{ active: boolean; isHumanOperator: boolean; credentialKind: string; permissions: string[] }[]>`
    select active, is_human_operator, credential_kind, permissions from actor_mappings where actor_id = ${actorId}`;
  if (!op || !op.active) throw new ProjectionRefusedError('operator_not_found', `No active actor mapping ${actorId}.`);
  if (!op.isHumanOperator || op.credentialKind !== 'bearer')
    throw new ProjectionRefusedError('operator_required', 'Only a mapped human operator may publish or unpublish.');
  if (!op.permissions.includes('portfolios:publish'))
    throw new ProjectionRefusedError('permission_missing', 'The operator lacks portfolios:publish.');
}

/**
 * The draft with what the partner submitted (title, description, tags, styles, placement: the
 * draft's copy, else the submission's), locked when asked.
 */
async function loadDraft(tx: Tx, documentId: string, lock: boolean): Promise<DraftRow> {
  const [doc] = await tx<DraftRow[]>`
    select m.document_id, s.submission_id, m.tenant_id, m.object_key, m.mime_type, m.sha256, m.artist_canonical_id, s.studio_canonical_id,
      coalesce(m.title, s.title) as title, coalesce(m.description, s.description) as description,
      case when cardinality(m.tags) > 0 then m.tags else s.tags end as tags,
      case when cardinality(m.style_ids) > 0 then m.style_ids else s.style_ids end as style_ids,
      s.placement, m.rights_posture, m.consent_posture, m.created_at
    from media_documents m join submissions s on s.submission_id = m.submission_id
    where m.document_id = ${documentId}
    ${lock ? tx`for update of m` : tx``}`;
  if (!doc) throw new ProjectionRefusedError('document_not_found', `No media-store document ${documentId}.`);
  return doc;
}

/** Why the draft's rights / consent postures do not allow a public surface (empty: they do). */
export function postureRefusals(p: { rightsPosture: string; consentPosture: string }): ProjectionRefusedError[] {
  const out: ProjectionRefusedError[] = [];
  if (!(PUBLISHABLE_RIGHTS as readonly string[]).includes(p.rightsPosture))
    out.push(new ProjectionRefusedError('rights_posture_not_publishable', `Rights posture ${p.rightsPosture} does not allow a public surface.`));
  if (!(PUBLISHABLE_CONSENT as readonly string[]).includes(p.consentPosture))
    out.push(new ProjectionRefusedError('consent_posture_not_publishable', `Consent posture ${p.consentPosture} does not allow a public surface.`));
  return out;
}

/** The draft, if its postures allow a public surface (locked when asked). */
async function publishableDraft(tx: Tx, documentId: string, lock: boolean): Promise<DraftRow> {
  const doc = await loadDraft(tx, documentId, lock);
  const [refused] = postureRefusals(doc);
  if (refused) throw refused;
  return doc;
}

export interface RuntimeArtist {
  /** What GET /api/v1/artists/{id} answers. */
  artistId: string;
  /** The artist's studio when it is publicly listed (as the artist route shows it), else null. */
  studioId: string | null;
  /** The link canonical -> runtime profile is new: a real publish records it. */
  newLink: boolean;
}

/**
 * The runtime artist profile a canonical artist is published under: its recorded link, else an
 * artist whose id is the canonical id itself, else the one the operator names (`requested`), which
 * then becomes the link. The profile must be publicly listed (GET /api/v1/artists/{id} answers it).
 */
export async function runtimeArtistOf(tx: Tx, canonicalId: string, requested?: string): Promise<RuntimeArtist> {
  const profile = async (id: string) =>
    (
      await tx<{ id: string; studioId: string | null }[]>`
        select a.id, st.id as studio_id from artists a
        left join studios st on st.id = a.studio_id and st.visibility = 'public' and st.record_state <> 'deprecated'
        where a.id = ${id} and a.visibility = 'public' and a.record_state <> 'deprecated'`
    )[0];
  const [linked] = await tx<{ artistId: string }[]>`select artist_id from artist_runtime_profiles where artist_canonical_id = ${canonicalId}`;
  const implicit = linked?.artistId ?? ((await profile(canonicalId)) ? canonicalId : undefined);
  if (requested && implicit && requested !== implicit)
    throw new ProjectionRefusedError(
      'artist_profile_conflict',
      `Artist ${canonicalId} is already published under the runtime profile ${implicit}, not ${requested}.`,
    );
  const target = implicit ?? requested;
  const found = target ? await profile(target) : undefined;
  if (!found)
    throw new ProjectionRefusedError(
      'artist_profile_missing',
      target && target !== canonicalId
        ? `Artist ${canonicalId}: ${target} is not a listed runtime artist profile (GET /api/v1/artists/${target} answers 404).`
        : `Artist ${canonicalId} has no runtime profile (GET /api/v1/artists/${canonicalId} answers 404): name the listed profile to publish under ("artistId").`,
    );
  return { artistId: found.id, studioId: found.studioId, newLink: !linked && found.id !== canonicalId };
}

/** Refusals are part of the audit trail too (outside any rolled-back transaction). */
export async function audited<T>(sql: Sql, refusedAction: string, subject: string, operatorActorId: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ProjectionRefusedError) {
      await sql`insert into access_audit (action, subject, detail) values (${refusedAction}, ${subject},
        ${sql.json({ operatorActorId, reason: err.reason })})`;
    }
    throw err;
  }
}

/** The public renditions of the draft's bytes, once those bytes are shown to be the approved ones. */
async function renditionsOf(deps: ProjectionDeps, doc: DraftRow): Promise<Rendition[]> {
  const stored = await deps.store.statMedia(doc.objectKey);
  if (!stored) throw new ProjectionRefusedError('draft_missing', `The media store holds no object for ${doc.documentId}.`);
  if (stored.sha256 !== doc.sha256) throw new ProjectionRefusedError('draft_changed', `The stored draft no longer hashes to the approved sha256.`);
  try {
    return await deps.store.withMediaFile(doc.objectKey, (file) => makeRenditions(file, deps.maxImagePixels, doc.mimeType === 'image/heic'));
  } catch (err) {
    throw new ProjectionRefusedError('draft_not_renderable', `The draft could not be decoded here (${(err as Error).message}).`);
  }
}

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
      // The partner's asset.published event, in the same transaction (lib/webhooks/events.ts).
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

export interface PlanReason {
  code: ProjectionRefusal;
  message: string;
}

export interface PlannedRendition {
  name: string;
  /** Where it would be (or is) served: PUBLIC_BASE_URL + /media/{assetId}/{name}.webp. */
  url: string;
  contentType: string;
  width: number;
  height: number;
  sizeBytes: number;
}

/** What a publish would do, computed by the same checks as the publish itself; writes nothing. */
export interface PublicationPlan {
  documentId: string;
  assetId: string;
  submissionId: string;
  tenantId: string;
  artistCanonicalId: string;
  /** The asset today: none yet, listed, or taken down (never published again). */
  state: 'unpublished' | 'published' | 'taken_down';
  /** publishable: `dryRun: false` would publish it; already_published: it would change nothing; refused: see reasons. */
  verdict: 'publishable' | 'already_published' | 'refused';
  reasons: PlanReason[];
  postureCheck: { rightsPosture: string; consentPosture: string; verdict: 'pass' | 'refused'; reasons: PlanReason[] };
  /** What would become public (the published asset's fields); artist_id null when no runtime profile answers. */
  asset: {
    id: string;
    artist_id: string | null;
    studio_id: string | null;
    title: string;
    description: string;
    tags: string[];
    styles: string[];
    placement: string | null;
    image_url: string;
  };
  /** The runtime profile link a real publish would record (artist_runtime_profiles), if any. */
  linksArtistProfile: boolean;
  renditions: PlannedRendition[];
}

const reasonOf = (e: ProjectionRefusedError): PlanReason => ({ code: e.reason, message: e.message });

/**
 * The dry run of projectDraft: the operator, the draft, the posture check, the runtime artist
 * profile, and the renditions made in memory from the approved bytes (their sizes), without
 * storing or writing anything. Throws ProjectionRefusedError only for who asks (operator_*,
 * permission_missing) and for an unknown document; every other refusal is a reason in the plan.
 */
export async function planProjection(
  deps: ProjectionDeps,
  input: ProjectionInput & { publicBaseUrl?: string | undefined },
): Promise<PublicationPlan> {
  const { sql } = deps;
  const assetId = assetIdOf(input.documentId);
  const base = input.publicBaseUrl ?? '';
  const { doc, existing, artist, artistRefusal } = await sql.begin(async (tx) => {
    await requireOperator(tx, input.operatorActorId);
    const d = await loadDraft(tx, input.documentId, false);
    const [e] = await tx<{ artistId: string; studioId: string | null; unpublishedAt: Date | null }[]>`
      select artist_id, studio_id, unpublished_at from portfolio_assets where source_document_id = ${d.documentId}`;
    try {
      return { doc: d, existing: e, artist: e ? undefined : await runtimeArtistOf(tx, d.artistCanonicalId, input.artistId), artistRefusal: undefined };
    } catch (err) {
      if (!(err instanceof ProjectionRefusedError)) throw err;
      return { doc: d, existing: e, artist: undefined, artistRefusal: err };
    }
  });
  const postureReasons = postureRefusals(doc).map(reasonOf);
  const reasons: PlanReason[] = [...postureReasons];
  if (artistRefusal) reasons.push(reasonOf(artistRefusal));
  if (existing?.unpublishedAt) reasons.push({ code: 'asset_taken_down', message: `Asset ${assetId} was taken down; it is not published again.` });

  let renditions: PlannedRendition[] = [];
  if (existing && !existing.unpublishedAt) {
    const rows = await sql<{ name: string; contentType: string; width: number; height: number; sizeBytes: number }[]>`
      select name, content_type, width, height, size_bytes::int as size_bytes from public_renditions where media_id = ${assetId} order by name`;
    renditions = rows.map((r) => ({ ...r, url: `${base}${renditionPath(assetId, r.name as Rendition['name'])}` }));
  } else if (!existing) {
    try {
      renditions = (await renditionsOf(deps, doc)).map((r) => ({
        name: r.name, url: `${base}${renditionPath(assetId, r.name)}`, contentType: RENDITION_FORMAT.contentType, width: r.width, height: r.height, sizeBytes: r.bytes.length,
      }));
    } catch (err) {
      if (!(err instanceof ProjectionRefusedError)) throw err;
      reasons.push(reasonOf(err));
    }
  }
  const state = existing ? (existing.unpublishedAt ? 'taken_down' : 'published') : 'unpublished';
  return {
    documentId: doc.documentId,
    assetId,
    submissionId: doc.submissionId,
    tenantId: doc.tenantId,
    artistCanonicalId: doc.artistCanonicalId,
    state,
    verdict: reasons.length > 0 ? 'refused' : state === 'published' ? 'already_published' : 'publishable',
    reasons,
    postureCheck: { rightsPosture: doc.rightsPosture, consentPosture: doc.consentPosture, verdict: postureReasons.length ? 'refused' : 'pass', reasons: postureReasons },
    asset: {
      id: assetId,
      artist_id: existing?.artistId ?? artist?.artistId ?? null,
      studio_id: existing ? existing.studioId : (artist?.studioId ?? null),
      title: doc.title ?? '',
      description: doc.description ?? '',
      tags: doc.tags,
      styles: doc.styleIds,
      placement: doc.placement,
      image_url: `${base}${renditionPath(assetId, 'large')}`,
    },
    linksArtistProfile: artist?.newLink ?? false,
    renditions,
  };
}

/** What a takedown would do; writes nothing. Throws for who asks and for an unknown asset. */
export interface TakedownPlan {
  assetId: string;
  artistId: string;
  title: string;
  state: 'published' | 'taken_down';
  verdict: 'would_unpublish' | 'already_unpublished';
  /** The rendition rows that would go (their URLs then answer 410). */
  renditions: { name: string; sizeBytes: number }[];
}

export async function planTakedown(deps: Pick<ProjectionDeps, 'sql'>, input: Omit<TakedownInput, 'reason'>): Promise<TakedownPlan> {
  return deps.sql.begin(async (tx) => {
    await requireOperator(tx, input.operatorActorId);
    const [asset] = await tx<{ artistId: string; title: string; unpublishedAt: Date | null }[]>`
      select artist_id, title, unpublished_at from portfolio_assets where id = ${input.assetId}`;
    if (!asset) throw new ProjectionRefusedError('asset_not_found', `No portfolio asset ${input.assetId}.`);
    const rows = await tx<{ name: string; sizeBytes: number }[]>`
      select name, size_bytes::int as size_bytes from public_renditions where media_id = ${input.assetId} order by name`;
    return {
      assetId: input.assetId,
      artistId: asset.artistId,
      title: asset.title,
      state: asset.unpublishedAt ? 'taken_down' : 'published',
      verdict: asset.unpublishedAt ? 'already_unpublished' : 'would_unpublish',
      renditions: rows,
    };
  });
}
