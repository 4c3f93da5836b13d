// A browser page's client: openapi-fetch typed by the page's generated api-types.ts, on the page's
// own origin with the session cookie, sending the page's CSRF header on every write once signed in.
import createClient from 'openapi-fetch';

/** The client of a page signed in by a session cookie, and the setter of its CSRF token. */
export function sessionClient<Paths extends object>(baseUrl: string, csrfHeader: string) {
  let csrf = '';
  const client = createClient<Paths>({ baseUrl, credentials: 'same-origin' });
  client.use({
    onRequest({ request }) {
      if (request.method !== 'GET' && request.method !== 'HEAD' && csrf) request.headers.set(csrfHeader, csrf);
      return request;
    },
  });
  return { client, setCsrf: (token: string) => void (csrf = token) };
}

/** An answer that failed: its status, its problem's code, and the problem in the page's words. */
export type Failure = Error & { status: number; code?: string };

/** `must(call)`: the data of an answer, or a Failure saying its problem as `say` words it. */
export function mustWith<P extends { code?: string }>(say: (problem: P | undefined, status: number) => string) {
  return async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const r = await call;
    if (r.error !== undefined || !r.response.ok) {
      const problem = r.error as P | undefined;
      const err = new Error(say(problem, r.response.status)) as Failure;
      err.status = r.response.status;
      err.code = problem?.code;
      throw err;
    }
    return r.data as T;
  };
}
