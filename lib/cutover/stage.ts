// The read stage of the cutover, stored in the runtime store so every API replica follows it.
import type { Sql } from '../db';

export const STAGES = ['legacy_authoritative', 'shadow_reads', 'runtime_authoritative'] as const;
export type Stage = (typeof STAGES)[number];

export async function storedStage(sql: Sql): Promise<Stage | null> {
  const [r] = await sql<{ stage: Stage }[]>`select stage from cutover_stage`;
  return r?.stage ?? null;
}

export async function setStage(sql: Sql, stage: Stage, by: string): Promise<{ from: Stage | null; to: Stage }> {
  return sql.begin(async (tx) => {
    const [before] = await tx<{ stage: Stage }[]>`select stage from cutover_stage for update`;
    await tx`insert into cutover_stage (stage, changed_by) values (${stage}, ${by})
      on conflict (singleton) do update set stage = excluded.stage, changed_at = now(), changed_by = excluded.changed_by`;
    return { from: before?.stage ?? null, to: stage };
  });
}

/**
 * The stage in force: without a legacy store there is nothing to read but the runtime store;
 * with one and no stage chosen yet, the legacy store is still the truth.
 */
export function effectiveStage(stored: Stage | null, legacyConfigured: boolean): Stage {
  if (!legacyConfigured) return 'runtime_authoritative';
  return stored ?? 'legacy_authoritative';
}

/** How /health reports a stage (contract 2.11: runtime.currentPersistence, apiCutoverStage, publicReadSurface, notes). */
export function stageReport(stage: Stage, o: { legacyConfigured: boolean; stored: Stage | null; sampleRate: number; legacyRoutes: readonly string[] }) {
  const common = [
    'Temporal holds intake workflow state; every transition is also recorded in PostgreSQL (intake_events).',
    'Actor mappings, intake records and portfolio intake are always in PostgreSQL (the runtime store).',
  ];
  if (!o.legacyConfigured)
    return {
      currentPersistence: 'postgresql',
      apiCutoverStage: stage,
      publicReadSurface: 'runtime_store',
      notes: [
        'No legacy store is configured (LEGACY_DATA_URL unset): the stage is runtime_authoritative and the legacy store is not read.',
        ...(o.stored && o.stored !== 'runtime_authoritative' ? [`The stored stage ${o.stored} does not apply without a legacy store.`] : []),
        ...common,
      ],
    };
  if (stage === 'legacy_authoritative')
    return {
      currentPersistence: 'legacy_store',
      apiCutoverStage: stage,
      publicReadSurface: 'legacy_store',
      notes: [
        `The legacy store is authoritative for directory reads: ${o.legacyRoutes.join(', ')} are served from it (read-only), in the same shapes.`,
        'Every filter of GET /studios (city, state, price_range, a geo radius) and GET /artists (studio_id, specialty) is answered from the legacy store, through the normalization the backfill uses (its raw spellings are re-read every 30 s).',
        'GET /portfolios and GET /designs list the legacy items the runtime would list after a backfill (public, consent known, image URL kept, not verified).',
        'Served from the runtime store: /search (its relevance ranking, typo correction and facets run over the runtime search documents) and the /me owner reads. Answers name their store in the X-Read-Source header.',
        ...(o.stored === null ? ['No stage has been chosen yet (npm run cutover -- stage <name>); a configured legacy store starts authoritative.'] : []),
        ...common,
      ],
    };
  if (stage === 'shadow_reads')
    return {
      currentPersistence: 'postgresql',
      apiCutoverStage: stage,
      publicReadSurface: 'runtime_store',
      notes: [
        `Directory reads are served from the runtime store; ${Math.round(o.sampleRate * 1000) / 10}% of ${o.legacyRoutes.join(', ')} are also read from the legacy store and compared (cutover_shadow_mismatches_total).`,
        ...common,
      ],
    };
  return {
    currentPersistence: 'postgresql',
    apiCutoverStage: stage,
    publicReadSurface: 'runtime_store',
    notes: ['The runtime store is authoritative; the legacy store is configured but not read.', ...common],
  };
}
