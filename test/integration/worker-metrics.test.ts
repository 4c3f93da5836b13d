// The worker's /metrics (issue 17), from the real worker process (worker/main.ts): the Temporal
// SDK's runtime metrics from its Prometheus exporter (activity latency by type, sticky cache,
// task slots) and the process's own figures, behind the metrics token.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { childEnv, PROJECT_ROOT } from '../../lib/config';
import { freePort } from '../../lib/net/free-port';
import { apiKeyActor } from '../helpers/auth';
import { stageAndVerify } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

const TOKEN = 'worker-metrics-token-0123456789';
let stack: TestStack;
let worker: ChildProcess;
let url: string;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  const port = await freePort();
  url = `http://127.0.0.1:${port}/metrics`;
  worker = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'worker/main.ts')], {
    cwd: PROJECT_ROOT,
    env: childEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: stack.dataDir,
      DATABASE_URL: stack.cfg.DATABASE_URL!,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
      WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
      WORKER_METRICS_PORT: String(port),
      METRICS_TOKEN: TOKEN,
    }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await eventually(async () => (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).ok, 30_000, 200);
}, 60_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const gone = new Promise((r) => worker.once('exit', r));
    worker.kill('SIGTERM');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 15_000))]);
    if (worker.exitCode === null) worker.kill('SIGKILL');
  }
  await stack?.stop();
});

describe('worker /metrics', () => {
  it('answers 401 without the token and 404 elsewhere', async () => {
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url.replace('/metrics', '/other'), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('carries the SDK runtime metrics (activity latency by type after an intake, sticky cache, slots) and the process figures, in parseable text', async () => {
    const partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    const { done } = await stageAndVerify(stack, partner);
    expect(done.body.data.intakeStatus).toBe('awaiting_review'); // verified by the spawned worker
    const text = await eventually(async () => {
      const t = await (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      // (verification is a local activity of the workflow task that took the upload-complete)
      return /^temporal_local_activity_execution_latency_count\{[^}]*activity_type="verifyStagedMedia"/m.test(t) && t;
    }, 15_000, 250);
    const families = new Map((parsePrometheusTextFormat(text) as { name: string; type: string }[]).map((f) => [f.name, f]));
    expect(families.get('temporal_local_activity_execution_latency')?.type).toBe('HISTOGRAM');
    expect(text).toMatch(/^temporal_local_activity_execution_latency_count\{[^}]*activity_type="verifyStagedMedia"[^}]*\} [1-9]/m);
    expect(families.has('temporal_sticky_cache_size')).toBe(true);
    expect(families.has('temporal_worker_task_slots_available')).toBe(true);
    expect(families.has('process_cpu_user_seconds_total')).toBe(true);
    // The transitions this worker wrote, counted where written (the API counts its own: staged).
    expect(text).toMatch(/^intake_transitions_total\{status="awaiting_review"\} [1-9]/m);
    expect(text).not.toMatch(/^intake_transitions_total\{status="staged"\}/m);
    // Every activation timed by the watchdog (worker/workflow-watchdog.ts): it still sees the SDK's activations.
    expect(text).toMatch(/^intake_worker_activation_seconds_count [1-9]/m);
    expect(text).toMatch(/^intake_worker_oldest_activation_seconds \d/m);
    expect(text).toMatch(/^intake_worker_stalled 0$/m);
  });
});
