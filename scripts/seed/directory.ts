// A realistic, deterministic synthetic directory of any size, streamed with COPY.
// Every record derives from (seed, studio index[, artist index[, item index]]) through its own PRNG,
// so the same arguments always produce the same rows, and each table can be generated on its own.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Sql } from '../../lib/db';
import { CITIES, STYLES, type City } from '../../lib/directory/vocabulary';
import * as V from './names';

export const SEED_SOURCE_TYPE = 'synthetic_seed';

export interface SeedOptions {
  studios: number;
  seed?: number;
  /** Delete earlier synthetic rows first (projected and other real rows are kept). */
  reset?: boolean;
  /** Do nothing when synthetic studios already exist (the run command's first-start seed). */
  ifEmpty?: boolean;
  onProgress?: (p: { table: SeedStep; done: number; total: number }) => void;
}

export type SeedTable = 'studios' | 'artists' | 'portfolio_assets' | 'designs';
/** What a progress report is about: a table's rows, or (bulk seeds) the rebuild of the search documents. */
export type SeedStep = SeedTable | 'search_documents';

export interface SeedResult {
  skipped: boolean;
  counts: Record<SeedTable, number>;
  ms: number;
}

export class SeedConflictError extends Error {
  constructor() {
    super('The directory already holds synthetic rows; pass --reset to replace them.');
    this.name = 'SeedConflictError';
  }
}

// ---- deterministic randomness ----

/** mulberry32: small, fast, good enough for synthetic data; same seed -> same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One PRNG per record: mixes the seed with the record's coordinates. */
function rngFor(seed: number, ...path: number[]): () => number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const p of path) h = Math.imul(h ^ (p + 0x7f4a7c15), 0x85ebca6b) >>> 0;
  return mulberry32(h ^ (h >>> 13));
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const some = <T>(r: () => number, xs: readonly T[], min: number, max: number): T[] => {
  const n = min + Math.floor(r() * (max - min + 1));
  const out = new Set<T>();
  while (out.size < n) out.add(pick(r, xs));
  return [...out];
};
const CITY_TOTAL = CITIES.reduce((s, c) => s + c.weight, 0);
function pickCity(r: () => number): City {
  let x = r() * CITY_TOTAL;
  for (const c of CITIES) if ((x -= c.weight) < 0) return c;
  return CITIES[0]!;
}
const pad = (i: number) => String(i).padStart(7, '0');
const EPOCH = Date.UTC(2019, 0, 1);
const FIVE_YEARS = 5 * 365 * 24 * 3600 * 1000;
const COLLECTED_AT = '2024-06-01T00:00:00.000Z';

// ---- COPY text format ----

type Cell = string | number | boolean | null | readonly string[];

function esc(s: string): string {
  return s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}
function arrayLiteral(xs: readonly string[]): string {
  return '{' + xs.map((x) => '"' + x.replace(/["\\]/g, (c) => '\\' + c) + '"').join(',') + '}';
}
function line(cells: readonly Cell[]): string {
  return (
    cells
      .map((c) => (c === null ? '\\N' : typeof c === 'boolean' ? (c ? 't' : 'f') : Array.isArray(c) ? esc(arrayLiteral(c)) : esc(String(c))))
      .join('\t') + '\n'
  );
}

// ---- the plan: how many children each record has ----

export function artistCount(seed: number, studio: number): number {
  return 1 + Math.floor(rngFor(seed, studio, 0)() * 4); // 1..4, mean 2.5
}
function itemCounts(seed: number, studio: number, artist: number): { assets: number; designs: number } {
  const r = rngFor(seed, studio, artist, 0);
  return { assets: Math.floor(r() * 4), designs: Math.floor(r() * 3) }; // 0..3 and 0..2
}

// ---- rows ----

const PROVENANCE = ['directory_import', 'seed_generator'] as const;

function studioRow(seed: number, i: number): Cell[] {
  const r = rngFor(seed, i);
  const c = pickCity(r);
  // spread studios up to ~20 km around the centre
  const lat = c.lat + (r() - 0.5) * 0.36;
  const lon = c.lon + ((r() - 0.5) * 0.36) / Math.cos((c.lat * Math.PI) / 180);
  const name = `${pick(r, V.NAME_FIRST)} ${pick(r, V.NAME_SECOND)} ${pick(r, V.NAME_SUFFIX)}`;
  const styles = some(r, STYLES, 1, 4);
  const specialties = some(r, V.SERVICES, 1, 3);
  const description = `${name.split(' ').slice(0, 2).join(' ')} is a ${styles.map((s) => s.replace(/_/g, ' ')).join(', ')} studio in ${c.city} offering ${specialties.map((s) => s.replace(/_/g, ' ')).join(', ')}.`;
  const verified = r() < 0.3;
  const roll = r();
  const visibility = roll < 0.02 ? 'private' : roll < 0.03 ? 'owner_only' : 'public';
  const recordState = r() < 0.01 ? 'deprecated' : verified ? 'verified' : pick(r, ['raw', 'normalized', 'curated'] as const);
  return [
    `std_${pad(i)}`, name, description, `${1 + Math.floor(r() * 2999)} ${pick(r, V.STREETS)}`, c.city, c.state, c.country,
    Math.round(lat * 1e6) / 1e6, Math.round(lon * 1e6) / 1e6, pick(r, ['$', '$$', '$$', '$$$', '$$$', '$$$$'] as const),
    Math.round((3 + r() * 2) * 10) / 10, Math.floor(r() * r() * 900), styles, specialties, verified, r() < 0.05, r() > 0.01,
    recordState, SEED_SOURCE_TYPE, PROVENANCE[1], null, COLLECTED_AT, 'rights_unknown', 'recommendation_only',
    ['synthetic record generated by scripts/seed.ts'], verified ? 'verified' : 'unverified', pick(r, ['pending_review', 'draft'] as const),
    visibility, 'none', [], new Date(EPOCH + Math.floor(r() * FIVE_YEARS)).toISOString(),
  ];
}
const STUDIO_COLUMNS = `id, name, description, address, city, state, country, latitude, longitude, price_range, rating, review_count,
  styles, specialties, verified, featured, is_active, record_state, source_type, origin_authority, source_url, source_collected_at,
  license_status, consent_level, source_notes, verification_status, approval_status, visibility, cultural_sensitivity_level,
  trust_notes, created_at`;

function artistRow(seed: number, i: number, j: number): Cell[] {
  const r = rngFor(seed, i, j, 1);
  const name = `${pick(r, V.FIRST_NAMES)} ${pick(r, V.LAST_NAMES)}`;
  const specialties = some(r, STYLES, 1, 3);
  const years = Math.floor(r() * 25);
  const bio = `${name.split(' ')[0]} has tattooed for ${years || 1} year${years > 1 ? 's' : ''}, known for ${specialties.map((s) => s.replace(/_/g, ' ')).join(' and ')} work.`;
  const verified = r() < 0.25;
  return [
    `art_${pad(i)}_${j}`, `std_${pad(i)}`, name, bio, specialties, some(r, STYLES, 1, 3), years,
    r() < 0.15 ? null : 80 + Math.floor(r() * 37) * 5, Math.round((3 + r() * 2) * 10) / 10, Math.floor(r() * r() * 300), verified,
    r() > 0.05, verified ? 'verified' : 'normalized', SEED_SOURCE_TYPE, PROVENANCE[1], null, COLLECTED_AT, 'rights_unknown',
    'recommendation_only', ['synthetic record generated by scripts/seed.ts'], verified ? 'verified' : 'unverified', 'pending_review',
    r() < 0.02 ? 'private' : 'public', 'none', [], new Date(EPOCH + Math.floor(r() * FIVE_YEARS)).toISOString(),
  ];
}
const ARTIST_COLUMNS = `id, studio_id, name, bio, specialties, styles, years_experience, hourly_rate, rating, review_count, verified,
  is_active, record_state, source_type, origin_authority, source_url, source_collected_at, license_status, consent_level,
  source_notes, verification_status, approval_status, visibility, cultural_sensitivity_level, trust_notes, created_at`;

/**
 * Governance mix of media records: most are published, the rest are the cases the read rules must
 * keep out (draft, private, owner-only, review-required posture, disputed license).
 */
function governance(r: () => number) {
  const x = r();
  const published = { publishState: 'published_public', isPublic: true, visibility: 'public', rights: 'artist_attested', consent: 'client_consented', license: 'artist_attested' };
  if (x < 0.7) return { ...published, rights: r() < 0.5 ? 'owner_attested' : 'artist_attested', consent: r() < 0.7 ? 'client_consented' : 'not_required' };
  if (x < 0.8) return { ...published, publishState: 'draft', isPublic: false, visibility: 'private' };
  if (x < 0.85) return { ...published, publishState: 'private', isPublic: false, visibility: 'private' };
  if (x < 0.9) return { ...published, publishState: 'owner_only', isPublic: false, visibility: 'owner_only' };
  if (x < 0.95) return { ...published, rights: 'review_required', consent: 'review_required', license: 'rights_unknown' };
  return { ...published, license: 'rights_disputed' };
}

function mediaRow(seed: number, i: number, j: number, k: number, kind: 'asset' | 'design'): Cell[] {
  const r = rngFor(seed, i, j, k, kind === 'asset' ? 2 : 3);
  const subject = pick(r, V.SUBJECTS);
  const styles = some(r, STYLES, 1, 2);
  const placement = pick(r, V.PLACEMENTS);
  const title = `${styles[0]!.replace(/_/g, ' ')} ${subject}${kind === 'asset' ? ` on ${placement}` : ' flash'}`;
  const description = `${kind === 'asset' ? 'Healed' : 'Available'} ${styles.map((s) => s.replace(/_/g, ' ')).join(' / ')} ${subject}, ${placement}.`;
  const g = governance(r);
  const id = `${kind === 'asset' ? 'pfa' : 'dsg'}_${pad(i)}_${j}_${k}`;
  const common: Cell[] = [
    id, `art_${pad(i)}_${j}`, `std_${pad(i)}`, title, description, `https://images.tattoo-directory.invalid/${id}.jpg`,
    [subject, placement.replace(/ /g, '_'), ...styles], styles, r() < 0.1, g.isPublic, g.publishState, g.rights, g.consent,
    g.publishState === 'published_public' ? 'curated' : 'raw', SEED_SOURCE_TYPE, PROVENANCE[1], null, COLLECTED_AT, g.license,
    g.consent === 'review_required' ? 'recommendation_only' : g.consent, ['synthetic record generated by scripts/seed.ts'],
    'unverified', g.publishState === 'published_public' ? 'approved' : 'draft', g.visibility, 'none', [],
    new Date(EPOCH + Math.floor(r() * FIVE_YEARS)).toISOString(),
  ];
  if (kind === 'asset') return common;
  const price = r() < 0.2 ? null : 50 + Math.floor(r() * 30) * 25;
  const proof = { publishState: g.publishState, rightsPosture: g.rights, consentPosture: g.consent, checkedBy: 'seed_generator', checkedAt: COLLECTED_AT };
  return [...common, price, JSON.stringify(proof)];
}
const MEDIA_COLUMNS = `id, artist_id, studio_id, title, description, image_url, tags, style_ids, featured, is_public, publish_state,
  rights_posture, consent_posture, record_state, source_type, origin_authority, source_url, source_collected_at, license_status,
  consent_level, source_notes, verification_status, approval_status, visibility, cultural_sensitivity_level, trust_notes, created_at`;

// ---- streaming ----

const CHUNK_ROWS = 2000;

async function copyInto(sql: Sql, table: SeedTable, columns: string, rows: Iterable<Cell[]>, total: number, onProgress: SeedOptions['onProgress']) {
  let done = 0;
  function* chunks() {
    let buf = '';
    let n = 0;
    for (const row of rows) {
      buf += line(row);
      if (++n === CHUNK_ROWS) {
        done += n;
        onProgress?.({ table, done, total });
        yield buf;
        buf = '';
        n = 0;
      }
    }
    done += n;
    if (buf) yield buf;
    onProgress?.({ table, done, total });
  }
  const writable = await sql`copy ${sql(table)} (${sql.unsafe(columns)}) from stdin`.writable();
  await pipeline(Readable.from(chunks()), writable);
  return done;
}

function* studios(seed: number, n: number) {
  for (let i = 1; i <= n; i++) yield studioRow(seed, i);
}
function* artists(seed: number, n: number) {
  for (let i = 1; i <= n; i++) for (let j = 1, c = artistCount(seed, i); j <= c; j++) yield artistRow(seed, i, j);
}
function* media(seed: number, n: number, kind: 'asset' | 'design') {
  for (let i = 1; i <= n; i++)
    for (let j = 1, c = artistCount(seed, i); j <= c; j++) {
      const counts = itemCounts(seed, i, j);
      for (let k = 1; k <= (kind === 'asset' ? counts.assets : counts.designs); k++) yield mediaRow(seed, i, j, k, kind);
    }
}

/** Exact row counts the plan produces (cheap: only the count PRNGs run). */
export function plannedCounts(seed: number, n: number): Record<SeedTable, number> {
  const c = { studios: n, artists: 0, portfolio_assets: 0, designs: 0 };
  for (let i = 1; i <= n; i++)
    for (let j = 1, a = artistCount(seed, i); j <= a; j++) {
      const k = itemCounts(seed, i, j);
      c.artists++;
      c.portfolio_assets += k.assets;
      c.designs += k.designs;
    }
  return c;
}

async function deleteSynthetic(sql: Sql) {
  await sql`delete from designs where source_type = ${SEED_SOURCE_TYPE}`;
  await sql`delete from portfolio_assets where source_type = ${SEED_SOURCE_TYPE}`;
  await sql`delete from artists where source_type = ${SEED_SOURCE_TYPE}`;
  await sql`delete from studios where source_type = ${SEED_SOURCE_TYPE}`;
}

/**
 * Every search document again, from search_document_source (the migration's one definition), in
 * static-quality order: the table's physical order is then the order the search's quality walk
 * reads, so a walk reads consecutive pages. Then the dictionary of indexed words.
 */
export async function rebuildSearchDocuments(sql: Sql) {
  await sql`delete from search_documents`;
  await sql`
    insert into search_documents (type, id, name, search_tsv, city, state, country, latitude, longitude, styles, specialties,
      rating, review_count, verified, published_works, created_at, quality)
    select type, id, name, search_tsv, city, state, country, latitude, longitude, styles, specialties,
      rating, review_count, verified, published_works, created_at, quality
    from search_document_source
    order by quality desc, type, id`;
  await sql`insert into search_words (word) select word from ts_stat('select search_tsv from search_documents') order by word on conflict (word) do nothing`;
}

/** From this many studios on, indexes are dropped during the load and rebuilt after (much faster). */
export const BULK_THRESHOLD = 1_000;

/**
 * Seed `studios` studios with artists, portfolio assets and designs in proportion (about 2.5
 * artists per studio, 1.5 assets and 1 design per artist).
 *
 * Small seeds stream the four tables into the indexed tables, one after another; the tables'
 * statement triggers keep the search documents current. Large seeds run in one transaction that
 * drops the secondary indexes (the search documents' too), streams the rows with the triggers
 * switched off for the transaction, rebuilds every search document in quality order and then the
 * indexes from their own definitions, so an interrupted seed rolls back to the migrated schema.
 */
export async function seedDirectory(sql: Sql, o: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const seed = o.seed ?? 1;
  const [existing] = await sql<{ n: number }[]>`select count(*)::int as n from (select 1 from studios where source_type = ${SEED_SOURCE_TYPE} limit 1) x`;
  const zero = { studios: 0, artists: 0, portfolio_assets: 0, designs: 0 };
  if (existing!.n > 0) {
    if (o.ifEmpty) return { skipped: true, counts: zero, ms: 0 };
    if (!o.reset) throw new SeedConflictError();
    await deleteSynthetic(sql);
  }
  const planned = plannedCounts(seed, o.studios);
  const load = (db: Sql) => ({
    studios: () => copyInto(db, 'studios', STUDIO_COLUMNS, studios(seed, o.studios), planned.studios, o.onProgress),
    artists: () => copyInto(db, 'artists', ARTIST_COLUMNS, artists(seed, o.studios), planned.artists, o.onProgress),
    portfolio_assets: () => copyInto(db, 'portfolio_assets', MEDIA_COLUMNS, media(seed, o.studios, 'asset'), planned.portfolio_assets, o.onProgress),
    designs: () =>
      copyInto(db, 'designs', `${MEDIA_COLUMNS}, price, runtime_trust_proof`, media(seed, o.studios, 'design'), planned.designs, o.onProgress),
  });
  const counts = { ...zero };
  if (o.studios < BULK_THRESHOLD) {
    // One table after another: each COPY's statement trigger writes the search documents of its
    // rows in its transaction, and an artist's document counts its published portfolio works.
    const l = load(sql);
    counts.studios = await l.studios();
    counts.artists = await l.artists();
    counts.portfolio_assets = await l.portfolio_assets();
    counts.designs = await l.designs();
  } else {
    await sql.begin(async (tx) => {
      await tx`set local maintenance_work_mem = '512MB'`;
      await tx`set local work_mem = '256MB'`;
      // the search documents are rebuilt below, in this transaction, rather than by the triggers
      await tx`set local directory.search_sync = 'off'`;
      const indexes = await tx<{ name: string; def: string; search: boolean }[]>`
        select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def, i.indrelid = 'search_documents'::regclass as search
        from pg_index i
        where i.indrelid in ('studios'::regclass, 'artists'::regclass, 'portfolio_assets'::regclass, 'designs'::regclass, 'search_documents'::regclass)
          and not i.indisprimary and not i.indisunique`;
      for (const ix of indexes) await tx`drop index ${tx(ix.name)}`;
      const l = load(tx as unknown as Sql);
      counts.studios = await l.studios();
      counts.artists = await l.artists();
      counts.portfolio_assets = await l.portfolio_assets();
      counts.designs = await l.designs();
      // definitions read from the catalog above, not from any input; the source tables' first
      // (a document counts its record's published works through them), the documents' last
      for (const ix of indexes.filter((x) => !x.search)) await tx.unsafe(ix.def);
      // statistics of the fresh rows, or the planner counts works with a scan per record
      await tx`analyze studios, artists, portfolio_assets, designs`;
      const documents = await tx<{ n: number }[]>`select count(*)::int as n from search_document_source`;
      o.onProgress?.({ table: 'search_documents', done: 0, total: documents[0]!.n });
      // Without a search engine fed from the change log (no search_feed row), its triggers are off
      // for the rebuild: their transition tables would copy every document for nothing.
      const [feed] = await tx<{ on: boolean }[]>`select exists (select 1 from search_feed) as on`;
      const changeTriggers = ['search_documents_changes_insert', 'search_documents_changes_update', 'search_documents_changes_delete'];
      if (!feed!.on) for (const t of changeTriggers) await tx`alter table search_documents disable trigger ${tx(t)}`;
      await rebuildSearchDocuments(tx as unknown as Sql);
      if (!feed!.on) for (const t of changeTriggers) await tx`alter table search_documents enable trigger ${tx(t)}`;
      for (const ix of indexes.filter((x) => x.search)) await tx.unsafe(ix.def);
      o.onProgress?.({ table: 'search_documents', done: documents[0]!.n, total: documents[0]!.n });
    });
  }
  // statistics for the planner, and the visibility map for index-only counts
  await sql`vacuum analyze studios, artists, portfolio_assets, designs, search_documents, search_words`;
  return { skipped: false, counts, ms: Math.round(performance.now() - started) };
}
