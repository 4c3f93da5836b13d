// The few OpenSearch REST calls the search backend and its indexer make, over fetch: no client
// library (the npm client would add a dependency to the shared node_modules for five endpoints;
// fetch gives the timeouts and the bodies we need).

/** The engine did not answer (refused, timed out, 5xx): the caller falls back or retries. */
export class EngineUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineUnavailable';
  }
}

export interface EngineConfig {
  /** Base URL, e.g. http://127.0.0.1:9200; several, comma-separated: the nodes of a cluster, tried in turn. */
  url: string;
  /** The read alias the API searches and the indexer keeps current. */
  alias: string;
  /** Per call. */
  timeoutMs: number;
}

export interface EngineResponse<T> {
  status: number;
  body: T;
}

/** The node that answered last, per URL list: calls start there. */
const preferred = new Map<string, number>();

/**
 * One call; JSON in (or NDJSON text for _bulk), JSON out. With several node URLs, a node that does
 * not answer (refused, timed out) is passed over for the next. Throws EngineUnavailable unless a
 * node answered below 500.
 */
export async function call<T = Record<string, unknown>>(e: Pick<EngineConfig, 'url' | 'timeoutMs'>, method: string, path: string, body?: unknown): Promise<EngineResponse<T>> {
  const urls = e.url.split(',').map((u) => u.trim().replace(/\/$/, '')).filter(Boolean);
  const first = preferred.get(e.url) ?? 0;
  let last: Error | undefined;
  for (let i = 0; i < urls.length; i++) {
    const k = (first + i) % urls.length;
    try {
      const r = await callOne<T>(urls[k]!, e.timeoutMs, method, path, body);
      preferred.set(e.url, k);
      return r;
    } catch (err) {
      if (!(err instanceof EngineUnavailable) || !(err as EngineUnavailable & { unreachable?: boolean }).unreachable) throw err;
      last = err;
    }
  }
  throw last ?? new EngineUnavailable('no OpenSearch URL');
}

async function callOne<T>(url: string, timeoutMs: number, method: string, path: string, body?: unknown): Promise<EngineResponse<T>> {
  const ndjson = typeof body === 'string';
  let res: Response;
  try {
    res = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
      body: body === undefined ? undefined : ndjson ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw Object.assign(new EngineUnavailable(`OpenSearch ${method} ${url}${path}: ${(err as Error).message}`), { unreachable: true });
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 500) throw new EngineUnavailable(`OpenSearch ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  try {
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
  } catch {
    throw new EngineUnavailable(`OpenSearch ${method} ${path}: ${res.status} and a body that is not JSON`);
  }
}

/** A call that must succeed (2xx); anything else throws with the engine's reason. */
export async function ok<T = Record<string, unknown>>(e: Pick<EngineConfig, 'url' | 'timeoutMs'>, method: string, path: string, body?: unknown): Promise<T> {
  const r = await call<T>(e, method, path, body);
  if (r.status >= 300) throw new Error(`OpenSearch ${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
  return r.body;
}
