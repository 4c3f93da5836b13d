// The bare baseline of the Temporal benches (R5-R7, W1): a workflow of the intake's shape with
// trivial activities (bench/bare/), run by an in-process worker with the same concurrency options
// as worker/create-worker.ts's defaults, on the stack's own dev server.
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { PROJECT_ROOT } from '../../lib/config';
import { sdkTlsOf, type TemporalClientTls } from '../../temporal/cluster-tls';
import * as bareActivities from '../bare/activities';
import { firstSignal, secondSignal, stageQuery } from '../bare/workflows';

export const BARE_POLL_MS = 50;

export interface Bare {
  client: Client;
  taskQueue: string;
  /** One bare workflow; `signalToActivityMs` from the first signal to its activity done (seen by query). */
  run(id: string): Promise<{ startMs: number; signalToActivityMs: number; signalToResultMs: number }>;
  stop(): Promise<void>;
}

/** On the stack's Temporal: its address, and with the real server's mTLS the on-call client certificate. */
export async function startBare(stack: { temporalAddress: string; temporalTls?: TemporalClientTls | undefined }, taskQueue = 'bare-bench'): Promise<Bare> {
  const at = { address: stack.temporalAddress, ...(stack.temporalTls ? { tls: sdkTlsOf(stack.temporalTls) } : {}) };
  const connection = await Connection.connect(at);
  const client = new Client({ connection });
  const nativeConnection = await NativeConnection.connect(at);
  const worker = await Worker.create({
    connection: nativeConnection,
    taskQueue,
    workflowsPath: path.join(PROJECT_ROOT, 'bench', 'bare', 'workflows.ts'),
    activities: bareActivities,
    maxConcurrentActivityTaskExecutions: 50,
    maxConcurrentWorkflowTaskExecutions: 50,
  });
  const running = worker.run();
  return {
    client,
    taskQueue,
    async run(id) {
      const t0 = performance.now();
      const h = await client.workflow.start('bareIntake', { taskQueue, workflowId: id });
      const t = performance.now();
      await h.signal(firstSignal);
      while ((await h.query(stageQuery)) < 1) await new Promise((r) => setTimeout(r, BARE_POLL_MS));
      const signalToActivityMs = performance.now() - t;
      const t2 = performance.now();
      await h.signal(secondSignal);
      await h.result();
      return { startMs: t - t0, signalToActivityMs, signalToResultMs: performance.now() - t2 };
    },
    async stop() {
      worker.shutdown();
      await running;
      await nativeConnection.close();
      await connection.close();
    },
  };
}
