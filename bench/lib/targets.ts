// The targets, as written ('>= 0.8', '<= 3.0', '= 1.0', 'report; <= 2'), checked against a
// measured ratio: the summary says met or missed, never rewrites a target.
export type Verdict = 'met' | 'missed' | 'not measured' | 'reported';

export function verdict(value: number | undefined, target: string): Verdict {
  if (value === undefined || !Number.isFinite(value)) return 'not measured';
  if (target === 'none yet') return 'reported';
  const m = /(>=|<=|=)\s*([0-9.]+)\s*$/.exec(target);
  if (!m) throw new Error(`unreadable target: ${target}`);
  const bound = Number(m[2]);
  if (m[1] === '>=') return value >= bound ? 'met' : 'missed';
  if (m[1] === '<=') return value <= bound ? 'met' : 'missed';
  return Math.abs(value - bound) < 1e-9 ? 'met' : 'missed';
}
