// The fault scenarios F1-F8 (issue 7), F9 (issue 17), F10 (issue 15, faults/webhook-scenario.ts), F11-F15 (issue 22, faults/resilience.ts), F19 (issue 43, faults/door.ts), F20 (issue 45, faults/search-scenario.ts) and F21 (issue 55, faults/storm.ts). Each starts its own stack, injects its fault by killing or
// stopping real processes by pid, and checks the books afterwards. `short` is the CI size.
import { BENCH_ARTISTS, type BenchStack } from '../bench/lib/stack';
import { books, waitFinal, waitStatus } from './books';
import { doorFlood } from './door';
import { F10 } from './webhook-scenario';
import { F20 } from './search-scenario';
import { signalStorm } from './storm';
import { RESILIENCE_SCENARIOS } from './resilience';
import { notPromoted, sleep, withStack, type Row, type Scenario, type Size } from './harness';
import { jpegMagicThenRandom, pngDeclaring } from '../bench/lib/images';
import { approve, complete, create, createBody, INTAKE, jpeg, put, retrying, send, staged } from './client';
import { approveAsDocumented, completeAndApprove } from './intake-flow';
import { upsertMapping } from '../lib/identity/actors';
import { createApiKey } from '../lib/identity/api-keys';

export { sleep, withStack, type Row, type Scenario, type Size } from './harness';

/** F3's API: how long its shared worker check's "a worker is there" stands (api/temporal/workflow-calls.ts). */
const WORKER_CHECK_REUSE_MS = 1000;

const F1: Scenario = {
  id: 'F1',
  fault: 'worker SIGKILLed during verification and promotion',
  holds: 'all promoted; duplicate objects, drafts, events 0',
  run: async (size) => {
    const n = size === 'short' ? 10 : 50;
    const kills = size === 'short' ? 1 : 3;
    return withStack(async (s) => {
      const ids = await Promise.all(Array.from({ length: n }, () => staged(s, jpeg(64 * 1024))));
      const flows = Promise.all(ids.map((id) => completeAndApprove(s, id)));
      let lastRestart = 0;
      for (let k = 0; k < kills; k++) {
        await sleep(400 + k * 300);
        await s.killWorker();
        await sleep(500);
        await s.startWorker();
        lastRestart = performance.now();
      }
      await flows;
      await waitFinal(s, ids);
      const recoveryMs = Math.round(performance.now() - lastRestart);
      const b = await books(s, ids);
      const pass = b.promoted === n && b.draftRows === n && b.objects === n && b.duplicateDrafts + b.duplicateEvents + b.orphanObjects === 0 && b.workflowsOpen === 0;
      const others = await notPromoted(s, b.statuses);
      return { measured: { intakes: n, kills, promoted: b.promoted, objects: b.objects, drafts: b.draftRows, duplicates: b.duplicateDrafts + b.duplicateEvents, orphans: b.orphanObjects, workflowsOpen: b.workflowsOpen, recoveryMs, ...(others ? { notPromoted: others } : {}) }, pass };
    });
  },
};

const F2: Scenario = {
  id: 'F2',
  fault: 'crash between object copy and draft row insert',
  holds: 'promoted = rows = objects = N; orphans 0',
  run: async (size) => {
    const n = size === 'short' ? 2 : 10;
    return withStack(async (s) => {
      await s.stopWorker();
      await s.startWorker({ FAULT_KILL_AFTER_MEDIA_COPY: 'true' });
      const ids = await Promise.all(Array.from({ length: n }, () => staged(s, jpeg(16 * 1024))));
      let crashes = 0;
      let done = false;
      // Restart the worker each time the hook kills it, bounded in count.
      const keeper = (async () => {
        while (!done && crashes < n * 3) {
          await s.workerExited();
          if (done) break;
          crashes++;
          await s.startWorker({ FAULT_KILL_AFTER_MEDIA_COPY: 'true' });
        }
      })();
      await Promise.all(ids.map((id) => completeAndApprove(s, id)));
      // Each crash costs one activity timeout (30 s) before the retry: crashes come one after another.
      await waitFinal(s, ids, n * 45_000 + 60_000);
      done = true;
      await s.stopWorker();
      await keeper;
      const b = await books(s, ids);
      const pass = crashes >= 1 && b.promoted === n && b.draftRows === n && b.objects === n && b.orphanObjects === 0 && b.duplicateDrafts === 0;
      return { measured: { intakes: n, crashes, promoted: b.promoted, rows: b.draftRows, objects: b.objects, orphans: b.orphanObjects }, pass };
    });
  },
};

const F3: Scenario = {
  id: 'F3',
  fault: 'Temporal dev server stopped and restarted, decisions sent while no worker ran',
  holds: 'workflows lost 0, decisions lost 0 (each answered 503 while the worker was away, taken after)',
  run: async (size) => {
    const n = size === 'short' ? 5 : 20;
    return withStack(async (s) => {
      const ids = await Promise.all(Array.from({ length: n }, () => staged(s, jpeg(8 * 1024))));
      await Promise.all(ids.map((id) => retrying(() => complete(s, id))));
      await waitStatus(s, ids, 'awaiting_review');
      // A decision is an Update: with no worker to take it, the API answers 503 and the operator
      // sends it again. Then Temporal itself goes away and comes back.
      await s.stopWorker();
      await sleep(WORKER_CHECK_REUSE_MS); // the API's shared worker check: "a worker is there" stands this long
      const whileAway = await Promise.all(ids.map((id) => approve(s, id)));
      const told = whileAway.filter((r) => r.status === 503).length;
      await s.stopTemporal();
      await sleep(1000);
      await s.startTemporal();
      await s.startWorker();
      await Promise.all(ids.map((id) => approveAsDocumented(s, id)));
      await waitFinal(s, ids);
      const b = await books(s, ids);
      const pass = told === n && b.workflowsMissing === 0 && b.promoted === n && b.draftRows === n;
      return { measured: { intakes: n, answered503: told, workflowsLost: b.workflowsMissing, decisionsLost: n - b.promoted, promoted: b.promoted }, pass };
    }, { WORKER_CHECK_REUSE_MS: String(WORKER_CHECK_REUSE_MS) });
  },
};

const F4: Scenario = {
  id: 'F4',
  fault: 'API killed after the row commit, before the workflow start; client retries',
  holds: 'same submissionId; one workflow per key; rows without a workflow 0',
  run: async (size) => {
    const n = size === 'short' ? 3 : 10;
    return withStack(async (s) => {
      let same = 0;
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        await s.killApi();
        await s.startApi({ FAULT_KILL_AFTER_SUBMISSION_COMMIT: 'true' });
        const body = createBody(s, { sizeBytes: 4096 });
        const first = await send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body }).catch(() => null);
        await s.killApi();
        await s.startApi();
        const retry = await send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body });
        const rows = await s.sql<{ submissionId: string }[]>`select resource_id as submission_id from idempotency_records where actor_id = 'bench-partner' and idempotency_key = ${body.idempotencyKey}`;
        const id = retry.body?.data?.submission?.submissionId as string;
        if (first === null && retry.status === 201 && rows.length === 1 && rows[0]!.submissionId === id) same++;
        ids.push(id);
      }
      const b = await books(s, ids);
      const pass = same === n && b.workflowsMissing === 0;
      return { measured: { keys: n, sameSubmissionId: same, workflowsPerKey: (ids.length - b.workflowsMissing) / n, rowsWithoutWorkflow: b.workflowsMissing }, pass };
    });
  },
};

const F5: Scenario = {
  id: 'F5',
  fault: '20 concurrent identical creates per key, plus the key with another body',
  holds: 'submissions = workflows = keys; identical replays; other body 422',
  run: async (size) => {
    const keys = size === 'short' ? 3 : 10;
    return withStack(async (s) => {
      const counts: Record<number, number> = {};
      let identical = 0;
      const ids: string[] = [];
      for (let k = 0; k < keys; k++) {
        const body = createBody(s, { sizeBytes: 2048 });
        const replies = await Promise.all(Array.from({ length: 20 }, () => send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body })));
        for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
        const got = new Set(replies.filter((r) => r.status === 201).map((r) => r.body.data.submission.submissionId as string));
        if (got.size === 1) identical++;
        ids.push(...got);
        const other = await send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body: { ...body, sizeBytes: 4096 } });
        counts[other.status] = (counts[other.status] ?? 0) + 1;
      }
      const [rows] = await s.sql<{ n: number }[]>`select count(*)::int as n from submissions where partner_actor_id = 'bench-partner'`;
      const b = await books(s, ids);
      const pass = rows!.n === keys && ids.length === keys && identical === keys && b.workflowsMissing === 0 && (counts[422] ?? 0) === keys && (counts[500] ?? 0) === 0;
      return { measured: { keys, submissions: rows!.n, workflows: ids.length - b.workflowsMissing, '201': counts[201] ?? 0, '409': counts[409] ?? 0, '422': counts[422] ?? 0, identicalReplays: identical }, pass };
    });
  },
};

const F6: Scenario = {
  id: 'F6',
  fault: 'PostgreSQL stopped during activity execution',
  holds: 'legacy health 503 during, 200 after; no 500; all complete; duplicates 0',
  run: async (size) => {
    const n = size === 'short' ? 5 : 20;
    const downMs = size === 'short' ? 5000 : 10_000;
    return withStack(async (s) => {
      const ids = await Promise.all(Array.from({ length: n }, () => staged(s, jpeg(32 * 1024))));
      await Promise.all(ids.map((id) => retrying(() => complete(s, id))));
      await waitStatus(s, ids, 'awaiting_review');
      const approvals = ids.map((id) => approve(s, id).catch(() => null)); // promotions start now
      await sleep(30);
      await s.stopPostgres();
      const during = await send(s, 'GET', '/api/v1/health').catch(() => null);
      await sleep(downMs);
      await s.startPostgres();
      await Promise.all(approvals);
      const deadline = Date.now() + 60_000;
      let after = await send(s, 'GET', '/api/v1/health');
      while (after.status !== 200 && Date.now() < deadline) {
        await sleep(500);
        after = await send(s, 'GET', '/api/v1/health');
      }
      // An approval refused while the database was away is sent again, as an operator would.
      const waiting = (await s.sql<{ submissionId: string }[]>`select submission_id from submissions where submission_id = any(${ids}) and intake_status = 'awaiting_review'`).map((r) => r.submissionId);
      const reapprovals = await Promise.all(waiting.map((id) => retrying(() => approve(s, id))));
      const firstRound = (await Promise.all(approvals)).map((r) => r?.status ?? 'error');
      const tally = (xs: (number | string)[]) => Object.entries(xs.reduce<Record<string, number>>((a, x) => ({ ...a, [x]: (a[x] ?? 0) + 1 }), {})).map(([k, v]) => `${k}x${v}`).join(',');
      await waitFinal(s, ids);
      const b = await books(s, ids);
      // A database outage is the server's dependency, never the client's fault: 503, not 500.
      const no500 = !firstRound.includes(500) && reapprovals.every((r) => r.status !== 500);
      const pass = no500 && during?.status === 503 && after.status === 200 && b.promoted === n && b.duplicateDrafts + b.duplicateEvents === 0 && b.objects === n;
      const stuck = await notPromoted(s, b.statuses);
      return { measured: { intakes: n, downSeconds: downMs / 1000, healthDuring: during?.status ?? 'no answer', healthAfter: after.status, promoted: b.promoted, reapproved: waiting.length, approveAnswers: tally(firstRound), reapproveAnswers: tally(reapprovals.map((r) => r.status)), duplicates: b.duplicateDrafts + b.duplicateEvents, ...(stuck ? { notPromoted: stuck } : {}) }, pass };
    });
  },
};

const F7: Scenario = {
  id: 'F7',
  fault: 'worker stopped',
  holds: 'signal routes 503 + Retry-After within the deadline; status reads 200 from PostgreSQL; ready blocked by private_worker',
  run: async () =>
    withStack(async (s) => {
      const id = await staged(s, jpeg(4096));
      await s.stopWorker();
      let ready = await send(s, 'GET', '/api/v1/health/ready');
      const deadline = Date.now() + 15_000;
      while (ready.status !== 503 && Date.now() < deadline) {
        await sleep(200);
        ready = await send(s, 'GET', '/api/v1/health/ready');
      }
      const calls = [
        await complete(s, id),
        await send(s, 'GET', `${INTAKE}/submissions/${id}`, { headers: s.partner.headers }),
        await approve(s, id),
      ];
      const worstMs = Math.round(Math.max(...calls.map((c) => c.ms)));
      // The signals need a worker: 503 (not applied); the status read is the row, which needs none.
      const signals = [calls[0]!, calls[2]!];
      const all503 = signals.every((c) => c.status === 503 && Number(c.headers.get('retry-after')) > 0) && calls[1]!.status === 200;
      const blockedBy = (ready.body.flows as { id: string; blockedBy: string[] }[]).find((f) => f.id === 'portfolio_intake')?.blockedBy ?? [];
      // TEMPORAL_RPC_DEADLINE_MS is 5000 by default: every answer must come well inside 2x that.
      const pass = all503 && worstMs < 10_000 && ready.body.status === 'blocked' && blockedBy.includes('private_worker');
      return { measured: { statuses: calls.map((c) => c.status).join('/'), worstMs, ready: `${ready.status} ${ready.body.status}`, blockedBy: blockedBy.join(',') }, pass };
    }, { TRANSITION_WAIT_MS: '3000', READY_POLLER_WINDOW_SECONDS: '5' }),
};

const F8: Scenario = {
  id: 'F8',
  fault: 'hostile uploads mixed with valid ones',
  holds: 'every hostile one refused (at its URL: upload-complete then 409 upload_missing, still staged) or verification_failed; valid all promoted; false rejects 0',
  run: async (size) => {
    const valid = size === 'short' ? 3 : 10;
    return withStack(async (s) => {
      const hostile: { kind: string; refused: boolean; id: string }[] = [];
      const tryHostile = async (kind: string, sizeBytes: number, bytes: Buffer, mimeType: string, mutate?: (u: URL) => void) => {
        const c = await create(s, createBody(s, { sizeBytes, mimeType }));
        const url = new URL(c.upload.url);
        mutate?.(url);
        const status = await put(url.toString(), c.upload.headers, bytes).catch(() => 0);
        hostile.push({ kind, refused: status !== 200, id: c.id });
      };
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2040)]);
      const heicHead = Buffer.from([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65]); // "ftyphe", brand cut off
      const validIds = Promise.all(Array.from({ length: valid }, () => staged(s, jpeg(8 * 1024))));
      await tryHostile('oversize', 2048, jpeg(4096), 'image/jpeg');
      await tryHostile('undersize', 4096, jpeg(2048), 'image/jpeg');
      await tryHostile('magic-mismatch', png.length, png, 'image/jpeg');
      await tryHostile('truncated-heic', heicHead.length, heicHead, 'image/heic');
      const randomJpeg = jpegMagicThenRandom(4096);
      await tryHostile('undecodable', randomJpeg.length, randomJpeg, 'image/jpeg');
      const bomb = pngDeclaring(100_000, 100_000);
      await tryHostile('pixel-bomb', bomb.length, bomb, 'image/png');
      await tryHostile('expired-url', 2048, jpeg(2048), 'image/jpeg', (u) => u.searchParams.set('exp', '1000'));
      await tryHostile('tampered-signature', 2048, jpeg(2048), 'image/jpeg', (u) => u.searchParams.set('sig', `${u.searchParams.get('sig')!.slice(0, -2)}AA`));
      const ids = await validIds;
      await Promise.all([...ids, ...hostile.map((h) => h.id)].map((id) => completeAndApprove(s, id)));
      // Bytes the URL refused never landed: those submissions wait, staged, for a real upload.
      const landed = hostile.filter((h) => !h.refused);
      await waitFinal(s, [...ids, ...landed.map((h) => h.id)]);
      const b = await books(s, [...ids, ...hostile.map((h) => h.id)]);
      const hostileOk = hostile.filter((h) => b.statuses[h.id] === (h.refused ? 'staged' : 'verification_failed')).length;
      const falseRejects = ids.filter((id) => b.statuses[id] !== 'promoted_to_media_store').length;
      const pass = hostileOk === hostile.length && falseRejects === 0 && b.objects === valid;
      return {
        measured: { hostile: hostile.length, refusedAtUpload: hostile.length - landed.length, held: hostileOk, valid, promoted: valid - falseRejects, falseRejects },
        pass,
      };
    });
  },
};

const F9: Scenario = {
  id: 'F9',
  fault: 'a burst of creates from one partner while another partner works',
  holds: 'the burst gets 429 rate_limited, never a 500; the other partner 0 refusals; rows without a workflow 0',
  run: async (size) => {
    const burst = size === 'short' ? 60 : 300;
    const limit = 20;
    return withStack(
      async (s) => {
        const other = await secondPartner(s);
        const statuses: Record<number, number> = {};
        const burstIds: string[] = [];
        const otherIds: string[] = [];
        let otherRefused = 0;
        let badRefusals = 0;
        const fire = async () => {
          const r = await send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body: createBody(s, { sizeBytes: 2048 }) });
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          if (r.status === 201) burstIds.push(r.body.data.submission.submissionId);
          // A refusal says why and when to come back.
          if (r.status === 429 && (r.body?.code !== 'rate_limited' || !r.headers.get('retry-after') || !r.headers.get('ratelimit'))) badRefusals++;
        };
        const otherFlow = (async () => {
          for (let i = 0; i < 10; i++) {
            const r = await send(s, 'POST', `${INTAKE}/submissions`, { headers: other.headers, body: { ...createBody(s, { sizeBytes: 2048 }), tenantId: other.organizationId } });
            if (r.status === 201) otherIds.push(r.body.data.submission.submissionId);
            else otherRefused++;
            await sleep(100);
          }
        })();
        // The burst: 10 at a time, bounded in count.
        for (let i = 0; i < burst; i += 10) await Promise.all(Array.from({ length: Math.min(10, burst - i) }, fire));
        await otherFlow;
        const rows = await s.sql<{ n: number }[]>`select count(*)::int as n from submissions where partner_actor_id = 'bench-partner'`;
        const b = await books(s, [...burstIds, ...otherIds]);
        const measured = {
          burst,
          limitPerMinute: limit,
          created: statuses[201] ?? 0,
          rateLimited: statuses[429] ?? 0,
          serverErrors: Object.entries(statuses).filter(([k]) => Number(k) >= 500).reduce((n, [, v]) => n + v, 0),
          badRefusals,
          otherCreated: otherIds.length,
          otherRefused,
          rowsWithoutWorkflow: b.workflowsMissing + Math.abs(rows[0]!.n - burstIds.length),
        };
        const pass =
          measured.created === limit && measured.rateLimited === burst - limit && measured.serverErrors === 0 && badRefusals === 0 && otherRefused === 0 && measured.rowsWithoutWorkflow === 0;
        return { measured, pass };
      },
      { RATE_LIMITS_ENABLED: 'true', RATE_LIMIT_CREATE_PER_MINUTE: String(limit) },
    );
  },
};

/** Another partner organization with its own key, on the same stack. */
async function secondPartner(s: BenchStack): Promise<{ headers: Record<string, string>; organizationId: string }> {
  const organizationId = 'fault-other-tenant';
  const created = await createApiKey(s.sql, { organizationId, label: 'second partner' });
  await upsertMapping(s.sql, {
    actorId: 'fault-other-partner',
    credentialKind: 'api_key',
    credentialSubject: created.keyId,
    role: 'partner',
    permissions: ['portfolio_intake:stage'],
    organizationId,
    artistScope: BENCH_ARTISTS,
  });
  return { headers: { 'x-api-key': created.key }, organizationId };
}

export const SCENARIOS: Scenario[] = [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, ...RESILIENCE_SCENARIOS, doorFlood(), F20, signalStorm({ victims: 1 }), signalStorm({ victims: 3 })];

export async function runScenario(sc: Scenario, size: Size): Promise<Row> {
  const t = performance.now();
  try {
    const r = await sc.run(size);
    return { id: sc.id, fault: sc.fault, holds: sc.holds, measured: { ...r.measured, seconds: Math.round((performance.now() - t) / 100) / 10 }, pass: r.pass };
  } catch (err) {
    return { id: sc.id, fault: sc.fault, holds: sc.holds, measured: { error: (err as Error).message.slice(0, 300) }, pass: false };
  }
}
