// CPU time of the machine's processes, grouped by what they are (Linux /proc): where a bench's time
// went, e.g. which process a slow webhook receiver made work harder. Every live process is read, so
// the figures also show load from outside the stack ("other").
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on Linux x86-64 (getconf CLK_TCK)

/** The group a process belongs to, from its command line and (for our workers) its WORKER_ROLE. */
function groupOf(pid: number, self: number): string {
  if (pid === self) return 'bench client';
  let cmd = '';
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return 'other';
  }
  if (/\bpostgres\b|\/postgres /.test(cmd) || cmd.startsWith('postgres:')) return 'postgresql';
  if (/temporal\b.*server start-dev/.test(cmd)) return 'temporal server';
  if (/temporal-server\b/.test(cmd) && !/ui-server\b/.test(cmd)) return 'temporal server'; // the real server's binary
  if (cmd.includes('api/main')) return 'api';
  if (cmd.includes('worker/main')) {
    let role = 'all';
    try {
      role = /(?:^|\0)WORKER_ROLE=([a-z]+)/.exec(fs.readFileSync(`/proc/${pid}/environ`, 'utf8'))?.[1] ?? 'all';
    } catch {
      /* gone, or not ours to read */
    }
    return role === 'all' ? 'worker' : `worker (${role})`;
  }
  if (cmd.includes('haproxy')) return 'haproxy';
  return 'other';
}

/** The fields of /proc/PID/stat after the command name (which may hold spaces): [0] is field 3 (state). */
function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU milliseconds (user + system, every thread) of one process so far (throws when it is gone);
 * with `reaped`, also those of its children that exited and were waited for (cutime, cstime).
 */
export function processCpuMs(pid: number, o: { reaped?: boolean } = {}): number {
  const f = statFields(pid); // utime 14, stime 15, cutime 16, cstime 17
  const ticks = Number(f[11]) + Number(f[12]) + (o.reaped ? Number(f[13]) + Number(f[14]) : 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU milliseconds of a server and its workers (PostgreSQL's postmaster and its backends): the
 * parent with its reaped children, and its live children. A child that exits between two readings
 * moves from the second term to the first, so the sum only grows.
 */
export function serverCpuMs(parent: number): number {
  let ms = processCpuMs(parent, { reaped: true });
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const f = statFields(Number(entry));
      if (Number(f[1]) === parent) ms += ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND;
    } catch {
      /* exited meanwhile: counted in the parent's reaped children */
    }
  }
  return ms;
}

/**
 * CPU milliseconds (user + system, every thread) so far of every live process, by group. With
 * `under`, a process that does not descend from that one (another stack, or a bench of its own on
 * the same machine) counts as 'outside this bench', whatever it is.
 */
export function cpuByGroup(o: { under?: number } = {}): Map<string, number> {
  const out = new Map<string, number>();
  const parents = new Map<number, number>();
  const own = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      const f = statFields(pid);
      parents.set(pid, Number(f[1]));
      own.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      continue;
    }
  }
  const descends = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parents.get(p), hops++) if (p === o.under) return true;
    return false;
  };
  for (const [pid, ms] of own) {
    if (!ms) continue;
    const g = o.under === undefined || descends(pid) ? groupOf(pid, process.pid) : 'outside this bench';
    out.set(g, (out.get(g) ?? 0) + ms);
  }
  return out;
}

/** What each group spent between two readings (processes that exited in between are not counted). */
export function cpuSpent(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [g, ms] of after) out.set(g, Math.max(0, ms - (before.get(g) ?? 0)));
  return out;
}

/**
 * CPU milliseconds so far of each thread of one process, by thread name (numbered names such as
 * `libuv-worker3` counted together): in a worker, the main thread runs the activities, the
 * `WorkerThread` the workflow sandbox, `tokio-runtime-w` the SDK's core, `V8Worker` the collector.
 */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return out;
}
