// bench/lib/process-cpu.ts: where a bench's CPU went. A child of the bench counts in its group; a
// process the bench did not start (here: PID 1's own time) never does; threads are read by name.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuByGroup, cpuSpent, threadCpuMs } from '../../bench/lib/process-cpu';

describe('bench CPU accounting', () => {
  it("counts a child's busy loop under the bench and the rest of the machine apart", async () => {
    const before = cpuByGroup({ under: process.pid });
    // The child spends 300 ms of its own CPU (however loaded the machine), says so and waits: it is
    // read while it lives, since a process that exits between readings is not counted.
    const busy = 'const t = process.cpuUsage(); let c; do c = process.cpuUsage(t); while (c.user + c.system < 300e3); console.log("spent"); setInterval(() => {}, 1000);';
    const child = spawn(process.execPath, ['-e', busy], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((r) => child.stdout!.once('data', r));
    const after = cpuByGroup({ under: process.pid });
    child.kill();
    await new Promise((r) => child.once('exit', r));
    const spent = cpuSpent(before, after);
    expect(spent.get('other') ?? 0).toBeGreaterThanOrEqual(100);
    // everything not descending from this process is one group, whatever it is
    const all = cpuByGroup();
    const outside = after.get('outside this bench') ?? 0;
    expect(outside).toBeGreaterThan(0);
    expect([...all.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(outside);
  });

  it("reads this process's threads by name, numbered ones together", () => {
    const threads = threadCpuMs(process.pid);
    expect([...threads.keys()].some((n) => /\d$/.test(n))).toBe(false);
    expect([...threads.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
