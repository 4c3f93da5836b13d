// Wait on a condition, bounded in time: the way tests synchronise (never a bare sleep).
/** Poll fn until it returns a truthy value, bounded in time. */
export async function eventually<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 20_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
}
