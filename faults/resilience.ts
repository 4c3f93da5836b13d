// The fault scenarios F11-F15 (issue 22): nothing wedges, nothing lies. Malformed signals sent
// straight to Temporal, PostgreSQL and the Temporal dev server killed with SIGKILL under load (the
// launcher's supervisor restarts them, as under `npm start`), the worker sent SIGTERM and SIGKILL
// under a real `npm start`, and the API killed during creates. After each: nothing lost, no
// duplicate draft or event, every workflow closed or waiting in a correct state, readiness truthful.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BenchStack } from '../bench/lib/stack';
import { DEMO_ARTIST } from '../scripts/stack-hooks';
import { RUN_FILE, tempStackDir, type RunFile } from '../scripts/stack';
import { childEnv, PROJECT_ROOT } from '../lib/config';
import { freePort } from '../lib/net/free-port';
import { checkDecisionShape, checkUploadComplete } from '../lib/intake/decisions';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { decisionUpdates, intakeWorkflowId, uploadCompleteUpdate } from '../workflows/messages';
import { books, waitFinal, waitStatus } from './books';
import { approve, complete, create, createBody, INTAKE, jpeg, put, retrying, send, staged, type Reply } from './client';
import { notPromoted, sleep, withStack, type Scenario } from './harness';
import { stackTemporalClient } from '../temporal/connection';
import { isFirstReview } from '../lib/intake/vocabulary';

const FINAL = new Set(['promoted_to_media_store', 'rejected', 'verification_failed', 'expired']);

/** The submission's status as a partner reads it (503 while a dependency is away is retried). */
async function statusOf(s: BenchStack, id: string): Promise<string> {
  const r = await retrying(() => send(s, 'GET', `${INTAKE}/submissions/${id}`, { headers: s.partner.headers }).catch(() => ({ status: 503 }) as Reply));
  return r.body?.data?.intakeStatus ?? `http ${r.status}`;
}

/**
 * Take a staged submission to promoted as a partner and an operator would while things fail under
 * them: read the status, send what it calls for (a 503 is retried; a 202 `pending` is followed by
 * a read, and the request sent again while the status has not moved). Every answer is tallied.
 */
export async function drive(s: BenchStack, id: string, answers: number[], deadlineMs: number): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  let st = '';
  while (Date.now() < deadline) {
    st = await statusOf(s, id);
    if (FINAL.has(st)) return st;
    const call = st === 'staged' ? () => complete(s, id) : isFirstReview(st) ? () => approve(s, id) : undefined;
    if (call) answers.push((await retrying(() => call().catch(() => ({ status: 503 }) as Reply), 60_000)).status);
    await sleep(300);
  }
  return st;
}

/** Readiness sampled every 250 ms while a scenario runs: what it said, and when. */
function watchReadiness(s: { apiUrl: string }) {
  // Each sample keeps when its request was sent as well as when it was answered: under load a probe
  // can take over a second, and a 200 to a request sent before a kill says nothing about after it.
  const samples: { sent: number; at: number; status: number }[] = [];
  let on = true;
  const loop = (async () => {
    while (on) {
      const sent = Date.now();
      const status = await fetch(`${s.apiUrl}/api/v1/health/ready`, { signal: AbortSignal.timeout(5000) }).then((r) => r.status, () => 0);
      samples.push({ sent, at: Date.now(), status });
      await sleep(250);
    }
  })();
  return {
    samples,
    /** Did readiness answer `status` to a request sent in [from, to]? */
    saw: (status: number, from: number, to = Date.now()) => samples.some((x) => x.status === status && x.sent >= from && x.sent <= to),
    /**
     * Did readiness answer `status` after `at` to a request sent once it had said ready before `at`?
     * A probe in flight when a piece is killed can be the one that meets the outage (its query fails on
     * the dying connection and it answers after the kill); sent after the last ready answer, it cannot
     * be left over from an earlier outage.
     */
    sawAcross: (status: number, at: number) => {
      const lastReady = samples.filter((x) => x.status === 200 && x.at <= at).at(-1)?.at;
      return lastReady !== undefined && samples.some((x) => x.status === status && x.at >= at && x.sent >= lastReady);
    },
    /** When readiness first answered `status` to a request sent at or after `from`. */
    firstAfter: (status: number, from: number) => samples.find((x) => x.status === status && x.sent >= from)?.at,
    stop: async () => {
      on = false;
      await loop;
    },
  };
}

async function waitUntil<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs: number, everyMs = 250): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await Promise.resolve(fn()).catch(() => undefined);
    if (v !== undefined) return v;
    await sleep(everyMs);
  }
  return undefined;
}

const tally = (xs: number[]) => Object.entries(xs.reduce<Record<string, number>>((a, x) => ({ ...a, [x]: (a[x] ?? 0) + 1 }), {})).map(([k, v]) => `${k}x${v}`).join(',');

// --- F11: malformed Updates ---------------------------------------------------------------

/** A seeded generator (mulberry32), so a failing run can be repeated. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BAD_VALUES: unknown[] = [null, 0, -1, true, [], {}, '', 'x'.repeat(9000), [1, 2], { nested: { deep: [null] } }];

/**
 * The shapes of the issue, then payloads made by breaking one or two fields of a valid one with a
 * bad value (or removing it); only those the shape check refuses are kept, each with its own id.
 */
/** A malformed Update sent straight to Temporal: its validator refuses it before history (anything else is a finding). */
async function refusedUpdate(sent: Promise<unknown>): Promise<void> {
  try {
    await sent;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) return;
    throw err;
  }
  throw new Error('a malformed Update was taken');
}

export function malformedPayloads(kind: 'approve' | 'reject' | 'uploadComplete', count: number, seed: number): unknown[] {
  const by = { actorId: 'operator:mallory', credentialId: 'cred_mallory' };
  const proof = { protected: 'eyJhbGciOiJFZERTQSJ9', payload: 'eyJzaWQiOiJ4In0', signature: 'AAAA' };
  const base = (i: number): Record<string, unknown> =>
    kind === 'approve'
      ? { requestId: `f11-${kind}-${i}`, by: { ...by }, reviewNotes: 'approve', proof: { ...proof } }
      : kind === 'reject'
        ? { requestId: `f11-${kind}-${i}`, by: { ...by }, reasonCode: 'duplicate', reviewNotes: 'reject', proof: { ...proof } }
        : { requestId: `f11-${kind}-${i}`, by: { ...by } };
  const check = kind === 'uploadComplete' ? checkUploadComplete : (p: unknown) => checkDecisionShape(kind, p);
  const fixed: unknown[] =
    kind === 'approve'
      ? [{ requestId: `f11-issue-approve`, by: null, reviewNotes: null, proof: { protected: 1, payload: [], signature: {} } }, null, 'approve']
      : kind === 'reject'
        ? [{ requestId: `f11-issue-reject`, by: { actorId: 'operator:mallory' }, reasonCode: 'duplicate', reviewNotes: 'x', proof }]
        : [null, { requestId: 'f11-issue-upload', by: 'partner' }];
  const out = [...fixed];
  const next = rng(seed);
  const paths = Object.keys(base(0)).flatMap((k) => (k === 'by' ? ['by', 'by.actorId', 'by.credentialId'] : k === 'proof' ? ['proof', 'proof.protected', 'proof.signature'] : [k]));
  for (let i = 0; out.length < count && i < count * 20; i++) {
    const p = base(i);
    for (let m = 0; m < 1 + Math.floor(next() * 2); m++) {
      const path = paths[Math.floor(next() * paths.length)]!;
      const [head, tail] = path.split('.') as [string, string | undefined];
      const value = next() < 0.15 ? undefined : BAD_VALUES[Math.floor(next() * BAD_VALUES.length)];
      const target = tail ? (p[head] as Record<string, unknown> | undefined) : p;
      if (!target || typeof target !== 'object') continue;
      const key = tail ?? head;
      if (value === undefined) delete target[key];
      // A copy: a bad value set into one payload is never shared with (and later changed through) another.
      else target[key] = structuredClone(value);
    }
    if (!check(p).ok) out.push(p);
  }
  return out.slice(0, count);
}

const F11: Scenario = {
  id: 'F11',
  fault: 'malformed approve, reject and upload-complete Updates sent straight to Temporal (the issue’s shapes plus generated ones)',
  holds: 'each recorded as refused; no activity runs on them; the real decisions after them apply; duplicates 0; ready throughout',
  run: async (size) => {
    const n = size === 'short' ? 3 : 10;
    const per = size === 'short' ? 12 : 40;
    return withStack(async (s) => {
      const ready = watchReadiness(s);
      const t0 = Date.now();
      const ids = await Promise.all(Array.from({ length: n }, () => staged(s, jpeg(8 * 1024))));
      const uploadIds = ids.slice(0, 1);
      const decideIds = ids.slice(1);
      await Promise.all(decideIds.map((id) => retrying(() => complete(s, id))));
      await waitStatus(s, decideIds, 'awaiting_review');
      const { client, connection } = stackTemporalClient(s);
      const sent: Record<string, number> = {};
      try {
        let seed = 1;
        for (const id of decideIds) {
          const h = client.workflow.getHandle(intakeWorkflowId(id));
          const payloads = [...malformedPayloads('approve', per / 2, seed++).map((p) => [decisionUpdates.approve.name, p] as const), ...malformedPayloads('reject', per / 2, seed++).map((p) => [decisionUpdates.reject.name, p] as const)];
          for (const [name, p] of payloads) await refusedUpdate(h.executeUpdate(name, { args: [p as never] }));
          sent[id] = payloads.length;
        }
        for (const id of uploadIds) {
          const payloads = malformedPayloads('uploadComplete', per / 2, seed++);
          for (const p of payloads) await refusedUpdate(client.workflow.getHandle(intakeWorkflowId(id)).executeUpdate(uploadCompleteUpdate.name, { args: [p as never] }));
          sent[id] = payloads.length;
        }
        // Every one is recorded as refused, with what was wrong.
        const recorded = await waitUntil(async () => {
          const rows = await s.sql<{ submissionId: string; n: number }[]>`
            select submission_id, count(*)::int as n from decision_refusals where submission_id = any(${ids}) and reason = 'signal_malformed' and detail is not null group by submission_id`;
          const by = Object.fromEntries(rows.map((r) => [r.submissionId, r.n]));
          return ids.every((id) => by[id] === sent[id]) ? by : undefined;
        }, 60_000);
        // Nothing ran on them: no activity pending (nor retrying) and the rows did not move.
        let pendingActivities = 0;
        for (const id of ids) pendingActivities += (await client.workflow.getHandle(intakeWorkflowId(id)).describe()).raw.pendingActivities?.length ?? 0;
        const unmoved = (await s.sql<{ n: number }[]>`
          select count(*)::int as n from submissions where submission_id = any(${ids})
            and intake_status = case when submission_id = any(${uploadIds}) then 'staged' else 'awaiting_review' end`)[0]!.n;
        // The partner's and the operator's real requests after them.
        const answers: number[] = [];
        const final = await Promise.all(ids.map((id) => drive(s, id, answers, 120_000)));
        await waitFinal(s, ids);
        await ready.stop();
        const b = await books(s, ids);
        const readyThroughout = !ready.saw(503, t0) && ready.samples.length > 0;
        const pass =
          recorded !== undefined && pendingActivities === 0 && unmoved === n && final.every((x) => x === 'promoted_to_media_store') &&
          b.promoted === n && b.duplicateDrafts + b.duplicateEvents === 0 && b.workflowsOpen === 0 && readyThroughout && !answers.includes(500);
        return {
          measured: {
            submissions: n,
            malformedSent: Object.values(sent).reduce((a, x) => a + x, 0),
            refusedRecorded: recorded ? Object.values(recorded).reduce((a, x) => a + x, 0) : 'missing',
            pendingActivities,
            unmoved,
            promoted: b.promoted,
            duplicates: b.duplicateDrafts + b.duplicateEvents,
            workflowsOpen: b.workflowsOpen,
            readyThroughout: String(readyThroughout),
            answers: tally(answers),
          },
          pass,
        };
      } finally {
        await connection.close();
        await ready.stop();
      }
    });
  },
};

// --- F12 / F13: PostgreSQL and Temporal killed under load -----------------------------------

/** SIGKILL a pid (already gone: nothing to do). */
function kill9(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

function killedUnderLoad(piece: 'postgres' | 'temporal'): Scenario['run'] {
  return async (size) => {
    const n = size === 'short' ? 16 : 60;
    const kills = piece === 'postgres' ? 5 : size === 'short' ? 2 : 4;
    return withStack(
      async (s) => {
        const ready = watchReadiness(s);
        const worker0 = s.workerPid();
        // Load that runs through every outage: a new intake every 300 ms, each created, uploaded and
        // driven to promoted as a partner and an operator would (the same request retried on 503).
        const ids: string[] = [];
        const flows: Promise<string>[] = [];
        const answers: number[] = [];
        let loading = true;
        const loader = (async () => {
          while (loading && ids.length < n) {
            const bytes = jpeg(32 * 1024);
            const body = createBody(s, { sizeBytes: bytes.length });
            const c = await retrying(() => send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body }).catch(() => ({ status: 503 }) as Reply), 60_000);
            answers.push(c.status);
            if (c.status === 201) {
              const id = c.body.data.submission.submissionId as string;
              const up = c.body.data.upload as { url: string; headers: Record<string, string> };
              await retrying(async () => ({ status: await put(up.url, up.headers, bytes).catch(() => 503) }) as Reply, 60_000);
              ids.push(id);
              flows.push(drive(s, id, answers, 240_000));
            }
            await sleep(300);
          }
        })();
        let killed = 0;
        let saw503 = 0;
        const unseen: string[] = [];
        const backMs: number[] = [];
        for (let k = 0; k < kills; k++) {
          await sleep(1500);
          const pid = piece === 'postgres' ? s.postgresPid() : s.temporalPid();
          const at = Date.now();
          if (!kill9(pid)) continue;
          killed++;
          // The supervisor brings it back; readiness must say blocked meanwhile, and ready after.
          const back = await waitUntil(() => (ready.firstAfter(200, at + 500) && (piece === 'postgres' ? s.postgresPid() : s.temporalPid()) !== pid ? true : undefined), 90_000);
          if (back) backMs.push((ready.firstAfter(200, at + 500) ?? Date.now()) - at);
          if (ready.saw(503, at) || ready.sawAcross(503, at)) saw503++;
          // Not seen blocked: keep what readiness answered around this kill, to tell a probe that missed a
          // short outage from a readiness that lied.
          else unseen.push(ready.samples.filter((x) => x.at >= at - 2000).map((x) => `${x.status}@${x.sent - at}..${x.at - at}`).join(' '));
        }
        loading = false;
        await loader;
        const final = await Promise.all(flows);
        await waitFinal(s, ids);
        await ready.stop();
        const b = await books(s, ids);
        const workerSurvived = s.workerPid() === worker0 && (s.restarts().worker ?? 0) === 0;
        const m = ids.length;
        // PostgreSQL: readiness must say blocked in every outage. Temporal: an outage shorter than the
        // probe's deadline can be bridged by the gRPC reconnect (the probe's call waits and succeeds),
        // so at least one of them must be seen.
        const blockedSeen = piece === 'postgres' ? saw503 === kills : saw503 >= 1;
        const pass =
          killed === kills && blockedSeen && backMs.length === kills && m > 0 && final.every((x) => x === 'promoted_to_media_store') && b.promoted === m &&
          b.draftRows === m && b.objects === m && b.duplicateDrafts + b.duplicateEvents + b.orphanObjects === 0 && b.workflowsOpen === 0 && b.workflowsMissing === 0 &&
          !answers.includes(500) && (piece === 'temporal' || workerSurvived) && ready.samples.at(-1)?.status === 200;
        const stuck = await notPromoted(s, b.statuses);
        return {
          measured: {
            intakes: ids.length,
            kills: killed,
            readinessBlockedDuring: saw503,
            backMs: backMs.join('/'),
            ...(unseen.length ? { readinessAroundUnseenKills: unseen.join(' | ') } : {}),
            restarts: JSON.stringify(s.restarts()),
            workerSurvived: String(workerSurvived),
            promoted: b.promoted,
            duplicates: b.duplicateDrafts + b.duplicateEvents,
            orphans: b.orphanObjects,
            workflowsOpen: b.workflowsOpen,
            workflowsLost: b.workflowsMissing,
            answers: tally(answers),
            ...(stuck ? { notPromoted: stuck } : {}),
          },
          pass,
        };
      },
      // Readiness waits 1 s for an answer (3 s by default): a restart that takes longer is seen, where
      // the default deadline can wait out a dev-server restart of under 3 s (F13 failed once so).
      { READY_PROBE_DEADLINE_MS: '1000' },
      { supervise: true },
    );
  };
}

const F12: Scenario = {
  id: 'F12',
  fault: 'PostgreSQL killed with SIGKILL five times under intake and approval load (restarted by the supervisor)',
  holds: 'the worker process survives; all promoted; duplicates 0; ready blocked during each outage, ready after; no 500',
  run: killedUnderLoad('postgres'),
};

const F13: Scenario = {
  id: 'F13',
  fault: 'Temporal dev server killed with SIGKILL and restarted under intake and approval load',
  holds: 'workflows lost 0; all promoted; duplicates 0; ready blocked during an outage, ready after; no 500',
  run: killedUnderLoad('temporal'),
};

// --- F14: the worker stopped and killed under `npm start` --------------------------------------

const F14: Scenario = {
  id: 'F14',
  fault: 'the worker sent SIGTERM, then SIGKILL, under a real `npm start`',
  holds: 'the stack stays up (API, Temporal, PostgreSQL untouched); the worker comes back each time; ready again; an intake after it promotes',
  run: async () => {
    // Ports are picked free, then released for the launcher: another process on this machine may
    // take one in between (the dev server's UI then fails to bind). Such a start is tried again on
    // fresh ports, once; any other failure to start is the scenario's failure.
    const launch = () => {
      const dir = tempStackDir('f14-');
      return { dir, dataDir: path.join(dir, 'data') };
    };
    let dir = '';
    let dataDir = '';
    let port = 0;
    let out = '';
    let launcher!: ReturnType<typeof spawn>;
    let launcherExit!: Promise<number | null>;
    for (let attempt = 1; ; attempt++) {
      ({ dir, dataDir } = launch());
      const [p, pgPort, tPort, uiPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
      port = p;
      out = '';
      launcher = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/start.ts')], {
        cwd: PROJECT_ROOT,
        env: childEnv({ DATA_DIR: dataDir, PORT: String(port), POSTGRES_PORT: String(pgPort), TEMPORAL_PORT: String(tPort), TEMPORAL_UI_PORT: String(uiPort), WORKER_METRICS_PORT: '0', LOG_LEVEL: 'warn', TRANSITION_WAIT_MS: '3000' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      launcher.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
      launcher.stderr!.on('data', (d: Buffer) => void (out += d.toString()));
      const exited = new Promise<number | null>((r) => launcher.once('exit', (code) => r(code)));
      launcherExit = exited;
      const up = await waitUntil(() => (out.includes('Press Ctrl-C') ? true : launcher.exitCode !== null ? false : undefined), 240_000, 500);
      if (up) break;
      const portTaken = /temporal dev server exited|already in use|bind/i.test(out);
      if (launcher.exitCode === null) launcher.kill('SIGKILL');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
      if (attempt >= 2 || !portTaken) throw new Error(`npm start not ready (attempt ${attempt}): ${out.slice(-1500)}`);
    }
    const run = (): RunFile | undefined => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dataDir, RUN_FILE), 'utf8')) as RunFile;
      } catch {
        return undefined;
      }
    };
    const apiUrl = `http://127.0.0.1:${port}`;
    try {
      const ready = watchReadiness({ apiUrl });
      const first = run()!;
      const cycles: string[] = [];
      let back = 0;
      for (const sig of ['SIGTERM', 'SIGKILL'] as const) {
        const before = run()!.pids.worker!;
        const at = Date.now();
        process.kill(before, sig);
        const newPid = await waitUntil(() => {
          const p = run()?.pids.worker;
          return p && p !== before ? p : undefined;
        }, 60_000);
        const readyAgain = newPid ? await waitUntil(async () => ((await fetch(`${apiUrl}/api/v1/health/ready`)).status === 200 ? true : undefined), 60_000) : undefined;
        const blockedAt = ready.firstAfter(503, at);
        if (newPid && readyAgain) back++;
        cycles.push(`${sig}: ${blockedAt ? `blocked after ${blockedAt - at} ms, ` : 'never seen blocked, '}back after ${Date.now() - at} ms`);
      }
      await ready.stop();
      const last = run()!;
      const untouched = (['api', 'temporal', 'postgres'] as const).every((p) => last.pids[p] === first.pids[p]);
      // An intake through the restarted worker, with the demo credentials the banner printed.
      const key = fs.readFileSync(path.join(dataDir, 'secrets', 'demo-partner-key'), 'utf8').trim();
      const token = /Demo operator token \(12 h\):\s+(\S+)/.exec(out)?.[1] ?? '';
      const s = { apiUrl, partner: { headers: { 'x-api-key': key }, organizationId: 'demo-tenant' }, operator: { headers: { authorization: `Bearer ${token}` } } } as unknown as BenchStack;
      const bytes = jpeg(8 * 1024);
      const c = await create(s, { ...createBody(s, { sizeBytes: bytes.length }), artistCanonicalId: DEMO_ARTIST });
      const putStatus = await put(c.upload.url, c.upload.headers, bytes);
      const answers: number[] = [];
      const final = putStatus === 200 ? await drive(s, c.id, answers, 60_000) : `put ${putStatus}`;
      const restartLines = out.split('\n').filter((l) => /\[stack\] worker exited .* restart \d+ in/.test(l)).length;
      const pass = back === 2 && untouched && final === 'promoted_to_media_store' && restartLines === 2 && launcher.exitCode === null;
      return { measured: { cycles: cycles.join('; '), workerRestarts: restartLines, othersUntouched: String(untouched), intakeAfter: final }, pass };
    } finally {
      if (launcher.exitCode === null) launcher.kill('SIGINT');
      await Promise.race([launcherExit, sleep(60_000)]);
      if (launcher.exitCode === null) launcher.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

// --- F15: the API killed during creates -------------------------------------------------------

const F15: Scenario = {
  id: 'F15',
  fault: 'the API killed with SIGKILL while creates are in flight; every client retries its same request',
  holds: 'one submission and one workflow per idempotency key; every retry gets the same submissionId; rows without a workflow 0; no 500',
  run: async (size) => {
    const keys = size === 'short' ? 12 : 40;
    const rounds = size === 'short' ? 3 : 6;
    return withStack(async (s) => {
      const bodies = Array.from({ length: keys }, () => createBody(s, { sizeBytes: 4096 }));
      const statuses: number[] = [];
      const firstIds: (string | undefined)[] = new Array(keys);
      const submit = (i: number) =>
        send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body: bodies[i], timeoutMs: 15_000 }).then(
          (r) => {
            statuses.push(r.status);
            if (r.status === 201) firstIds[i] ??= r.body.data.submission.submissionId;
            return r;
          },
          () => undefined, // the API died under this request
        );
      let cut = 0;
      for (let round = 0; round < rounds; round++) {
        const inFlight = bodies.map((_, i) => submit(i));
        // Early, middle and late in the creates: some are cut before their row, some between the row and the workflow, some after.
        await sleep(80 + (round % 3) * 150);
        await s.killApi();
        cut += (await Promise.all(inFlight)).filter((r) => r === undefined).length;
        await s.startApi();
      }
      // Every client retries its own request until it is answered.
      const retried = await Promise.all(bodies.map((_, i) => retrying(async () => (await submit(i)) ?? ({ status: 503 } as Reply), 60_000)));
      const ids = retried.map((r) => r.body?.data?.submission?.submissionId as string | undefined);
      const same = ids.filter((id, i) => id && (firstIds[i] === undefined || firstIds[i] === id)).length;
      const [rows] = await s.sql<{ n: number }[]>`
        select count(*)::int as n from idempotency_records where actor_id = 'bench-partner' and idempotency_key = any(${bodies.map((b) => b.idempotencyKey)})`;
      const b = await books(s, ids.filter((x): x is string => !!x));
      const pass = same === keys && rows!.n === keys && b.workflowsMissing === 0 && new Set(ids).size === keys && !statuses.includes(500);
      return { measured: { keys, rounds, requestsCut: cut, sameSubmissionId: same, submissions: rows!.n, rowsWithoutWorkflow: b.workflowsMissing, answers: tally(statuses) }, pass };
    });
  },
};

export const RESILIENCE_SCENARIOS: Scenario[] = [F11, F12, F13, F14, F15];
