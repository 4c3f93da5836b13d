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

/** CPU milliseconds (user + system, every thread) so far of every live process, by group. */
export function cpuByGroup(): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    if (!ms) continue;
    const g = groupOf(pid, process.pid);
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
