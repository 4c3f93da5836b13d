// Small operator calls: the cluster's health, an index's document count, a document by key.
import { call, EngineUnavailable, type EngineConfig } from './client';

/** green, yellow or red; undefined when the engine does not answer. */
export async function clusterHealth(e: Pick<EngineConfig, 'url' | 'timeoutMs'>): Promise<string | undefined> {
  try {
    const r = await call<{ status?: string }>(e, 'GET', '/_cluster/health');
    return r.status === 200 ? r.body.status : undefined;
  } catch (err) {
    if (err instanceof EngineUnavailable) return undefined;
    throw err;
  }
}

export async function countOf(e: EngineConfig, index = e.alias): Promise<number> {
  const r = await call<{ count: number }>(e, 'GET', `/${index}/_count`);
  return r.status === 200 ? r.body.count : 0;
}

export async function refresh(e: EngineConfig, index = e.alias): Promise<void> {
  await call(e, 'POST', `/${index}/_refresh`);
}
