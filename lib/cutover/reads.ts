// Where the API's directory reads come from during the cutover: the stage stored in the runtime
// store (read at most once a second, so every replica follows a switch within a second), the
// read-only legacy pool, and the shadow comparison of sampled reads (record ids only in logs).
import type { Sql } from '../db';
import { STUDIO_FIELDS } from '../directory/fields/studio';
import { ARTIST_FIELDS, ARTIST_SERVED } from '../directory/fields/artist';
import { DESIGN_FIELDS, DESIGN_SERVED, PORTFOLIO_FIELDS, PORTFOLIO_SERVED } from '../directory/fields/media';
import { comparedFields } from '../directory/fields/table';
import type { Logger } from '../logger';
import { openLegacy } from './connection';
import { legacyArtistsById, legacyMediaById, legacyStudiosById } from './legacy-reads';
import { legacyKeyOf } from './legacy-source';
import { effectiveStage, storedStage, type Stage } from './stage';

/** The routes the legacy store can answer in the legacy_authoritative stage (the rest read the runtime store). */
export const LEGACY_READ_ROUTES = ['GET /studios', 'GET /artists', 'GET /artists/{id}', 'GET /portfolios', 'GET /designs'] as const;

export interface CutoverReads {
  legacy: Sql | undefined;
  sampleRate: number;
  stage(): Promise<{ effective: Stage; stored: Stage | null }>;
  /** In shadow_reads: whether this read is one of the sample. */
  sampled(): boolean;
  close(): Promise<void>;
}

export function createCutoverReads(sql: Sql, o: { legacyUrl: string | undefined; sampleRate: number; cacheMs?: number }): CutoverReads {
  const legacy = o.legacyUrl ? openLegacy(o.legacyUrl, { max: 4 }) : undefined;
  let cached: { at: number; stored: Stage | null } | undefined;
  const cacheMs = o.cacheMs ?? 1000;
  return {
    legacy,
    sampleRate: o.sampleRate,
    async stage() {
      if (!cached || Date.now() - cached.at > cacheMs) cached = { at: Date.now(), stored: await storedStage(sql) };
      return { effective: effectiveStage(cached.stored, legacy !== undefined), stored: cached.stored };
    },
    sampled: () => o.sampleRate > 0 && Math.random() < o.sampleRate,
    async close() {
      await legacy?.end({ timeout: 5 });
    },
  };
}

type Served = Record<string, unknown> & { id: string };
const STUDIO_COMPARED = comparedFields(STUDIO_FIELDS);
const ARTIST_COMPARED = comparedFields(ARTIST_FIELDS, ARTIST_SERVED);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The served studios that the legacy store disagrees with: for each record built from the legacy
 * store, its source row (the group's smallest legacy id) read again, normalized, and compared field
 * by field; a record whose source row is gone or unlisted disagrees too.
 */
export async function studioMismatches(sql: Sql, legacy: Sql, served: Served[]): Promise<string[]> {
  const ids = served.map((s) => s.id);
  if (!ids.length) return [];
  const sources = await sql<{ id: string; legacyIds: string[] }[]>`
    select id, legacy_ids from studios where id = any(${ids}::text[]) and source_type = 'legacy_store' and cardinality(legacy_ids) > 0`;
  const primary = new Map(sources.map((s) => [s.id, s.legacyIds.reduce((a, b) => (BigInt(b) < BigInt(a) ? b : a))]));
  const rows = await legacyStudiosById(legacy, [...new Set(primary.values())]);
  return served.flatMap((s) => {
    const key = primary.get(s.id);
    if (key === undefined) return []; // not from the legacy store (seeded, imported from a file)
    const l = rows.get(key) as Record<string, unknown> | undefined;
    return !l || STUDIO_COMPARED.some((f) => !same(s[f], l[f])) ? [s.id] : [];
  });
}

export async function artistMismatches(legacy: Sql, served: Served[]): Promise<string[]> {
  const keyed = served.flatMap((a) => {
    const key = legacyKeyOf(a.id, 'art_lg_');
    return key === undefined ? [] : [{ a, key }];
  });
  const rows = await legacyArtistsById(legacy, keyed.map((k) => k.key));
  return keyed.flatMap(({ a, key }) => {
    const l = rows.get(key) as Record<string, unknown> | undefined;
    return !l || ARTIST_COMPARED.some((f) => !same(a[f], l[f])) ? [a.id] : [];
  });
}

const MEDIA_COMPARED = { portfolio: comparedFields(PORTFOLIO_FIELDS, PORTFOLIO_SERVED), design: comparedFields(DESIGN_FIELDS, DESIGN_SERVED) };

/** The served portfolio assets or designs imported from the legacy store that it now disagrees with. */
export async function mediaMismatches(legacy: Sql, kind: 'portfolio' | 'design', served: Served[], base: string): Promise<string[]> {
  const prefix = kind === 'portfolio' ? 'pfa_lg_' : 'dsg_lg_';
  const keyed = served.flatMap((m) => {
    const key = legacyKeyOf(m.id, prefix);
    return key === undefined ? [] : [{ m, key }];
  });
  const rows = await legacyMediaById(legacy, kind, keyed.map((k) => k.key), base);
  return keyed.flatMap(({ m, key }) => {
    const l = rows.get(key);
    return !l || MEDIA_COMPARED[kind].some((f) => !same(m[f], l[f])) ? [m.id] : [];
  });
}

/** Run a comparison after the answer went out; count and log mismatches by record id only. */
export function shadowCompare(o: { route: string; log: Logger; mismatch(route: string): void; compared(route: string, result: 'match' | 'mismatch' | 'error'): void }, compare: () => Promise<string[]>) {
  compare().then(
    (ids) => {
      o.compared(o.route, ids.length ? 'mismatch' : 'match');
      if (ids.length) {
        o.mismatch(o.route);
        o.log.warn({ route: o.route, recordIds: ids.slice(0, 50), mismatched: ids.length }, 'shadow read: the legacy store disagrees with the runtime store');
      }
    },
    (err: unknown) => {
      o.compared(o.route, 'error');
      o.log.warn({ route: o.route, code: (err as { code?: string }).code }, 'shadow read: the legacy comparison failed');
    },
  );
}
