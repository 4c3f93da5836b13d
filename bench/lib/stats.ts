// Shared bench plumbing: percentiles and a bounded concurrent load loop.

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  return { n: s.length, p50: round(percentile(s, 50)), p95: round(percentile(s, 95)), p99: round(percentile(s, 99)), mean: round(mean) };
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Run fn(i) for i = 0..count-1 with `concurrency` in flight, stopping early at the deadline.
 * Returns each call's duration in ms (only calls that finished).
 */
export async function boundedLoad(fn: (i: number) => Promise<void>, o: { count: number; concurrency: number; maxMs: number }): Promise<number[]> {
  const times: number[] = [];
  const deadline = performance.now() + o.maxMs;
  let next = 0;
  const lane = async () => {
    while (next < o.count && performance.now() < deadline) {
      const i = next++;
      const t = performance.now();
      await fn(i);
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, lane));
  return times;
}
