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
  /** Base URL, e.g. http://127.0.0.1:9200. */
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

/** One call; JSON in (or NDJSON text for _bulk), JSON out. Throws EngineUnavailable unless the engine answered below 500. */
export async function call<T = Record<string, unknown>>(e: Pick<EngineConfig, 'url' | 'timeoutMs'>, method: string, path: string, body?: unknown): Promise<EngineResponse<T>> {
  const ndjson = typeof body === 'string';
  let res: Response;
  try {
    res = await fetch(`${e.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
      body: body === undefined ? undefined : ndjson ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(e.timeoutMs),
    });
  } catch (err) {
    throw new EngineUnavailable(`OpenSearch ${method} ${path}: ${(err as Error).message}`);
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
