// `npm run record:histories`: re-records the workflow histories that test/replay replays.
// Starts a throwaway embedded stack (PostgreSQL, Temporal dev server, worker and API as `npm start`
// runs them, on free loopback ports in a temporary folder), drives one workflow per scenario over
// HTTP until it completes, fetches its history and writes it to test/fixtures/histories/ with a
// manifest of what each one must end in. Before writing, every history is replayed against the
// current workflow code and checked for the credentials used to make it. Stops everything it starts.
//
// Run it after a deliberate, versioned change to a workflow (patched() or a new workflow type), with
// `--shape <name>` naming the new shape: its histories are written beside the fixtures of the other
// shapes (`<type>.<scenario>.<shape>.json`), which stay while workflows of those shapes may still be
// open; a shape goes, with its index entries, when workflows/compat.ts retires what only it needs
// (docs/on-call.md, "Compatibility items"). Recording a shape again replaces only that shape.
import crypto from 'node:crypto';
import { parseCli } from '../lib/cli';
import fs from 'node:fs';
import path from 'node:path';
import type { Connection } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { startApi, type RunningApi } from '../api/server';
import { realJpeg } from '../bench/lib/images';
import { startBenchStack, upsertReviewOperator, type BenchStack } from '../bench/lib/stack';
import { createDecisionSigner, detailsHash } from '../lib/intake/decision-proof';
import { issueLocalToken, loadOrCreateSigningKey } from '../lib/identity/local-keys';
import { LOCAL_ISSUER } from '../lib/identity';
import { startReceiver } from '../bench/lib/webhook-receiver';
import { versions } from '../bench/lib/results';
import { apiConfigSchema, parseConfig, PROJECT_ROOT } from '../lib/config';
import { upsertMapping } from '../lib/identity/actors';
import { createApiKey } from '../lib/identity/api-keys';
import { createLogger } from '../lib/logger';
import { WORKFLOW_BUNDLE_OPTIONS } from '../worker/create-worker';
import { artistResolutionWorkflowId, intakeWorkflowId, webhookEndpointWorkflowId } from '../workflows/messages';
import { stackTemporalClient } from '../temporal/connection';
import { decodeJsonPayloads } from '../temporal/payload-json';
import { isFirstReview } from '../lib/intake/vocabulary';

const { values } = parseCli('Records the Temporal histories the replay test replays (test/fixtures/histories).', 'npm run record:histories --', {
  options: {
    out: { type: 'string', default: path.join('test', 'fixtures', 'histories'), description: 'folder to write (relative to the project)' },
    // The workflow shape these histories record (the newest: verification and the promotion each a local activity).
    shape: { type: 'string', default: 'promote-in-one-task', description: 'the workflow shape recorded (the newest patch or workflow type)' },
    // The whole recording is bounded; one scenario normally takes well under a second.
    seconds: { type: 'string', default: '180', description: 'time bound of the recording' },
  },
});
const OUT = path.resolve(PROJECT_ROOT, values.out);
const SHAPE = values.shape;
if (!/^[a-z0-9-]{1,40}$/.test(SHAPE)) throw new Error('--shape: lower-case letters, digits and dashes');
const DEADLINE = Date.now() + Number(values.seconds) * 1000;
const INTAKE = '/api/private/portfolio-intake/v1';
/** Worker and client identities (and the sticky queue's name) carry pid and host name: not secret,
 * but no business of git's. */
const IDENTITY = 'recorded-by-scripts/record-histories';

export interface FixtureEntry {
  scenario: string;
  /** Which version of the workflow code recorded it; every shape still deployed must replay. */
  shape: string;
  file: string;
  workflowType: 'portfolioIntake' | 'artistResolution' | 'webhookEndpoint';
  workflowId: string;
  /** Fields the workflow's result must have (checked by the replay test against the history). */
  expectResult: Record<string, unknown>;
  events: number;
}

const FILE_PREFIX: Record<FixtureEntry['workflowType'], string> = { portfolioIntake: 'portfolio-intake', artistResolution: 'artist-resolution', webhookEndpoint: 'webhook-endpoint' };

const say = (msg: string) => console.log(`[record] ${msg}`);

function remainingMs(): number {
  const ms = DEADLINE - Date.now();
  if (ms <= 0) throw new Error('recording ran out of time');
  return ms;
}

async function call(base: string, method: string, p: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(Math.min(30_000, remainingMs())),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const jpeg = realJpeg;

function png(size: number): Buffer {
  const b = Buffer.alloc(size, 0);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  return b;
}

async function create(s: BenchStack, base: string, name: string, sizeBytes: number): Promise<{ id: string; upload: { url: string; headers: Record<string, string> } }> {
  const created = await call(base, 'POST', `${INTAKE}/submissions`, s.partner.headers, {
    idempotencyKey: `fixture-${name}-${crypto.randomBytes(4).toString('hex')}`,
    tenantId: s.partner.organizationId,
    artistCanonicalId: 'artist-fixture-001',
    source: 'partner_api',
    fileName: `${name}.jpg`,
    mimeType: 'image/jpeg',
    sizeBytes,
    title: 'Fixture piece',
    tags: ['fixture'],
    rightsPosture: 'artist_attested',
    consentPosture: 'client_consented',
  });
  return { id: created.data.submission.submissionId, upload: created.data.upload };
}

async function stage(s: BenchStack, name: string, bytes: Buffer): Promise<{ id: string; status: any }> {
  const { id, upload } = await create(s, s.apiUrl, name, bytes.length);
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes, signal: AbortSignal.timeout(30_000) });
  if (put.status !== 200) throw new Error(`PUT ${name}: ${put.status}`);
  const done = await call(s.apiUrl, 'POST', `${INTAKE}/submissions/${id}/upload-complete`, s.partner.headers);
  return { id, status: done.data };
}

/** Scrub identities and sticky queue names; keep everything else as the server recorded it. */
function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const sticky = o.kind === 'TASK_QUEUE_KIND_STICKY';
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, (k === 'identity' || (sticky && k === 'name')) && typeof v === 'string' ? IDENTITY : scrub(v)]));
  }
  return value;
}

async function main() {
  Runtime.install({ logger: new DefaultLogger('WARN'), telemetryOptions: { logging: { filter: { core: 'WARN', other: 'WARN' } } } });
  const logger = new DefaultLogger('WARN');
  // The current workflow code, bundled once, as the worker bundles it.
  const { code } = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger });
  const stack = await startBenchStack();
  let shortApi: RunningApi | undefined;
  let connection: Connection | undefined;
  try {
    // A second API on the same database, task queue and data folder, with an upload window of
    // two seconds, for the expiry scenario only.
    const cfg = parseConfig(apiConfigSchema, {
      NODE_ENV: 'development',
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: stack.databaseUrl,
      TEMPORAL_ADDRESS: stack.temporalAddress,
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
      DATA_DIR: stack.dataDir,
      UPLOAD_URL_TTL_SECONDS: '1',
      UPLOAD_GRACE_SECONDS: '1',
    });
    shortApi = await startApi(cfg, createLogger({ name: 'record-short-window', level: 'silent' }), { migrate: false });
    // The stack's API and worker encrypt payloads (temporal/payload-codec.ts) under a key of its
    // temporary DATA_DIR: the fixtures are written decoded, so the replay guard reads them with any key.
    const temporal = stackTemporalClient(stack);
    connection = temporal.connection;
    const { client } = temporal;
    const codec = client.options.loadedDataConverter.payloadCodecs[0]!;
    // The key's secret is everything after its id (`tpk_<keyId>_<secret>`; the secret may hold `_`).
    const secrets = [stack.partner.key, stack.partner.key.split('_').slice(2).join('_'), stack.operator.token];

    // A classifier of the partner's organization (a service key with the agent lane's permissions), made once.
    let classifierKey: { headers: Record<string, string> } | undefined;
    const classifier = async () => {
      if (classifierKey) return classifierKey;
      const { keyId, key } = await createApiKey(stack.sql, { organizationId: stack.partner.organizationId, label: 'fixture classifier' });
      await upsertMapping(stack.sql, {
        actorId: 'fixture-classifier', credentialKind: 'api_key', credentialSubject: keyId, role: 'classifier',
        permissions: ['agent_context:read', 'portfolio_intake:classify'], organizationId: stack.partner.organizationId, selfService: false,
      });
      secrets.push(key, key.split('_').slice(2).join('_'));
      return (classifierKey = { headers: { 'x-api-key': key } });
    };
    // A second human operator, for the second-review scenario.
    const secondOperator = async () => {
      await upsertReviewOperator(stack.sql, 'fixture-second-operator');
      const token = await issueLocalToken(await loadOrCreateSigningKey(stack.dataDir), { subject: 'fixture-second-operator', issuer: LOCAL_ISSUER, ttlSeconds: 3600 });
      secrets.push(token);
      return { headers: { authorization: `Bearer ${token}` } };
    };
    // The first operator's approval sent again straight to Temporal, with a proof the API's key signs.
    const sameOperatorAgain = async (id: string) => {
      const [row] = await stack.sql<{ verifiedSha256: string; actorId: string; credentialId: string }[]>`
        select s.verified_sha256, e.actor_id, e.credential_id from submissions s join intake_events e using (submission_id)
        where s.submission_id = ${id} and e.trigger = 'first_approval'`;
      const requestId = `fixture-again-${id}`;
      const signal = { requestId, by: { actorId: row!.actorId, credentialId: row!.credentialId }, reviewNotes: 'Again.' };
      const signer = await createDecisionSigner({ DATA_DIR: stack.dataDir });
      const proof = await signer.sign({ submissionId: id, decision: 'approve', actorId: row!.actorId, credentialId: row!.credentialId, sha256: row!.verifiedSha256, requestId, detailsHash: detailsHash({ reviewNotes: signal.reviewNotes }) });
      const answer = await client.workflow.getHandle(intakeWorkflowId(id)).executeUpdate<{ taken: boolean; reason?: string }, [never]>('approve', { args: [{ ...signal, proof } as never] });
      if (answer.taken || answer.reason !== 'same_operator') throw new Error(`second-review: the same operator's second approval was not refused (${JSON.stringify(answer)})`);
    };
    const scenarios: { scenario: string; workflowType: FixtureEntry['workflowType']; expectResult: Record<string, unknown>; /** Drives the scenario over HTTP; returns the workflow id. */ run: () => Promise<string> }[] = [
      {
        scenario: 'promoted',
        workflowType: 'portfolioIntake',
        expectResult: { intakeStatus: 'promoted_to_media_store', reviewStatus: 'approved', failureCode: null },
        run: async () => {
          const { id, status } = await stage(stack, 'promoted', jpeg(4096));
          if (!isFirstReview(status.intakeStatus)) throw new Error(`promoted: ${status.intakeStatus}`);
          await call(stack.apiUrl, 'POST', `${INTAKE}/submissions/${id}/approve`, stack.operator.headers, { reviewNotes: 'Rights attested, approved.' });
          return intakeWorkflowId(id);
        },
      },
      {
        // A classifier's labels taken in review (a classify Update and its activity), then approved.
        scenario: 'classified',
        workflowType: 'portfolioIntake',
        expectResult: { intakeStatus: 'promoted_to_media_store', reviewStatus: 'approved', failureCode: null },
        run: async () => {
          const { id, status } = await stage(stack, 'classified', jpeg(4096));
          if (!isFirstReview(status.intakeStatus)) throw new Error(`classified: ${status.intakeStatus}`);
          const labels = {
            styles: [{ id: 'blackwork', confidence: 0.8 }], placement: { id: 'forearm', confidence: 0.6 }, subjects: [{ id: 'floral', confidence: 0.7 }],
            contentFlags: [{ id: 'text_or_watermark', confidence: 0.2 }], model: { name: 'fixture-model', version: '1.0.0' }, rationale: 'dense black fill',
          };
          await call(stack.apiUrl, 'POST', `${INTAKE}/submissions/${id}/classifications`, (await classifier()).headers, labels);
          await call(stack.apiUrl, 'POST', `${INTAKE}/submissions/${id}/approve`, stack.operator.headers, { reviewNotes: 'Rights attested, approved.' });
          return intakeWorkflowId(id);
        },
      },
      {
        // The second-review policy: a classifier's content flag (0.8) holds the first approval in
        // awaiting_second_review; the same operator's second approval is refused (same_operator);
        // a different operator's promotes.
        scenario: 'second-review',
        workflowType: 'portfolioIntake',
        expectResult: { intakeStatus: 'promoted_to_media_store', reviewStatus: 'approved', failureCode: null },
        run: async () => {
          const { id, status } = await stage(stack, 'second-review', jpeg(4096));
          if (!isFirstReview(status.intakeStatus)) throw new Error(`second-review: ${status.intakeStatus}`);
          const labels = {
            styles: [{ id: 'blackwork', confidence: 0.8 }], placement: null, subjects: [],
            contentFlags: [{ id: 'face_visible', confidence: 0.8 }], model: { name: 'fixture-model', version: '1.0.0' }, rationale: 'a face beside the tattoo',
          };
          await call(stack.apiUrl, 'POST', `${INTAKE}/submissions/${id}/classifications`, (await classifier()).headers, labels);
          const held = await call(stack.apiUrl, 'POST', `${INTAKE}/submissions/${id}/approve`, stack.operator.headers, { reviewNotes: 'Consent on file.' });
          if (held.data?.reviewStatus !== 'second_review_required') throw new Error(`second-review: not held (${JSON.stringify(held)})`);
          // The same operator again, around the route's check: the deciding activity refuses it.
          await sameOperatorAgain(id);
          const other = await secondOperator();
          await call(stack.apiUrl, 'POST', `${INTAKE}/submissions/${id}/approve`, other.headers, { reviewNotes: 'Second look: agreed.' });
          return intakeWorkflowId(id);
        },
      },
      {
        scenario: 'verification-failed',
        workflowType: 'portfolioIntake',
        expectResult: { intakeStatus: 'verification_failed', reviewStatus: 'not_reviewed', failureCode: 'magic_bytes_mismatch' },
        run: async () => intakeWorkflowId((await stage(stack, 'verification-failed', png(4096))).id),
      },
      {
        scenario: 'rejected',
        workflowType: 'portfolioIntake',
        expectResult: { intakeStatus: 'rejected', reviewStatus: 'rejected', rejectReasonCode: 'rights_unclear' },
        run: async () => {
          const { id } = await stage(stack, 'rejected', jpeg(4096));
          await call(stack.apiUrl, 'POST', `${INTAKE}/submissions/${id}/reject`, stack.operator.headers, { reasonCode: 'rights_unclear', reviewNotes: 'No attestation from the artist.' });
          return intakeWorkflowId(id);
        },
      },
      {
        scenario: 'expired',
        workflowType: 'portfolioIntake',
        expectResult: { intakeStatus: 'expired', reviewStatus: 'not_reviewed' },
        // Created through the short-window API; nothing is uploaded, the workflow's timer fires.
        run: async () => intakeWorkflowId((await create(stack, shortApi!.url, 'expired', 2048)).id),
      },
      {
        scenario: 'phone-matched',
        workflowType: 'artistResolution',
        expectResult: { status: 'phone_matched', artistCanonicalId: 'artist-fixture-001', reviewRequired: true, legalKycVerified: false },
        run: async () => {
          const phoneHash = 'sha256:' + 'c'.repeat(64);
          const tenantId = stack.partner.organizationId;
          await stack.sql`insert into artist_identity_evidence (tenant_id, kind, value, artist_canonical_id, verified_by_operator)
            values (${tenantId}, 'phone_hash', ${phoneHash}, 'artist-fixture-001', false)`;
          const idempotencyKey = `fixture-resolution-${crypto.randomBytes(4).toString('hex')}`;
          await call(stack.apiUrl, 'POST', `${INTAKE}/artist-resolution-requests`, stack.partner.headers, { idempotencyKey, tenantId, source: 'partner_api', phoneHash });
          return artistResolutionWorkflowId(tenantId, crypto.createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32));
        },
      },
      {
        // An endpoint's delivery workflow (its result is void): an intake's events delivered to a
        // receiver, then the endpoint deleted, which ends the workflow.
        scenario: 'endpoint-deleted',
        workflowType: 'webhookEndpoint',
        expectResult: {},
        run: async () => {
          const receiver = await startReceiver();
          try {
            const reg = await call(stack.apiUrl, 'POST', `${INTAKE}/webhook-endpoints`, stack.partner.headers, { url: receiver.url });
            receiver.secrets.push(reg.data.secret);
            await stage(stack, 'webhooks', jpeg(4096));
            if (!(await receiver.waitFor((a) => a.length >= 2, Math.min(30_000, remainingMs())))) throw new Error('endpoint-deleted: the events were not delivered');
            const del = await fetch(`${stack.apiUrl}${INTAKE}/webhook-endpoints/${reg.data.endpointId}`, { method: 'DELETE', headers: stack.partner.headers });
            if (del.status >= 300) throw new Error(`endpoint-deleted: DELETE answered ${del.status}`);
            return webhookEndpointWorkflowId(reg.data.endpointId);
          } finally {
            await receiver.close();
          }
        },
      },
    ];

    const recorded: { entry: FixtureEntry; json: string }[] = [];
    for (const sc of scenarios) {
      const workflowId = await sc.run();
      const handle = client.workflow.getHandle(workflowId);
      const result = await Promise.race([
        handle.result(),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`${sc.scenario}: no result in time`)), Math.min(60_000, remainingMs())).unref()),
      ]);
      for (const [k, v] of Object.entries(sc.expectResult)) {
        if ((result as Record<string, unknown>)[k] !== v) throw new Error(`${sc.scenario}: result.${k} is ${JSON.stringify((result as Record<string, unknown>)[k])}, expected ${JSON.stringify(v)}`);
      }
      const history = await handle.fetchHistory();
      const json = JSON.stringify(scrub(await decodeJsonPayloads(JSON.parse(historyToJSON(history)), codec)), null, 2) + '\n';
      for (const [n, secret] of secrets.entries()) if (json.includes(secret)) throw new Error(`${sc.scenario}: a credential (#${n} of partner key, key secret, operator token) ended up in the history; not writing it`);
      // The scrubbed history must still replay against the current code.
      await Worker.runReplayHistory({ workflowBundle: { code }, replayName: `record-${sc.scenario}` }, JSON.parse(json), workflowId);
      const file = `${FILE_PREFIX[sc.workflowType]}.${sc.scenario}.${SHAPE}.json`;
      recorded.push({ entry: { scenario: sc.scenario, shape: SHAPE, file, workflowType: sc.workflowType, workflowId, expectResult: sc.expectResult, events: history.events?.length ?? 0 }, json });
      say(`${sc.scenario}: ${workflowId}, ${history.events?.length ?? 0} events, replays cleanly`);
    }

    fs.mkdirSync(OUT, { recursive: true });
    for (const { entry, json } of recorded) fs.writeFileSync(path.join(OUT, entry.file), json);
    const v = versions();
    const indexFile = path.join(OUT, 'index.json');
    const earlier: FixtureEntry[] = fs.existsSync(indexFile) ? (JSON.parse(fs.readFileSync(indexFile, 'utf8')) as { fixtures: FixtureEntry[] }).fixtures : [];
    const manifest = {
      recordedWith: { temporalCli: v.temporalCli, temporalSdk: v.temporalSdk, node: v.node },
      fixtures: [...earlier.filter((e) => e.shape !== SHAPE), ...recorded.map((r) => ({ ...r.entry, recordedAt: new Date().toISOString() }))],
    };
    fs.writeFileSync(path.join(OUT, 'index.json'), JSON.stringify(manifest, null, 2) + '\n');
    say(`wrote ${recorded.length} histories and index.json to ${path.relative(PROJECT_ROOT, OUT)}`);
  } finally {
    await connection?.close().catch(() => {});
    await shortApi?.stop().catch(() => {});
    await stack.stop();
  }
}

await main();
