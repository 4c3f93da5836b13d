// The checks a publish, a takedown and their dry runs share: the operator, the draft and its
// postures, the runtime artist profile, the renditions of the approved bytes; and the audit of refusals.
import type { Sql, Tx } from '../../db';
import { makeRenditions, type Rendition } from '../../media/renditions';
import { PUBLISHABLE_CONSENT, PUBLISHABLE_RIGHTS } from '../records';
import { ProjectionRefusedError, type DraftRow, type ProjectionDeps } from './types';

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
export async function loadDraft(tx: Tx, documentId: string, lock: boolean): Promise<DraftRow> {
  const [doc] = await tx<DraftRow[]>`
    select m.document_id, s.submission_id, m.tenant_id, m.object_key, m.mime_type, m.sha256, m.artist_canonical_id, s.studio_canonical_id,
      coalesce(m.title, s.title) as title, coalesce(m.description, s.description) as description,
      case when cardinality(m.tags) > 0 then m.tags else s.tags end as tags,
      case when cardinality(m.style_ids) > 0 then m.style_ids else s.style_ids end as style_ids,
      coalesce(m.placement, s.placement) as placement, m.rights_posture, m.consent_posture, m.created_at
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
export async function publishableDraft(tx: Tx, documentId: string, lock: boolean): Promise<DraftRow> {
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
export async function renditionsOf(deps: ProjectionDeps, doc: DraftRow): Promise<Rendition[]> {
  const stored = await deps.store.statMedia(doc.objectKey);
  if (!stored) throw new ProjectionRefusedError('draft_missing', `The media store holds no object for ${doc.documentId}.`);
  if (stored.sha256 !== doc.sha256) throw new ProjectionRefusedError('draft_changed', `The stored draft no longer hashes to the approved sha256.`);
  try {
    return await deps.store.withMediaFile(doc.objectKey, (file) => makeRenditions(file, deps.maxImagePixels, doc.mimeType === 'image/heic'));
  } catch (err) {
    throw new ProjectionRefusedError('draft_not_renderable', `The draft could not be decoded here (${(err as Error).message}).`);
  }
}
