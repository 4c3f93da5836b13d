// Issue 23 item 6: Worker Deployment Versions. Submissions wait for review on version A; the
// deployment rolls to version B (both workers still running, as in a real rollout); the waiting
// submissions then finish as declared (AUTO_UPGRADE, worker/versioning.ts: their next task runs on B), new
// submissions start on B, and no workflow task fails (no nondeterminism) anywhere.
import type { Client, Connection, WorkflowHandle } from '@temporalio/client';
import { createTemporalClient } from '../../temporal/connection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intakeWorkflowId } from '../../workflows/messages';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { eventually, startTestStack, uid, type TestStack } from '../helpers/stack';
import type { RunningWorker } from '../../worker/start-worker';

const NAMESPACE = 'default';

describe('worker versioning: a rollout from build A to build B while submissions wait for review', () => {
  let stack: TestStack;
  let partner: TestCredential;
  let operator: TestCredential;
  let connection: Connection;
  let client: Client;
  const workers: RunningWorker[] = [];
  const deploymentName = uid('intake-');

  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
    // The project's client (with the payload codec), as the API's and the worker's.
    ({ client, connection } = createTemporalClient({ ...stack.cfg, TEMPORAL_NAMESPACE: NAMESPACE }, 'api'));
  });
  afterAll(async () => {
    for (const w of workers) await w.stop().catch(() => {});
    await connection?.close();
    await stack?.stop();
  });

  /** A worker of this deployment at `buildId`, on the stack's queues. */
  const startVersion = async (buildId: string) => {
    const w = await stack.startWorkerWith({ WORKER_DEPLOYMENT_NAME: deploymentName, WORKER_BUILD_ID: buildId });
    workers.push(w);
    return w;
  };
  /** What an operator runs: `temporal worker deployment set-current-version` (retried until the version has polled). */
  const setCurrent = (buildId: string) =>
    eventually(async () => {
      await client.workflowService.setWorkerDeploymentCurrentVersion({ namespace: NAMESPACE, deploymentName, buildId, identity: 'versioning-test' });
      const d = await client.workflowService.describeWorkerDeployment({ namespace: NAMESPACE, deploymentName });
      expect(d.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId).toBe(buildId);
      return true;
    }, 30_000);

  const handleOf = (id: string): WorkflowHandle => client.workflow.getHandle(intakeWorkflowId(id));
  /** The build id of every completed workflow task, in order, and the number of failed ones. */
  const tasksOf = async (id: string) => {
    const history = await handleOf(id).fetchHistory();
    const builds = (history.events ?? []).filter((e) => e.workflowTaskCompletedEventAttributes).map((e) => e.workflowTaskCompletedEventAttributes!.deploymentVersion?.buildId ?? '');
    const failed = (history.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes).length;
    return { builds, failed };
  };
  const versioningOf = async (id: string) => {
    const info = (await handleOf(id).describe()).raw.workflowExecutionInfo?.versioningInfo;
    return { behavior: info?.behavior, buildId: info?.deploymentVersion?.buildId };
  };
  /**
   * A signal route's answer, then the state it leads to. A 503 (not applied, Retry-After) is retried as
   * a client would: right after a version starts or becomes current the API's worker check may not see
   * its pollers yet (one such 503 failed a CI run). A 202 (still working after the route's wait, on a
   * loaded machine) is followed by status reads. Any other answer fails here, with its body.
   */
  type Answer = Awaited<ReturnType<typeof call>>;
  const settles = async (id: string, first: Answer, send: () => Promise<Answer>, target: string) => {
    let r = first;
    for (let i = 0; i < 30 && r.status === 503; i++) {
      await new Promise((res) => setTimeout(res, 1000));
      r = await send();
    }
    expect([200, 202], `${r.status} ${JSON.stringify(r.body)}`).toContain(r.status);
    if (r.status === 200) expect(r.body.data.intakeStatus).toBe(target);
    else await eventually(async () => (await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: partner.headers })).body?.data?.intakeStatus === target, 30_000);
  };
  /** Staged, uploaded, upload-complete: awaiting review. */
  const verified = async () => {
    const { id, done } = await stageAndVerify(stack, partner);
    await settles(id, done, () => call(stack, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, { headers: partner.headers }), 'awaiting_review');
    return id;
  };
  const approve = (id: string) => call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Approved across the rollout.' } });

  it('waiting submissions move to B at their next task (AUTO_UPGRADE), new ones start on B, and no task fails', async () => {
    await startVersion('build-a');
    await setCurrent('build-a');

    // Three submissions verified and waiting for review, all on A.
    const waiting: string[] = [];
    for (let i = 0; i < 3; i++) {
      waiting.push(await verified());
    }
    for (const id of waiting) {
      const v = await versioningOf(id);
      expect(v.buildId).toBe('build-a');
      // VERSIONING_BEHAVIOR_AUTO_UPGRADE = 2 (temporal.api.enums.v1.VersioningBehavior), as worker/versioning.ts declares for every workflow.
      expect(v.behavior).toBe(2);
      expect((await tasksOf(id)).builds.every((b) => b === 'build-a')).toBe(true);
    }

    // The rollout: B starts beside A, then B becomes current. A keeps running throughout.
    await startVersion('build-b');
    await setCurrent('build-b');

    // New submissions start on B.
    const fresh = { id: await verified() };
    expect((await versioningOf(fresh.id)).buildId).toBe('build-b');
    expect((await tasksOf(fresh.id)).builds.every((b) => b === 'build-b')).toBe(true);

    // The waiting ones are decided now: their next tasks run on B, and they complete.
    for (const id of [...waiting, fresh.id]) await settles(id, await approve(id), () => approve(id), 'promoted_to_media_store');
    for (const id of waiting) {
      await eventually(async () => (await handleOf(id).describe()).status.name === 'COMPLETED', 30_000);
      const { builds, failed } = await tasksOf(id);
      expect(failed).toBe(0);
      // Started on A, finished on B: the tasks before the rollout on A, every one after it on B.
      expect(builds[0]).toBe('build-a');
      expect(builds.at(-1)).toBe('build-b');
      const firstB = builds.indexOf('build-b');
      expect(builds.slice(firstB).every((b) => b === 'build-b')).toBe(true);
      expect((await versioningOf(id)).buildId).toBe('build-b');
    }
    expect((await tasksOf(fresh.id)).failed).toBe(0);
  });
});
