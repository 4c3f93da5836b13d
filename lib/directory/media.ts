// Portfolio assets and designs: the public projections (2.7, 2.8) and the owner-scoped reads.
// Public reads apply publicMediaWhere in SQL; owner reads put the actor's scope in the WHERE.
import type { Sql } from '../db';
import { offsetOf, type Page } from './params';
import { matchesWords, provenanceColumns, provenanceOf, publicMediaWhere, trustOf, type ProvenanceRow } from './records';

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

interface MediaRow extends ProvenanceRow {
  id: string;
  artistId: string;
  studioId: string | null;
  title: string;
  description: string;
  imageUrl: string | null;
  tags: string[];
  styleIds: string[];
  featured: boolean;
  isPublic: boolean;
  publishState: string;
  rightsPosture: string;
  consentPosture: string;
  createdAt: Date;
}

interface DesignRow extends MediaRow {
  price: number | null;
  runtimeTrustProof: Record<string, unknown>;
}

const MEDIA_COLUMNS = (alias: string) =>
  ['id', 'artist_id', 'studio_id', 'title', 'description', 'image_url', 'tags', 'style_ids', 'featured', 'is_public', 'publish_state',
    'rights_posture', 'consent_posture', 'created_at'].map((c) => `${alias}.${c}`).join(', ');

function mediaFilters(sql: Sql, alias: 'p' | 'd', f: PortfolioFilters) {
  const a = sql.unsafe(alias);
  const none = sql``;
  return sql`
    ${f.artistId ? sql`and ${a}.artist_id = ${f.artistId}` : none}
    ${f.styleId ? sql`and ${a}.style_ids @> ${[f.styleId]}::text[]` : none}
    ${f.featured !== undefined ? sql`and ${a}.featured = ${f.featured}` : none}
    ${f.tags ? sql`and ${a}.tags && ${f.tags}::text[]` : none}`;
}

export async function listPublicPortfolios(sql: Sql, f: PortfolioFilters) {
  const where = () => sql`where ${publicMediaWhere(sql, 'p')} ${mediaFilters(sql, 'p', f)}`;
  const [rows, [count]] = await Promise.all([
    sql<MediaRow[]>`
      select ${sql.unsafe(MEDIA_COLUMNS('p'))}, ${provenanceColumns(sql, 'p')}
      from portfolio_assets p ${where()}
      order by p.created_at desc, p.id asc
      limit ${f.limit} offset ${offsetOf(f)}`,
    sql<{ total: number }[]>`select count(*)::int as total from portfolio_assets p ${where()}`,
  ]);
  return { rows: rows.map(portfolioRecord), total: count?.total ?? 0 };
}

export async function listPublicDesigns(sql: Sql, f: DesignFilters) {
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
      select ${sql.unsafe(MEDIA_COLUMNS('d'))}, d.price::float8 as price, d.runtime_trust_proof, ${provenanceColumns(sql, 'd')}
      from designs d ${where()}
      order by d.created_at desc, d.id asc
      limit ${f.limit} offset ${offsetOf(f)}`,
    sql<{ total: number }[]>`select count(*)::int as total from designs d ${where()}`,
  ]);
  return { rows: rows.map(designRecord), total: count?.total ?? 0 };
}

/** Public portfolio asset (2.7). */
export function portfolioRecord(r: MediaRow) {
  return {
    id: r.id,
    artist_id: r.artistId,
    title: r.title,
    image_url: r.imageUrl,
    tags: r.tags,
    is_public: r.isPublic,
    publish_state: r.publishState,
    provenance: provenanceOf(r),
    trust: trustOf(r),
  };
}

/** Public design (2.8): the asset fields plus description, price and the runtime trust proof. */
export function designRecord(r: DesignRow) {
  const { provenance, trust, ...rest } = portfolioRecord(r);
  return {
    ...rest,
    description: r.description,
    price: r.price,
    runtime_trust_proof: r.runtimeTrustProof,
    provenance,
    trust,
  };
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
      m.rights_posture, m.consent_posture, m.created_at, m.visibility,
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

export async function listOwnerAssets(sql: Sql, scope: OwnerScope, page: Page) {
  const [rows, [count]] = await Promise.all([
    sql<OwnerAssetRow[]>`select * from (${ownerAssets(sql, scope)}) o order by o.created_at desc, o.id asc limit ${page.limit} offset ${offsetOf(page)}`,
    sql<{ total: number }[]>`select count(*)::int as total from (${ownerAssets(sql, scope)}) o`,
  ]);
  return { rows: rows.map(ownerAssetRecord), total: count?.total ?? 0 };
}

export async function findOwnerAsset(sql: Sql, scope: OwnerScope, id: string) {
  const [row] = await sql<OwnerAssetRow[]>`select * from (${ownerAssets(sql, scope)}) o where o.id = ${id}`;
  return row ? ownerAssetRecord(row) : null;
}

/** Owner view: everything the owner may know about their own record, including its governance state. */
export function ownerAssetRecord(r: OwnerAssetRow) {
  return {
    id: r.id,
    source: r.source,
    artist_id: r.artistId,
    studio_id: r.studioId,
    title: r.title,
    description: r.description,
    image_url: r.imageUrl,
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
  sql`${sql.unsafe(MEDIA_COLUMNS('d'))}, d.visibility as record_visibility, d.price::float8 as price, d.runtime_trust_proof, ${provenanceColumns(sql, 'd')}`;

export async function listOwnerDesigns(sql: Sql, scope: OwnerScope, page: Page) {
  const [rows, [count]] = await Promise.all([
    sql<(DesignRow & { recordVisibility: string })[]>`
      select ${DESIGN_OWNER_COLUMNS(sql)} from designs d where ${ownedBy(sql, 'd', scope)}
      order by d.created_at desc, d.id asc limit ${page.limit} offset ${offsetOf(page)}`,
    sql<{ total: number }[]>`select count(*)::int as total from designs d where ${ownedBy(sql, 'd', scope)}`,
  ]);
  return { rows: rows.map(ownerDesignRecord), total: count?.total ?? 0 };
}

export async function findOwnerDesign(sql: Sql, scope: OwnerScope, id: string) {
  const [row] = await sql<(DesignRow & { recordVisibility: string })[]>`
    select ${DESIGN_OWNER_COLUMNS(sql)} from designs d where d.id = ${id} and ${ownedBy(sql, 'd', scope)}`;
  return row ? ownerDesignRecord(row) : null;
}

export function ownerDesignRecord(r: DesignRow & { recordVisibility: string }) {
  const { source: _source, ...rest } = ownerAssetRecord({ ...r, source: 'runtime' });
  return { ...rest, price: r.price, runtime_trust_proof: r.runtimeTrustProof };
}
