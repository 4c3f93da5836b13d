// A stack a test starts picks its own ports: the caller's PORT, POSTGRES_PORT, TEMPORAL_PORT,
// TEMPORAL_UI_PORT and WORKER_METRICS_PORT (set for a stack of their own, here pointing at ports
// that are taken) reach none of its processes. The stack is the one the fault suite and the
// replica test start (bench/lib/stack.ts on scripts/stack.ts): API and worker as processes.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBenchStack, type BenchStack } from '../../bench/lib/stack';
import { STACK_PORT_VARIABLES } from '../../lib/config';

const servers: net.Server[] = [];
const taken: number[] = [];
let s: BenchStack | undefined;

function holdPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      servers.push(srv);
      resolve((srv.address() as net.AddressInfo).port);
    });
  });
}

describe("a test's stack beside the caller's port variables", () => {
  beforeAll(async () => {
    for (const name of STACK_PORT_VARIABLES) {
      const port = await holdPort();
      taken.push(port);
      vi.stubEnv(name, String(port));
    }
  });
  afterAll(async () => {
    await s?.stop();
    vi.unstubAllEnvs();
    await Promise.all(servers.map((srv) => new Promise((r) => srv.close(r))));
  });

  it('starts, ready, on ports of its own, and its worker keeps running', async () => {
    expect(STACK_PORT_VARIABLES).toEqual(['PORT', 'POSTGRES_PORT', 'TEMPORAL_PORT', 'TEMPORAL_UI_PORT', 'WORKER_METRICS_PORT']);
    s = await startBenchStack();
    const ports = [new URL(s.apiUrl).port, new URL(`http://${s.temporalAddress}`).port, new URL(s.databaseUrl).port].map(Number);
    for (const p of ports) expect(taken).not.toContain(p);
    const worker = s.workerPid();
    expect(worker).toBeGreaterThan(0);
    // A worker that took the caller's taken WORKER_METRICS_PORT would exit at start (code 70).
    await new Promise((r) => setTimeout(r, 2000));
    expect(s.workerPid()).toBe(worker);
    expect((await fetch(`${s.apiUrl}/api/v1/health/ready`)).status).toBe(200);
  }, 180_000);
});
