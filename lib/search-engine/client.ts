// The few OpenSearch REST calls the search backend and its indexer make, over node:http(s): no
// client library (the npm client would add a dependency to the shared node_modules for five
// endpoints). Connections are kept alive and reused (one agent per protocol): a search is one
// small request, and undici's fetch cost 1.4-1.6 times as much per call on loopback (p50 8.4 against
// 6.0 ms, mean 14.5 against 9.1 ms, one size-0 search alternating between the two on a loaded 2-core machine).
import http from 'node:http';
import https from 'node:https';

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

/** Kept-alive connections to the nodes, reused across calls (the sockets idle out after 30 s). */
const agents = {
  'http:': new http.Agent({ keepAlive: true, keepAliveMsecs: 30_000, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, keepAliveMsecs: 30_000, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo' }),
};

/**
 * One HTTP exchange: the status and the body as text; rejects when no answer came (refused, reset,
 * timed out). A kept-alive socket the node closed meanwhile fails at once: that one is sent again
 * on a new connection (every call here may be repeated: searches read, writes carry versions).
 */
async function exchange(url: URL, method: string, headers: Record<string, string>, payload: string | undefined, timeoutMs: number) {
  try {
    return await exchangeOnce(url, method, headers, payload, timeoutMs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!(err as { reusedSocket?: boolean }).reusedSocket || (code !== 'ECONNRESET' && code !== 'EPIPE')) throw err;
    return exchangeOnce(url, method, headers, payload, timeoutMs);
  }
}

function exchangeOnce(url: URL, method: string, headers: Record<string, string>, payload: string | undefined, timeoutMs: number): Promise<{ status: number; text: string }> {
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method,
        agent: agents[url.protocol as keyof typeof agents],
        headers: payload === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(payload)) },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
    req.end(payload);
  });
}

async function callOne<T>(url: string, timeoutMs: number, method: string, path: string, body?: unknown): Promise<EngineResponse<T>> {
  const ndjson = typeof body === 'string';
  let res: { status: number; text: string };
  try {
    res = await exchange(
      new URL(`${url}${path}`),
      method,
      body === undefined ? {} : { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
      body === undefined ? undefined : ndjson ? body : JSON.stringify(body),
      timeoutMs,
    );
  } catch (err) {
    throw Object.assign(new EngineUnavailable(`OpenSearch ${method} ${url}${path}: ${(err as Error).message}`), { unreachable: true });
  }
  const { status, text } = res;
  if (status >= 500) throw new EngineUnavailable(`OpenSearch ${method} ${path}: ${status} ${text.slice(0, 300)}`);
  try {
    return { status, body: (text ? JSON.parse(text) : {}) as T };
  } catch {
    throw new EngineUnavailable(`OpenSearch ${method} ${path}: ${status} and a body that is not JSON`);
  }
}

/** A call that must succeed (2xx); anything else throws with the engine's reason. */
export async function ok<T = Record<string, unknown>>(e: Pick<EngineConfig, 'url' | 'timeoutMs'>, method: string, path: string, body?: unknown): Promise<T> {
  const r = await call<T>(e, method, path, body);
  if (r.status >= 300) throw new Error(`OpenSearch ${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
  return r.body;
}
