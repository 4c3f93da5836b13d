// Replay guard: histories of completed workflows (recorded by `npm run record:histories` on the real
// embedded stack) must replay against the current workflow code, exactly as a worker picking up a
// running workflow after a deploy would. A change that alters the sequence of commands (activities,
// timers, search attribute updates) for an existing history fails here, not in production.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { temporalDataConverter } from '../../temporal/connection';

const DIR = path.join(PROJECT_ROOT, 'test', 'fixtures', 'histories');
const EventType = temporal.api.enums.v1.EventType;

interface FixtureEntry {
  scenario: string;
  /** The version of the workflow code that recorded it; every shape that may still be open must replay. */
  shape: string;
  file: string;
  workflowType: 'portfolioIntake' | 'artistResolution' | 'webhookEndpoint';
  workflowId: string;
  expectResult: Record<string, unknown>;
}
const manifest = JSON.parse(fs.readFileSync(path.join(DIR, 'index.json'), 'utf8')) as { fixtures: FixtureEntry[] };
const fixtures = manifest.fixtures.map((f) => {
  const text = fs.readFileSync(path.join(DIR, f.file), 'utf8');
  return { ...f, text, history: historyFromJSON(JSON.parse(text)) };
});
const shapes = [...new Set(fixtures.map((f) => f.shape))];
const byScenario = (s: string, shape: string) => {
  const f = fixtures.find((x) => x.scenario === s && x.shape === shape && x.workflowType === 'portfolioIntake');
  if (!f) throw new Error(`no portfolioIntake fixture for ${s} (${shape})`);
  return f;
};

// Core reports each expected determinism violation as a WARN line; the guard tests assert them.
Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [], telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } } });
const logger = new DefaultLogger('WARN');
// What a worker converts payloads with (the payload codec): the recorded histories predate it, and
// their unencrypted payloads pass through it.
const dataConverter = temporalDataConverter({ TEMPORAL_PAYLOAD_KEYS: `replay:${crypto.randomBytes(32).toString('base64')}`, DATA_DIR: inject('tmpRoot') });
// The real workflow code: global setup bundles worker/create-worker.ts WORKFLOWS_PATH once per run.
const current = (): ReplayWorkerOptions => ({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter });

describe('recorded workflow histories (test/fixtures/histories)', () => {
  it.each(shapes)('cover every way an intake ends, plus an artist resolution, for the %s shape', (shape) => {
    const ofShape = fixtures.filter((f) => f.shape === shape);
    const intake = ofShape.filter((f) => f.workflowType === 'portfolioIntake').map((f) => f.expectResult.intakeStatus);
    expect(new Set(intake)).toEqual(new Set(['promoted_to_media_store', 'verification_failed', 'rejected', 'expired']));
    expect(ofShape.some((f) => f.workflowType === 'artistResolution')).toBe(true);
  });

  it('hold one shape per build whose runs may still be open: the Updates-era shapes, the one-generation shape and the current promote-in-one-task shape (with a classified submission and a second review)', () => {
    expect([...shapes].sort()).toEqual(['compat-retired', 'decision-updates', 'one-generation', 'promote-in-one-task', 'signed-classifications']);
    for (const scenario of ['classified', 'second-review']) expect(fixtures.some((f) => f.shape === 'promote-in-one-task' && f.scenario === scenario)).toBe(true);
  });

  it('hold no shape that takes the removed branches (recordRejection, activity inputs without transitions or a signed decision)', () => {
    for (const f of fixtures.filter((x) => x.workflowType === 'portfolioIntake')) {
      const scheduled = (f.history.events ?? []).map((e) => e.activityTaskScheduledEventAttributes).filter((x) => x !== null && x !== undefined);
      expect(scheduled.map((x) => x.activityType?.name), f.file).not.toContain('recordRejection');
      for (const x of scheduled) {
        const input = defaultPayloadConverter.fromPayload(x.input!.payloads![0]!) as Record<string, unknown>;
        const name = x.activityType?.name;
        if (name === 'verifyStagedMedia') expect(input.enter && input.outcomes, `${f.file} ${name}`).toBeTruthy();
        // A promotion's entering transition is the signed decision's own (shapes recorded before it also carried `enter`).
        if (name === 'promoteToMediaStore') expect(input.outcomes && (input.decision as { transition?: unknown } | undefined)?.transition, `${f.file} ${name}`).toBeTruthy();
        if (name === 'expireSubmission') expect(input.transition, f.file).toBeTruthy();
      }
    }
  });

  it.each(fixtures.map((f) => [f.file, f] as const))('%s is a completed %s run whose result is what the manifest says', (_file, f) => {
    const events = f.history.events ?? [];
    const first = events[0]!;
    const last = events[events.length - 1]!;
    expect(first.eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED);
    expect(first.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe(f.workflowType);
    expect(last.eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED);
    const payload = last.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0];
    expect(payload).toBeDefined();
    const result = defaultPayloadConverter.fromPayload(payload!);
    // An endpoint's delivery workflow returns nothing; the others return their outcome.
    if (f.workflowType === 'webhookEndpoint') expect(result).toBeUndefined();
    else expect(result).toMatchObject(f.expectResult);
  });

  it('hold an endpoint delivery run (webhookEndpoint) that delivered and ended with its endpoint', () => {
    const f = fixtures.find((x) => x.workflowType === 'webhookEndpoint');
    expect(f).toBeDefined();
    const scheduled = (f!.history.events ?? []).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(scheduled).toEqual(['deliverEndpoint']);
  });

  it('hold no credentials, tokens or host identities, in the JSON or inside its payloads', () => {
    for (const f of fixtures) {
      const decoded: string[] = [];
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) return v.forEach(walk);
        if (v && typeof v === 'object') {
          for (const [k, x] of Object.entries(v)) {
            if (k === 'data' && typeof x === 'string') decoded.push(Buffer.from(x, 'base64').toString('utf8'));
            else walk(x);
          }
        }
      };
      walk(JSON.parse(f.text));
      const all = [f.text, ...decoded].join('\n');
      expect(all, f.file).not.toMatch(/\b[a-z]{2,8}_[A-Za-z0-9]{12,32}_[A-Za-z0-9_-]{32,128}\b/); // API key shape
      expect(all, f.file).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/); // JWT
      expect(all, f.file).not.toMatch(/bearer |x-api-key|authorization|PRIVATE KEY|intake-worker-/i);
    }
  });
});

describe('replay against the current workflow code', () => {
  it('replays every recorded history without a determinism violation', async () => {
    const results: { workflowId: string; error?: Error }[] = [];
    for await (const r of Worker.runReplayHistories(
      current(),
      fixtures.map((f) => ({ workflowId: f.workflowId, history: f.history })),
    )) {
      results.push(r);
    }
    expect(results.map((r) => r.workflowId).sort()).toEqual(fixtures.map((f) => f.workflowId).sort());
    expect(results.filter((r) => r.error).map((r) => `${r.workflowId}: ${r.error!.message}`)).toEqual([]);
  });
});

describe('the guard itself: a workflow changed in a replay-unsafe way', () => {
  let altered: ReplayWorkerOptions;
  beforeAll(async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath: path.join(PROJECT_ROOT, 'test', 'replay', 'altered-intake-workflow.ts'), logger });
    altered = { workflowBundle: { code }, dataConverter };
  });

  const cases = shapes.flatMap((shape) => ['promoted', 'rejected', 'verification-failed'].map((scenario) => [scenario, shape] as const));
  it.each(cases)('fails the %s history (%s shape) with a DeterminismViolationError', async (scenario, shape) => {
    const f = byScenario(scenario, shape);
    await expect(Worker.runReplayHistory(altered, f.history, f.workflowId)).rejects.toBeInstanceOf(DeterminismViolationError);
  });

  it.each(shapes)('still replays the expired history (%s shape), which never reaches the changed step (the guard is specific)', async (shape) => {
    const f = byScenario('expired', shape);
    await expect(Worker.runReplayHistory(altered, f.history, f.workflowId)).resolves.toBeUndefined();
  });
});
