// Where the CPU goes: summarise a V8 .cpuprofile (node --cpu-prof) by self time, grouped by where
// the code lives (a dependency, node's own modules, our code) and by function, idle time left out.
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export type CpuShare = {
  where: string;
  ms: number;
  pct: number;
};

/** The package or area a frame belongs to: `express`, `pino-http`, `node:http`, `ours: api/...`. */
export function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url.replace(/^node:internal\//, 'node:').split('/').slice(0, 2).join('/');
  const m = /\/(api|lib|worker|temporal|bench)\/(.*)$/.exec(url);
  return m ? `ours: ${m[1]}/${m[2]}` : url;
}

export function summarizeCpuProfile(file: string, top = 12): { totalMs: number; idleMs: number; areas: CpuShare[]; functions: CpuShare[] } {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  let idleMs = 0;
  let totalMs = 0;
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    totalMs += ms;
    if (n.callFrame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const area = areaOf(n.callFrame.url, n.callFrame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${area}:${n.callFrame.lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + ms);
  }
  const busy = totalMs - idleMs;
  const rank = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([where, ms]) => ({ where, ms: Math.round(ms), pct: Math.round((ms / busy) * 1000) / 10 }));
  return { totalMs: Math.round(totalMs), idleMs: Math.round(idleMs), areas: rank(areas), functions: rank(fns) };
}
