// Issue 23 item 5: two API processes and two worker processes behind HAProxy (the launcher's
// `replicas`, as `npm start -- --replicas 2`), on one Temporal dev server and one PostgreSQL.
// Everything goes through the load balancer as clients would, except where a check needs one
// replica by name (the replica's own port). No fake anywhere: real processes, real HAProxy.
// Run by replicas.test.ts as it is, and by replicas-pooled.test.ts with PgBouncer in transaction
// mode between the processes and PostgreSQL (issue 37 item 3, `npm start -- --replicas 2 --pooler`).
import http from 'node:http';
import pg from 'pg';
import type { RealServerBinaries } from '../../temporal/real-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../bench/lib/webhook-receiver';
import { startBenchStack, upsertReviewOperator, type BenchStack } from '../../bench/lib/stack';
import { books, waitFinal, waitStatus } from '../../faults/books';
import { complete, createBody, INTAKE, jpeg, put, retrying, send, staged, type Reply } from '../../faults/client';
import { drive } from '../../faults/resilience';
import { LOCAL_ISSUER } from '../../lib/identity';
import { issueLocalToken, loadOrCreateSigningKey } from '../../lib/identity/local-keys';

const PUBLIC_LIMIT = 20;
const INTAKES = 40;


/** The count of a route's answers in one replica's Prometheus text (http_request_duration_seconds_count). */
async function served(replicaUrl: string, method: string, route: string, status?: number): Promise<number> {
  const text = await (await fetch(`${replicaUrl}/metrics`)).text();
  let n = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('http_request_duration_seconds_count{')) continue;
    if (!line.includes(`method="${method}"`) || !line.includes(`route="${route}"`)) continue;
    if (status !== undefined && !line.includes(`status="${status}"`)) continue;
    n += Number(line.split(' ').at(-1));
  }
  return n;
}

const at = (url: string, path: string) => `${url}${path}`;

/** A GET from another loopback address (a client other than this process's 127.0.0.1): its status. */
function statusFrom(localAddress: string, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress, headers, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} from ${localAddress}: no answer in 10 s`)));
    req.on('error', reject);
  });
}

/** Rows of a PgBouncer admin console command (SHOW STATS, SHOW SERVERS), as a stats user. */
async function pgbouncerShow(poolerUrl: string, what: 'STATS' | 'SERVERS'): Promise<Record<string, string>[]> {
  const url = new URL(poolerUrl);
  url.pathname = '/pgbouncer';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query(`SHOW ${what}`)).rows as Record<string, string>[];
  } finally {
    await client.end();
  }
}

export function replicaSuite(o: { pooler: boolean; realTemporal?: RealServerBinaries }): void {
  let s: BenchStack;
  let receiver: Receiver;

  const on = [o.pooler ? 'on PostgreSQL through PgBouncer (transaction mode)' : '', o.realTemporal ? 'on the real Temporal server (PostgreSQL persistence, SQL visibility)' : ''].filter(Boolean);
  describe(`two API and two worker replicas behind HAProxy${on.length ? `, ${on.join(', ')}` : ''}`, () => {
    beforeAll(async () => {
      s = await startBenchStack({
        replicas: 2,
        pooler: o.pooler,
        ...(o.realTemporal ? { realTemporal: o.realTemporal } : {}),
        env: {
          // Limits on, as in production; the intake families high enough for 40 intakes driven at once,
          // the public one low, to see it shared.
          RATE_LIMITS_ENABLED: 'true',
          RATE_LIMIT_PUBLIC_PER_MINUTE: String(PUBLIC_LIMIT),
          RATE_LIMIT_CREATE_PER_MINUTE: '1000',
          RATE_LIMIT_UPLOAD_PER_MINUTE: '1000',
          RATE_LIMIT_SIGNAL_PER_MINUTE: '100000',
          RATE_LIMIT_READ_PER_MINUTE: '100000',
          TRANSITION_WAIT_MS: '20000',
          WEBHOOK_RETRY_INITIAL_SECONDS: '1',
          WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '2',
          WEBHOOK_SWEEP_SECONDS: '1',
        },
      });
      receiver = await startReceiver();
      const reg = await send(s, 'POST', `${INTAKE}/webhook-endpoints`, { headers: s.partner.headers, body: { url: receiver.url } });
      expect(reg.status).toBe(201);
      receiver.secrets.push(reg.body.data.secret);
    }, 240_000);

    afterAll(async () => {
      await receiver?.close();
      await s?.stop();
    });

    it('the launcher runs two of each and HAProxy in front; the replicas hand out the load balancer URL', async () => {
      expect(s.apiReplicaUrls).toHaveLength(2);
      expect(new Set([s.replicaPid('api', 1), s.replicaPid('api', 2), s.replicaPid('worker', 1), s.replicaPid('worker', 2)]).size).toBe(4);
      expect(s.haproxyPid()).toBeGreaterThan(0);
      if (o.pooler) expect(s.pgbouncerPid()).toBeGreaterThan(0);
      else expect(s.poolerUrl).toBeUndefined();
      for (const url of s.apiReplicaUrls) {
        expect(url).not.toBe(s.apiUrl);
        const r = await send(s, 'GET', at(url, '/api/v1/health/ready'));
        expect(r.status).toBe(200);
        // Upload URLs and asset links name the load balancer, whichever replica answered.
        expect(r.body.publicApiBaseUrl).toBe(`${s.apiUrl}/api/v1`);
      }
      const created = await send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body: createBody(s, { sizeBytes: 1000 }) });
      expect(created.status).toBe(201);
      expect(created.body.data.upload.url.startsWith(`${s.apiUrl}/`)).toBe(true);
    });

    it('rate limits are shared: across both replicas, one client gets the limit and no more, whatever X-Forwarded-For it sends', async () => {
      // HAProxy sets X-Forwarded-For to the connection's address: this client is 127.0.0.3, and the
      // header it makes up (a new address each time) names nobody.
      const before = await Promise.all(s.apiReplicaUrls.map((u) => served(u, 'GET', '/api/v1/studios')));
      const statuses: number[] = [];
      for (let i = 0; i < PUBLIC_LIMIT + 10; i++) statuses.push(await statusFrom('127.0.0.3', `${s.apiUrl}/api/v1/studios?limit=1`, { 'x-forwarded-for': `198.51.100.${i + 1}` }));
      expect(statuses.filter((x) => x === 200)).toHaveLength(PUBLIC_LIMIT);
      expect(statuses.filter((x) => x === 429)).toHaveLength(10);
      const after = await Promise.all(s.apiReplicaUrls.map((u) => served(u, 'GET', '/api/v1/studios')));
      // Round robin: each replica answered about half of them; together, all.
      expect(after[0]! - before[0]!).toBeGreaterThanOrEqual(10);
      expect(after[1]! - before[1]!).toBeGreaterThanOrEqual(10);
      expect(after[0]! - before[0]! + after[1]! - before[1]!).toBe(PUBLIC_LIMIT + 10);
      // Another client (another address) keeps its own window, even naming the first one.
      expect(await statusFrom('127.0.0.4', `${s.apiUrl}/api/v1/studios?limit=1`, { 'x-forwarded-for': '127.0.0.3' })).toBe(200);
    });

    it('console claims hold across replicas: one operator signed in on each', async () => {
      const id = await staged(s, jpeg(16 * 1024));
      expect((await retrying(() => complete(s, id))).status).toBeLessThan(300);
      expect(await waitStatus(s, [id], 'awaiting_review', 60_000)).toBe(true);
      // A second human operator, beside the bench's.
      await upsertReviewOperator(s.sql, 'replica-operator-2');
      const key = await loadOrCreateSigningKey(s.dataDir);
      const token2 = await issueLocalToken(key, { subject: 'replica-operator-2', issuer: LOCAL_ISSUER, ttlSeconds: 3600 });
      const signIn = async (replica: string, token: string) => {
        const r = await fetch(at(replica, '/console/api/session'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
        expect(r.status).toBe(201);
        const cookie = r.headers.get('set-cookie')!.split(';')[0]!;
        const { data } = (await r.json()) as { data: { csrf: string } };
        return { cookie, 'x-console-csrf': data.csrf };
      };
      const [r1, r2] = s.apiReplicaUrls as [string, string];
      const kim = await signIn(r1, s.operator.token);
      const lee = await signIn(r2, token2);
      const claim = (replica: string, who: Record<string, string>, method = 'POST') =>
        fetch(at(replica, `/console/api/submissions/${id}/claim`), { method, headers: who }).then(async (r) => ({ status: r.status, body: r.status === 204 ? undefined : ((await r.json()) as any) }));

      expect((await claim(r1, kim)).body.data).toMatchObject({ mine: true, claimedBy: 'bench-operator' });
      // The other operator, on the other replica, sees kim's claim.
      expect((await claim(r2, lee)).body.data).toMatchObject({ mine: false, claimedBy: 'bench-operator' });
      // And cannot decide it there, through the API either.
      const approveAsLee = await send(s, 'POST', at(r2, `${INTAKE}/submissions/${id}/approve`), {
        headers: { authorization: `Bearer ${token2}` },
        body: { reviewNotes: 'Approved on the other replica.' },
      });
      expect(approveAsLee.status).toBe(409);
      expect(approveAsLee.body.code).toBe('claimed_by_other');
      // kim's session works on either replica: released on replica 2, the item is lee's to claim on replica 1.
      expect((await claim(r2, kim, 'DELETE')).status).toBe(204);
      const lee1 = await signIn(r1, token2);
      expect((await claim(r1, lee1)).body.data).toMatchObject({ mine: true, claimedBy: 'replica-operator-2' });
    });

    it(`${INTAKES} intakes through the load balancer: both replicas serve them, each signal route settles on the worker's NOTIFY, webhooks stay ordered, and an API replica and a worker SIGKILLed mid-run lose nothing`, async () => {
      const [r1, r2] = s.apiReplicaUrls as [string, string];
      const createsBefore = await Promise.all([r1, r2].map((u) => served(u, 'POST', `${INTAKE}/submissions`, 201)));

      // 1. Settling on NOTIFY, whichever replica: six intakes to awaiting_review, then each approve sent
      //    to a named replica (three to each); the promotion runs on either worker, whose transition
      //    write NOTIFYs every replica. 200 means the route saw the settled state within its wait.
      const first = await Promise.all(Array.from({ length: 6 }, () => staged(s, jpeg(16 * 1024))));
      await Promise.all(first.map((id) => retrying(() => complete(s, id))));
      expect(await waitStatus(s, first, 'awaiting_review', 90_000)).toBe(true);
      const settled = await Promise.all(
        first.map((id, i) =>
          send(s, 'POST', at(i % 2 ? r2 : r1, `${INTAKE}/submissions/${id}/approve`), { headers: s.operator.headers, body: { reviewNotes: 'Approved on a named replica.' }, timeoutMs: 60_000 }),
        ),
      );
      expect(settled.map((r) => [r.status, r.body.outcome, r.body.data?.intakeStatus])).toEqual(first.map(() => [200, 'settled', 'promoted_to_media_store']));

      // 2. The rest under load, with an API replica and a worker killed while they run.
      const ids = [...first];
      const answers: number[] = [];
      const flows: Promise<string>[] = [];
      let created = 0; // creates answered 201, as the client saw them
      const creating = (async () => {
        for (let i = first.length; i < INTAKES; i++) {
          const bytes = jpeg(16 * 1024);
          const body = createBody(s, { sizeBytes: bytes.length });
          const c = await retrying(() => send(s, 'POST', `${INTAKE}/submissions`, { headers: s.partner.headers, body }).catch(() => ({ status: 503 }) as Reply), 60_000);
          answers.push(c.status);
          if (c.status !== 201) continue;
          created++;
          const id = c.body.data.submission.submissionId as string;
          const up = c.body.data.upload as { url: string; headers: Record<string, string> };
          await retrying(async () => ({ status: await put(up.url, up.headers, bytes).catch(() => 503) }) as Reply, 60_000);
          ids.push(id);
          flows.push(drive(s, id, answers, 180_000));
        }
      })();
      // Mid-run: once a third of them exist, SIGKILL API replica 2 and worker 1 (not restarted here).
      const deadline = Date.now() + 60_000;
      while (ids.length < first.length + 12 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      // What replica 2 answered so far (its counters die with it). Creates go on meanwhile: one answered
      // between this read and the kill may have come from replica 2 and is then in neither count.
      const createdBeforeRead = created;
      const createdOn2 = (await served(r2, 'POST', `${INTAKE}/submissions`, 201)) - createsBefore[1]!;
      const approvedOn2 = await served(r2, 'POST', `${INTAKE}/submissions/{submissionId}/approve`, 200);
      const killedAfter = ids.length;
      const killedApi = s.replicaPid('api', 2);
      const killedWorker = s.replicaPid('worker', 1);
      await Promise.all([s.killReplica('api', 2), s.killReplica('worker', 1)]);
      const unseenAtMost = created - createdBeforeRead;
      expect(s.replicaPid('api', 2)).toBeUndefined();
      expect(killedApi).toBeGreaterThan(0);
      expect(killedWorker).toBeGreaterThan(0);
      expect(killedAfter).toBeLessThan(INTAKES); // mid-run: more intakes were created after the kill
      await creating;
      const final = await Promise.all(flows);
      await waitFinal(s, ids);

      const tally = Object.entries(answers.reduce<Record<number, number>>((a, x) => ({ ...a, [x]: (a[x] ?? 0) + 1 }), {})).map(([k, v]) => `${k}x${v}`).join(',');
      console.log(`replicas: killed api 2 (pid ${killedApi}) and worker 1 (pid ${killedWorker}) when ${killedAfter} of ${INTAKES} intakes had been created; answers ${tally}`);

      // Every intake completed, exactly once.
      expect(answers).not.toContain(500);
      expect(ids).toHaveLength(INTAKES);
      expect(final.every((x) => x === 'promoted_to_media_store')).toBe(true);
      const b = await books(s, ids);
      expect(b).toMatchObject({ promoted: INTAKES, draftRows: INTAKES, objects: INTAKES, orphanObjects: 0, duplicateDrafts: 0, duplicateEvents: 0, workflowsOpen: 0, workflowsMissing: 0 });

      // Both replicas served creates (through the load balancer) and approvals; replica 1 the rest after the kill.
      const createdOn1 = (await served(r1, 'POST', `${INTAKE}/submissions`, 201)) - createsBefore[0]!;
      expect(createdOn2).toBeGreaterThan(0);
      expect(createdOn1).toBeGreaterThan(0);
      expect(createdOn1 + createdOn2).toBeGreaterThanOrEqual(INTAKES - unseenAtMost);
      expect(approvedOn2).toBeGreaterThanOrEqual(3);
      expect(await served(r1, 'POST', `${INTAKE}/submissions/{submissionId}/approve`, 200)).toBeGreaterThanOrEqual(3);
      console.log(`replicas: creates answered 201 by api 1: ${createdOn1}, by api 2 (before its kill): ${createdOn2}; answered between the read and the kill: ${unseenAtMost}`);
      // The load balancer routes around the dead replica: it is marked down, and requests still answer.
      const readyNow = await send(s, 'GET', '/api/v1/health/ready');
      expect(readyNow.status).toBe(200);
      const after = await Promise.all(Array.from({ length: 10 }, () => send(s, 'GET', `${INTAKE}/submissions/${ids[0]}`, { headers: s.partner.headers })));
      expect(after.map((r) => r.status)).toEqual(after.map(() => 200));

      // Webhooks: every event of every intake, in order per submission, with two dispatchers.
      const expectedTypes = ['submission.staged', 'submission.awaiting_review', 'submission.promoted'];
      expect(await receiver.waitFor((a) => new Set(a.filter((x) => ids.includes(x.body.data.submissionId)).map((x) => x.id)).size >= INTAKES * 3, 120_000)).toBe(true);
      const accepted = receiver.accepted();
      expect(receiver.all.every((x) => x.verified)).toBe(true);
      for (const id of ids) {
        // First receipt of each event id, in arrival order (a repeat after a kill is allowed; a reordering is not).
        const seen = new Set<string>();
        const types = accepted.filter((x) => x.body.data.submissionId === id && !seen.has(x.id) && seen.add(x.id)).map((x) => x.type);
        expect(types, id).toEqual(expectedTypes);
      }
      // The events feed agrees: the same events, each once, in the same order per submission.
      const feed: { id: string; type: string; data: { submissionId: string } }[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 50; page++) {
        const r = await send(s, 'GET', `${INTAKE}/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: s.partner.headers });
        expect(r.status).toBe(200);
        feed.push(...r.body.data);
        cursor = r.body.next_cursor;
        if (!r.body.has_more) break;
      }
      const ours = feed.filter((e) => ids.includes(e.data.submissionId));
      expect(new Set(ours.map((e) => e.id)).size).toBe(ours.length);
      expect(ours).toHaveLength(INTAKES * 3);
      for (const id of ids) expect(ours.filter((e) => e.data.submissionId === id).map((e) => e.type)).toEqual(expectedTypes);
      expect(new Set(accepted.filter((x) => ids.includes(x.body.data.submissionId)).map((x) => x.id))).toEqual(new Set(ours.map((e) => e.id)));
    }, 420_000);

    if (o.pooler) it("the processes' transactions went through PgBouncer, and their LISTEN sessions straight to PostgreSQL", async () => {
      const stats = await pgbouncerShow(s.poolerUrl!, 'STATS');
      const ours = stats.find((r) => r.database === new URL(s.poolerUrl!).pathname.slice(1))!;
      console.log(`replicas (pooled): PgBouncer relayed ${ours.total_xact_count} transactions, ${ours.total_query_count} queries`);
      expect(Number(ours.total_xact_count)).toBeGreaterThan(1000);
      // The backends that LISTEN (one per worker process still running: the webhook dispatcher; the API listens to nothing) are not PgBouncer's server connections.
      const serverPorts = new Set((await pgbouncerShow(s.poolerUrl!, 'SERVERS')).map((r) => Number(r.local_port)));
      const listening = await s.sql<{ clientPort: number }[]>`select client_port from pg_stat_activity where query ilike 'listen %'`;
      expect(listening.length).toBeGreaterThanOrEqual(1);
      expect(serverPorts.size).toBeGreaterThan(0);
      expect(listening.filter((l) => serverPorts.has(l.clientPort))).toEqual([]);
    });
  });
}
