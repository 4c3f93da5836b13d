// Portfolio assets and designs: the public projections (2.7, 2.8) and the owner-scoped reads.
// Public reads apply publicMediaWhere in SQL; owner reads put the actor's scope in the WHERE.
import type { Sql } from '../db';
import { absoluteUrl } from '../media/renditions';
import { offsetOf, type Page } from './params';
import { matchesWords, provenanceColumns, provenanceOf, publicMediaWhere, trustOf, type ProvenanceRow } from './records';
import { DESIGN_FIELDS, DESIGN_SERVED, PORTFOLIO_FIELDS, PORTFOLIO_SERVED } from './fields/media';
import { runtimeColumns, servedOf, type RowOf } from './fields/table';

export interface PortfolioFilters extends Page {
  artistId?: string | undefined;
  styleId?: string | undefined;
  featured?: boolean | undefined;
  tags?: string[] | undefined;
}

export interface DesignFilters extends PortfolioFilters {
  /** false: the route answers no records (designs listed here are public by definition). */
  public?: boolean | undefined;
  search?: string | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
}

/** Who is asking for owner-scoped records: the actor mapping's scopes. */
export interface OwnerScope {
  artistScope: readonly string[];
  studioScope: readonly string[];
}

/** A row of the served fields; its renditions as stored (paths under PUBLIC_BASE_URL), largest first; [] for imported records. */
type MediaRow = ProvenanceRow & Omit<RowOf<typeof PORTFOLIO_FIELDS>, 'renditions'> & { id: string; createdAt: Date; renditions: RenditionRow[] };
type DesignRow = MediaRow & Omit<RowOf<typeof DESIGN_FIELDS>, 'renditions'>;

interface RenditionRow {
  name: 'large' | 'small';
  width: number;
  height: number;
  type: string;
  path: string;
}

const MEDIA_COLUMNS = (alias: string) => `${alias}.id, ${runtimeColumns(PORTFOLIO_FIELDS, alias)}, ${alias}.created_at`;
const DESIGN_COLUMNS = (alias: string) => `${alias}.id, ${runtimeColumns(DESIGN_FIELDS, alias)}, ${alias}.created_at`;

function renditionsRecord(base: string, rows: RenditionRow[]) {
  return rows.map((r) => ({ name: r.name, width: r.width, height: r.height, content_type: r.type, url: absoluteUrl(base, r.path) }));
}

function mediaFilters(sql: Sql, alias: 'p' | 'd', f: PortfolioFilters) {
  const a = sql.unsafe(alias);
  const none = sql``;
  return sql`
    ${f.artistId ? sql`and ${a}.artist_id = ${f.artistId}` : none}
    ${f.styleId ? sql`and ${a}.style_ids @> ${[f.styleId]}::text[]` : none}
    ${f.featured !== undefined ? sql`and ${a}.featured = ${f.featured}` : none}
    ${f.tags ? sql`and ${a}.tags && ${f.tags}::text[]` : none}`;
}

export async function listPublicPortfolios(sql: Sql, f: PortfolioFilters, base: string) {
  const where = () => sql`where ${publicMediaWhere(sql, 'p')} ${mediaFilters(sql, 'p', f)}`;
  const [rows, [count]] = await Promise.all([
    sql<MediaRow[]>`
      select ${sql.unsafe(MEDIA_COLUMNS('p'))}, ${provenanceColumns(sql, 'p')}
      from portfolio_assets p ${where()}
      order by p.created_at desc, p.id asc
      limit ${f.limit} offset ${offsetOf(f)}`,
    sql<{ total: number }[]>`select count(*)::int as total from portfolio_assets p ${where()}`,
  ]);
  return { rows: rows.map((r) => portfolioRecord(r, base)), total: count?.total ?? 0 };
}

export async function listPublicDesigns(sql: Sql, f: DesignFilters, base: string) {
  // Every design this route lists is public; asking for non-public ones is answered with none.
  if (f.public === false) return { rows: [], total: 0 };
  const none = sql``;
  const where = () => sql`
    where ${publicMediaWhere(sql, 'd')} ${mediaFilters(sql, 'd', f)}
    ${f.search ? sql`and ${matchesWords(sql, 'd', f.search)}` : none}
    ${f.minPrice !== undefined ? sql`and d.price is not null and d.price >= ${f.minPrice}` : none}
    ${f.maxPrice !== undefined ? sql`and d.price is not null and d.price <= ${f.maxPrice}` : none}`;
  const [rows, [count]] = await Promise.all([
    sql<DesignRow[]>`
      select ${sql.unsafe(DESIGN_COLUMNS('d'))}, ${provenanceColumns(sql, 'd')}
      from designs d ${where()}
      order by d.created_at desc, d.id asc
      limit ${f.limit} offset ${offsetOf(f)}`,
    sql<{ total: number }[]>`select count(*)::int as total from designs d ${where()}`,
  ]);
  return { rows: rows.map((r) => designRecord(r, base)), total: count?.total ?? 0 };
}

/** The stored image and renditions as absolute URLs; spread over the served fields, they keep their places. */
const addressed = (r: MediaRow, base: string) => ({ image_url: absoluteUrl(base, r.imageUrl), renditions: renditionsRecord(base, r.renditions) });

/** Public portfolio asset (2.7). */
export function portfolioRecord(r: MediaRow, base: string) {
  return { id: r.id, ...servedOf(PORTFOLIO_FIELDS, r, PORTFOLIO_SERVED), ...addressed(r, base), provenance: provenanceOf(r), trust: trustOf(r) };
}

/** Public design (2.8): the asset fields plus description, price and the runtime trust proof. */
export function designRecord(r: DesignRow, base: string) {
  return { id: r.id, ...servedOf(DESIGN_FIELDS, r, DESIGN_SERVED), ...addressed(r, base), provenance: provenanceOf(r), trust: trustOf(r) };
}

// ---- rendition delivery (/media/{assetId}/{name}.{ext}) ----

export type RenditionLookup =
  | { state: 'served'; objectKey: string; sha256: string; contentType: string; ext: string }
  | { state: 'taken_down' }
  | null;

/** A rendition the public may fetch: its asset passes the public-read rule now; a taken-down asset says so. */
export async function findPublicRendition(sql: Sql, assetId: string, name: string): Promise<RenditionLookup> {
  const [row] = await sql<{ unpublishedAt: Date | null; isPublic: boolean; objectKey: string | null; sha256: string; contentType: string; ext: string }[]>`
    select p.unpublished_at, (${publicMediaWhere(sql, 'p')}) as is_public, r.object_key, r.sha256, r.content_type, r.ext
    from portfolio_assets p left join public_renditions r on r.media_id = p.id and r.name = ${name}
    where p.id = ${assetId}`;
  if (!row) return null;
  if (row.unpublishedAt) return { state: 'taken_down' };
  if (!row.isPublic || row.objectKey === null) return null;
  return { state: 'served', objectKey: row.objectKey, sha256: row.sha256, contentType: row.contentType, ext: row.ext };
}

// ---- owner-scoped reads (/me) ----

/** The owner's records, drafts included: scope is part of the WHERE, never a filter afterwards. */
function ownedBy(sql: Sql, alias: string, scope: OwnerScope) {
  const a = sql.unsafe(alias);
  return sql`(${a}.artist_id = any(${[...scope.artistScope]}::text[]) or ${a}.studio_id = any(${[...scope.studioScope]}::text[]))`;
}

/**
 * Runtime assets plus the owner's private media-store drafts not yet projected, one list.
 * The draft rows carry fixed provenance / trust values that say what they are.
 */
function ownerAssets(sql: Sql, scope: OwnerScope) {
  return sql`
    select 'runtime'::text as source, ${sql.unsafe(MEDIA_COLUMNS('p'))}, p.visibility as record_visibility, ${provenanceColumns(sql, 'p')}
    from portfolio_assets p
    where ${ownedBy(sql, 'p', scope)}
    union all
    select 'media_store_draft', m.document_id, m.artist_canonical_id, s.studio_canonical_id, coalesce(m.title, ''),
      coalesce(m.description, ''), null::text, m.tags, m.style_ids, false, false, m.publish_state,
      m.rights_posture, m.consent_posture, '[]'::json, m.created_at, m.visibility,
      'raw', 'portfolio_intake', 'media_store', null::text, m.created_at, 'rights_unknown', 'recommendation_only',
      array['private media-store draft; not projected to the runtime store'],
      'unverified', 'approved', m.visibility, 'none', '{}'::text[]
    from media_documents m
    join submissions s on s.submission_id = m.submission_id
    where (m.artist_canonical_id = any(${[...scope.artistScope]}::text[]) or s.studio_canonical_id = any(${[...scope.studioScope]}::text[]))
      and not exists (select 1 from portfolio_assets p2 where p2.source_document_id = m.document_id)`;
}

interface OwnerAssetRow extends MediaRow {
  source: 'runtime' | 'media_store_draft';
  recordVisibility: string;
}

export async function listOwnerAssets(sql: Sql, scope: OwnerScope, page: Page, base: string) {
  const [rows, [count]] = await Promise.all([
    sql<OwnerAssetRow[]>`select * from (${ownerAssets(sql, scope)}) o order by o.created_at desc, o.id asc limit ${page.limit} offset ${offsetOf(page)}`,
    sql<{ total: number }[]>`select count(*)::int as total from (${ownerAssets(sql, scope)}) o`,
  ]);
  return { rows: rows.map((r) => ownerAssetRecord(r, base)), total: count?.total ?? 0 };
}

export async function findOwnerAsset(sql: Sql, scope: OwnerScope, id: string, base: string) {
  const [row] = await sql<OwnerAssetRow[]>`select * from (${ownerAssets(sql, scope)}) o where o.id = ${id}`;
  return row ? ownerAssetRecord(row, base) : null;
}

/** Owner view: everything the owner may know about their own record, including its governance state. */
export function ownerAssetRecord(r: OwnerAssetRow, base: string) {
  return {
    id: r.id,
    source: r.source,
    artist_id: r.artistId,
    studio_id: r.studioId,
    title: r.title,
    description: r.description,
    image_url: absoluteUrl(base, r.imageUrl),
    renditions: renditionsRecord(base, r.renditions),
    tags: r.tags,
    style_ids: r.styleIds,
    featured: r.featured,
    is_public: r.isPublic,
    publish_state: r.publishState,
    visibility: r.recordVisibility,
    rights_posture: r.rightsPosture,
    consent_posture: r.consentPosture,
    created_at: r.createdAt.toISOString(),
    provenance: provenanceOf(r),
    trust: trustOf(r),
  };
}

const DESIGN_OWNER_COLUMNS = (sql: Sql) =>
  sql`${sql.unsafe(DESIGN_COLUMNS('d'))}, d.visibility as record_visibility, ${provenanceColumns(sql, 'd')}`;

export async function listOwnerDesigns(sql: Sql, scope: OwnerScope, page: Page, base: string) {
  const [rows, [count]] = await Promise.all([
    sql<(DesignRow & { recordVisibility: string })[]>`
      select ${DESIGN_OWNER_COLUMNS(sql)} from designs d where ${ownedBy(sql, 'd', scope)}
      order by d.created_at desc, d.id asc limit ${page.limit} offset ${offsetOf(page)}`,
    sql<{ total: number }[]>`select count(*)::int as total from designs d where ${ownedBy(sql, 'd', scope)}`,
  ]);
  return { rows: rows.map((r) => ownerDesignRecord(r, base)), total: count?.total ?? 0 };
}

export async function findOwnerDesign(sql: Sql, scope: OwnerScope, id: string, base: string) {
  const [row] = await sql<(DesignRow & { recordVisibility: string })[]>`
    select ${DESIGN_OWNER_COLUMNS(sql)} from designs d where d.id = ${id} and ${ownedBy(sql, 'd', scope)}`;
  return row ? ownerDesignRecord(row, base) : null;
}

export function ownerDesignRecord(r: DesignRow & { recordVisibility: string }, base: string) {
  const { source: _source, ...rest } = ownerAssetRecord({ ...r, source: 'runtime' }, base);
  return { ...rest, price: r.price, runtime_trust_proof: r.runtimeTrustProof };
}
