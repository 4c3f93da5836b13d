// The dry runs: what a publish or a takedown would do, by the same checks, writing nothing.
import { RENDITION_FORMAT, renditionPath, type Rendition } from '../../media/renditions';
import { assetIdOf, ProjectionRefusedError, type ProjectionDeps, type ProjectionInput, type ProjectionRefusal, type TakedownInput } from './types';
import { loadDraft, postureRefusals, renditionsOf, requireOperator, runtimeArtistOf } from './checks';

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
