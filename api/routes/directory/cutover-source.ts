// Which store answers a directory read in the current cutover stage (lib/cutover/stage.ts), said in
// the X-Read-Source header; in shadow_reads a sample is compared with the legacy store afterwards.
import type { Response } from 'express';
import type { Sql } from '../../../lib/db';
import { shadowCompare } from '../../../lib/cutover/reads';
import type { AppDeps } from '../../deps';

export interface ReadSource {
  /** Set when the legacy store answers this read. */
  legacy: Sql | undefined;
  /** Set when this runtime read is sampled for a shadow comparison. */
  shadow: Sql | undefined;
}

/** `legacyCan`: the legacy store can answer this read with these filters (else the runtime store does, in every stage). */
export async function readSource(deps: AppDeps, res: Response, legacyCan: boolean): Promise<ReadSource> {
  const legacy = deps.cutover.legacy;
  const { effective } = legacy ? await deps.cutover.stage() : { effective: 'runtime_authoritative' as const };
  const fromLegacy = effective === 'legacy_authoritative' && legacyCan && legacy !== undefined;
  res.set('X-Read-Source', fromLegacy ? 'legacy_store' : 'runtime_store');
  return {
    legacy: fromLegacy ? legacy : undefined,
    shadow: effective === 'shadow_reads' && legacyCan && deps.cutover.sampled() ? legacy : undefined,
  };
}

export function shadowAfter(deps: AppDeps, route: string, compare: () => Promise<string[]>) {
  shadowCompare({ route, log: deps.log, mismatch: deps.metrics.shadowMismatch, compared: deps.metrics.shadowCompared }, compare);
}
