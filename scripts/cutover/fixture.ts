// A messy legacy directory (../shared/legacy/schema.sql) for the cutover's tests and benchmark:
// every kind of mess the legacy README lists, the same rows for the same seed. Written with COPY.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Sql } from '../../lib/db';
import { copyLine } from '../../lib/db/copy-text';
import { CITIES } from '../../lib/directory/vocabulary';
import { NAME_FIRST, NAME_SECOND, NAME_SUFFIX, STREETS, FIRST_NAMES, LAST_NAMES, SUBJECTS } from '../seed/names';

export const LEGACY_SCHEMA = fs.readFileSync(path.join(import.meta.dirname, 'legacy-schema.sql'), 'utf8');

type Rng = () => number;
/** mulberry32 seeded from (seed, table, id): any row can be made alone, in any order. */
function rngFor(...parts: number[]): Rng {
  let a = 0x9e3779b9;
  for (const p of parts) a = Math.imul(a ^ (p | 0), 0x85ebca6b) ^ Math.imul((p / 4294967296) | 0, 0xc2b2ae35);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const CITY_SPELLINGS: Record<string, string[]> = {
  'New York': ['NYC', 'new york', 'New York City ', 'NEW YORK', 'New York'],
  'Los Angeles': ['LA', 'los angeles', 'Los Angeles '],
  'San Francisco': ['SF', 'san francisco', 'San Francisco'],
  Philadelphia: ['philly', 'Philadelphia'],
};
const STATE_NAMES: Record<string, string[]> = { CA: ['California', 'calif.', 'CA', 'ca'], NY: ['New York', 'N.Y.', 'NY'], TX: ['Texas', 'Tex.', 'TX'], IL: ['Illinois', 'IL'], FL: ['Florida', 'Fla.', 'FL'] };
const COUNTRY_SPELLINGS: Record<string, string[]> = { US: ['US', 'USA', 'United States', 'U.S.A.'], CA: ['Canada', 'CA', 'CAN'], GB: ['UK', 'United Kingdom', 'GB'], DE: ['Germany', 'DE'], NL: ['Netherlands', 'Holland'], AU: ['Australia', 'AU'], MX: ['Mexico', 'MX'] };
const STYLE_SPELLINGS = ['Fine Line', 'fineline', 'TRADITIONAL', 'neo trad', 'Neo-Traditional', 'Japanese', 'irezumi', 'Black & Grey', 'blackwork', 'Realism', 'watercolour', 'Dotwork', 'geometric', 'Sticker Bomb', 'tribal', 'lettering'];
const PRICES = ['$', '$$', '$$$', '$$$$', 'cheap', 'moderate', 'pricey', 'high end', null, 'call us'];
const EPOCH = Date.parse('2019-01-01T00:00:00Z');
const SPAN = 5 * 365 * 86400_000;
const at = (r: Rng) => new Date(EPOCH + Math.floor(r() * SPAN));

function messyName(r: Rng, name: string): string {
  const x = r();
  if (x < 0.1) return `  ${name} `;
  if (x < 0.15) return name.replace(' ', '  ');
  if (x < 0.2) return name.replace(' Co.', ' &amp; Co.').replace(' Ink', ' &amp; Ink');
  return name;
}

/** Studio i: [cells] in the column order of STUDIO_COLUMNS. Every 50th studio duplicates studio i - 7 (name case, street spelling). */
export function studioRow(seed: number, i: number): unknown[] {
  const dup = i % 50 === 0 && i > 7;
  const r = rngFor(seed, 1, dup ? i - 7 : i);
  const c = pick(r, CITIES);
  let name = `${pick(r, NAME_FIRST)} ${pick(r, NAME_SECOND)} ${pick(r, NAME_SUFFIX)}`;
  let address = `${1 + Math.floor(r() * 2999)} ${pick(r, STREETS)}`;
  if (dup) {
    name = ` ${name.toLowerCase()}`;
    address = address.replace(/ St$/, ' Street');
  }
  const own = rngFor(seed, 2, i);
  const lat = c.lat + (r() - 0.5) * 0.3;
  const lng = c.lon + (r() - 0.5) * 0.3;
  const coord = own();
  const [la, ln] = coord < 0.05 ? [null, null] : coord < 0.08 ? [0, 0] : coord < 0.13 ? [lng, lat] : coord < 0.14 ? [lat + 200, lng] : [lat, lng];
  const statePick = STATE_NAMES[c.state];
  const state = own() < 0.05 ? null : statePick && own() < 0.7 ? pick(own, statePick) : c.state;
  const country = own() < 0.08 ? null : pick(own, COUNTRY_SPELLINGS[c.country] ?? [c.country]);
  const city = own() < 0.5 ? pick(own, CITY_SPELLINGS[c.city] ?? [c.city, c.city.toLowerCase(), ` ${c.city.toUpperCase()}`]) : c.city;
  const tenPoint = own() < 0.1;
  const rating = own() < 0.05 ? null : Math.round((tenPoint ? 6 + own() * 4 : 3 + own() * 2) * 10) / 10;
  const styles = Array.from({ length: 1 + Math.floor(own() * 3) }, () => pick(own, STYLE_SPELLINGS));
  const desc = own() < 0.3 ? `<p>Welcome to <b>${name.trim()}</b> &amp; friends 🌹</p>` : own() < 0.1 ? null : `Tattoos in ${c.city}.`;
  const roll = own();
  const status = roll < 0.85 ? 'active' : roll < 0.9 ? 'pending' : roll < 0.95 ? 'hidden' : 'closed';
  const created = at(own);
  const slug = `${name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${i}`;
  return [
    i, slug, messyName(own, name), desc, address, city, state, country, own() < 0.5 ? String(10000 + Math.floor(own() * 89999)) : null,
    la, ln, own() < 0.5 ? '555-0100' : null, null, null, own() < 0.5 ? `@${slug.slice(0, 20)}` : null, pick(own, PRICES), rating,
    own() < 0.05 ? null : Math.floor(own() * 500), styles, own() < 0.3, own() < 0.05, status, created.toISOString(), new Date(created.getTime() + 86400_000).toISOString(),
  ];
}
export const STUDIO_COLUMNS = 'id, slug, name, description, address, city, state, country, zip, lat, lng, phone, email, website, instagram, price_range, rating, reviews_count, styles, is_verified, is_featured, status, created_at, updated_at';

/** Artist id: 1.5 per studio on average, of studio ceil(id / 2); one in ten independent, a few nameless, some with absurd years. */
export function artistRow(seed: number, id: number, studios: number): unknown[] {
  const r = rngFor(seed, 3, id);
  const studio = r() < 0.1 ? null : Math.min(studios, Math.ceil(id / 2));
  const name = r() < 0.005 ? '   ' : `${pick(r, FIRST_NAMES)} ${pick(r, LAST_NAMES)}`;
  const years = r() < 0.03 ? -2 : r() < 0.03 ? 150 : Math.floor(r() * 25);
  const created = at(r);
  return [
    id, studio, r() < 0.1 ? ` ${name} ` : name, r() < 0.2 ? `<p>Loves <i>${pick(r, SUBJECTS)}</i> &amp; more</p>` : `Tattooing for ${years} years.`, null,
    Array.from({ length: 1 + Math.floor(r() * 2) }, () => pick(r, STYLE_SPELLINGS)), years, r() < 0.3 ? null : 80 + Math.floor(r() * 150),
    r() > 0.05, created.toISOString(), new Date(created.getTime() + 3600_000).toISOString(),
  ];
}
export const ARTIST_COLUMNS = 'id, studio_id, name, bio, instagram, specialties, years_experience, hourly_rate, is_active, created_at, updated_at';

/** One portfolio item per artist (id = artist id); consent unknown on a third. */
export function portfolioRow(seed: number, id: number): unknown[] {
  const r = rngFor(seed, 4, id);
  const created = at(r);
  return [
    id, id, `${pick(r, SUBJECTS)} <em>piece</em>`, null, r() < 0.01 ? null : `https://legacy-storage.example/portfolio/${id}.jpg`, [pick(r, SUBJECTS), 'Healed'],
    pick(r, STYLE_SPELLINGS), r() < 0.7, pick(r, ['client_consented', 'not_required', null]), created.toISOString(), created.toISOString(),
  ];
}
export const PORTFOLIO_COLUMNS = 'id, artist_id, title, description, image_url, tags, style, is_public, consent, created_at, updated_at';

/** A design for every other artist (id = artist id). */
export function designRow(seed: number, id: number): unknown[] {
  const r = rngFor(seed, 5, id);
  const created = at(r);
  return [
    id, id, `${pick(r, SUBJECTS)} flash`, r() < 0.3 ? '<p>Available &amp; ready</p>' : null, `https://legacy-storage.example/designs/${id}.png`, ['flash'],
    pick(r, STYLE_SPELLINGS), r() < 0.3 ? null : 100 + Math.floor(r() * 10) * 25, r() < 0.6, created.toISOString(), created.toISOString(),
  ];
}
export const DESIGN_COLUMNS = 'id, artist_id, title, description, image_url, tags, style, price, is_public, created_at, updated_at';

export interface FixtureCounts {
  studios: number;
  artists: number;
  portfolio_items: number;
  designs: number;
  deletions: number;
}

export function fixtureCounts(studios: number, media = true): FixtureCounts {
  const artists = Math.ceil((studios * 3) / 2);
  return { studios, artists, portfolio_items: media ? artists : 0, designs: media ? Math.floor(artists / 2) : 0, deletions: Math.floor(studios / 40) + Math.floor(artists / 40) };
}

// ---- COPY text format: lib/db/copy-text.ts ----
export { copyLine };

async function copy(sql: Sql, table: string, columns: string, rows: Iterable<unknown[]>) {
  function* chunks() {
    let buf = '';
    let n = 0;
    for (const row of rows) {
      buf += copyLine(row);
      if (++n % 2000 === 0) {
        yield buf;
        buf = '';
      }
    }
    if (buf) yield buf;
  }
  const writable = await sql`copy ${sql(table)} (${sql.unsafe(columns)}) from stdin`.writable();
  await pipeline(Readable.from(chunks()), writable);
}

function* range(n: number, f: (i: number) => unknown[]) {
  for (let i = 1; i <= n; i++) yield f(i);
}

/** Replace the legacy tables of this database with a messy directory of `studios` studios. */
export async function writeLegacyFixture(sql: Sql, opts: { studios: number; seed: number; media?: boolean; onTable?: (table: string, rows: number) => void }): Promise<FixtureCounts> {
  const n = fixtureCounts(opts.studios, opts.media ?? true);
  await sql.unsafe('drop table if exists deletions, designs, portfolio_items, artists, studios cascade');
  await sql.unsafe(LEGACY_SCHEMA);
  const step = async (table: string, columns: string, count: number, f: (i: number) => unknown[]) => {
    await copy(sql, table, columns, range(count, f));
    opts.onTable?.(table, count);
  };
  await step('studios', STUDIO_COLUMNS, n.studios, (i) => studioRow(opts.seed, i));
  await step('artists', ARTIST_COLUMNS, n.artists, (i) => artistRow(opts.seed, i, n.studios));
  await step('portfolio_items', PORTFOLIO_COLUMNS, n.portfolio_items, (i) => portfolioRow(opts.seed, i));
  await step('designs', DESIGN_COLUMNS, n.designs, (i) => designRow(opts.seed, i * 2));
  // soft deletes: every 40th studio and artist is listed in deletions; its row stays
  const deletions = [
    ...Array.from({ length: Math.floor(n.studios / 40) }, (_, k) => ['studios', (k + 1) * 40 - 3, '2024-01-01T00:00:00Z']),
    ...Array.from({ length: Math.floor(n.artists / 40) }, (_, k) => ['artists', (k + 1) * 40 - 1, '2024-01-01T00:00:00Z']),
  ];
  await copy(sql, 'deletions', 'table_name, row_id, deleted_at', deletions);
  opts.onTable?.('deletions', deletions.length);
  await sql.unsafe('analyze');
  return n;
}
