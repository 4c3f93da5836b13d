// Issue 43 item 3: the real Temporal server's frontend behind its JWT authorizer, as
// `npm start -- --temporal server` runs it. A caller with no token, with the on-call reader token
// (`npm run iam -- temporal-token`), with a token signed by another key or with write permission
// on another namespace cannot start, signal, update, cancel, terminate or reset; the reader lists,
// describes and reads histories, through the SDK, the temporal CLI and the Web UI's server; the API
// and the worker, presenting their own short-lived writer tokens, run intakes end to end, also
// after the tokens they started with have expired; and on-call reads the decoded payloads in the Web UI.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBenchStack, type BenchStack } from '../../bench/lib/stack';
import { create, createBody, jpeg, staged } from '../../faults/client';
import { drive } from '../../faults/resilience';
import { createSigninCode } from '../../lib/console/sessions';
import { pathVariable } from '../../lib/config';
import { LOCAL_ISSUER } from '../../lib/identity';
import { CHROMIUM_PATH } from '../../scripts/tools/chromium';
import { findTemporalCli } from '../../temporal/cli-path';
import { sdkTlsOf, tlsCliArgs } from '../../temporal/cluster-tls';
import { loadOrCreateTemporalSigningKey, mintTemporalToken, TEMPORAL_SIGNING_KEY_FILE } from '../../temporal/tokens';
import { intakeWorkflowId } from '../../workflows/messages';
import { runScript } from '../helpers/run-script';
import { realServerOrSkip } from './real-temporal-suite';

const NAMESPACE = 'default';
/** The writers' tokens live a minute here (15 in production), so the suite outlives the first ones. */
const WRITER_TTL_SECONDS = 60;
/** gRPC PERMISSION_DENIED and UNAUTHENTICATED. */
const REFUSED = [7, 16];
const resetRequest = { namespace: NAMESPACE, reason: 'authorization probe', workflowTaskFinishEventId: 3 as unknown as NonNullable<ResetRequest['workflowTaskFinishEventId']> };
type ResetRequest = Parameters<Connection['workflowService']['resetWorkflowExecution']>[0];

/** The gRPC status code a call ended with (the SDK wraps it: ServiceError and friends carry it as a cause). */
function grpcCode(err: unknown): number | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (typeof e.code === 'number') return e.code;
  return undefined;
}

async function refusal(call: () => Promise<unknown>): Promise<number | undefined> {
  try {
    await call();
  } catch (err) {
    return grpcCode(err);
  }
  return undefined;
}

function runCli(cli: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cli, args, { timeout: 30_000, encoding: 'utf8' }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) || 1 : 0, out: `${stdout}${stderr}` }));
  });
}

const bin = realServerOrSkip('the real Temporal server behind its JWT authorizer');
if (bin) {
  describe('the real Temporal server behind its JWT authorizer', () => {
    let s: BenchStack;
    /** When the stack answered ready: the processes' first tokens were minted before it. */
    let readyAt: number;
    /** One connection per caller: no token, the reader's (namespace only, and --web-ui), one signed by a stranger's key, a writer of another namespace. */
    const callers: Record<'anonymous' | 'reader' | 'webUiReader' | 'stranger' | 'otherNamespace', { connection: Connection; client: Client }> = {} as never;
    let readerToken: string;
    let webUiToken: string;
    /** A submission whose workflow stays open (staged, no upload): what the refused calls aim at. */
    let openId: string;

    // Lazy: Connection.connect asks GetSystemInfo first, which a token signed by a stranger already fails.
    // Every caller here holds on-call's client certificate (the frontend's mTLS): the token alone decides.
    const connect = (apiKey?: string) => {
      const connection = Connection.lazy({ address: s.temporalAddress, tls: sdkTlsOf(s.temporalTls!), ...(apiKey ? { apiKey } : {}) });
      return { connection, client: new Client({ connection, namespace: NAMESPACE }) };
    };

    beforeAll(async () => {
      s = await startBenchStack({ realTemporal: bin, temporalAuth: 'jwt', temporalUi: true, env: { TEMPORAL_TOKEN_TTL_SECONDS: String(WRITER_TTL_SECONDS) } });
      readyAt = Date.now();
      const minted = await runScript('scripts/iam.ts', ['temporal-token', '--ttl', '900', '--subject', 'on-call-e2e'], { DATA_DIR: s.dataDir });
      expect(minted.code, minted.stderr).toBe(0);
      readerToken = minted.stdout.trim();
      const webUi = await runScript('scripts/iam.ts', ['temporal-token', '--web-ui'], { DATA_DIR: s.dataDir });
      expect(webUi.code, webUi.stderr).toBe(0);
      webUiToken = webUi.stdout.trim();
      const key = loadOrCreateTemporalSigningKey(s.dataDir);
      const stranger = loadOrCreateTemporalSigningKey(fs.mkdtempSync(path.join(s.dir, 'stranger-')));
      callers.anonymous = connect();
      callers.reader = connect(readerToken);
      callers.webUiReader = connect(webUiToken);
      callers.stranger = connect(mintTemporalToken({ ...stranger, kid: key.kid }, { subject: 'stranger', permissions: [`${NAMESPACE}:write`], ttlSeconds: 600 }));
      callers.otherNamespace = connect(mintTemporalToken(key, { subject: 'elsewhere', permissions: ['other-namespace:write'], ttlSeconds: 600 }));
      openId = (await create(s, createBody(s, { sizeBytes: jpeg(16 * 1024).length }))).id;
    }, 300_000);

    afterAll(async () => {
      for (const c of Object.values(callers)) await c.connection.close();
      await s?.stop();
    }, 120_000);

    it('the reader token from `npm run iam -- temporal-token` carries <namespace>:read only, for the lifetime asked', () => {
      const claims = JSON.parse(Buffer.from(readerToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      expect(claims).toMatchObject({ sub: 'on-call-e2e', permissions: [`${NAMESPACE}:read`] });
      expect((claims.exp as number) - (claims.iat as number)).toBe(900);
      const webUi = JSON.parse(Buffer.from(webUiToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      expect(webUi).toMatchObject({ sub: 'on-call', permissions: [`${NAMESPACE}:read`, 'temporal-system:read'] });
      expect((webUi.exp as number) - (webUi.iat as number)).toBe(3600);
      // The key stays in DATA_DIR/secrets, readable by its owner only.
      expect(fs.statSync(path.join(s.dataDir, 'secrets', TEMPORAL_SIGNING_KEY_FILE)).mode & 0o077).toBe(0);
    });

    it('the API and the worker, with their writer tokens, take a submission from staged to promoted', async () => {
      const id = await staged(s, jpeg(16 * 1024));
      expect(await drive(s, id, [], 120_000)).toBe('promoted_to_media_store');
    }, 150_000);

    it('the reader lists, describes and reads the history of intake workflows', async () => {
      const workflowId = intakeWorkflowId(openId);
      const desc = await callers.reader.client.workflow.getHandle(workflowId).describe();
      expect(desc.status.name).toBe('RUNNING');
      const history = await callers.reader.client.workflow.getHandle(workflowId).fetchHistory();
      expect(history.events?.length).toBeGreaterThan(0);
      // Visibility (SQL) follows the start a moment later: bounded.
      let listed: string[] = [];
      for (let i = 0; i < 40 && !listed.includes(workflowId); i++) {
        listed = [];
        for await (const w of callers.reader.client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) listed.push(w.workflowId);
        if (!listed.includes(workflowId)) await new Promise((r) => setTimeout(r, 250));
      }
      expect(listed).toEqual([workflowId]);
    });

    it('no token, the reader tokens, a stranger-signed token and another namespace\'s writer each cannot start, signal, update, cancel, terminate or reset', async () => {
      const workflowId = intakeWorkflowId(openId);
      const before = await callers.reader.client.workflow.getHandle(workflowId).describe();
      const probeId = `authz-probe-${crypto.randomUUID()}`;
      const codes: Record<string, Record<string, number | undefined>> = {};
      for (const [who, { client, connection }] of Object.entries(callers)) {
        const handle = client.workflow.getHandle(workflowId);
        codes[who] = {
          start: await refusal(() => client.workflow.start('portfolioIntake', { taskQueue: s.taskQueue, workflowId: probeId, args: [] })),
          signal: await refusal(() => handle.signal('uploadComplete', {})),
          update: await refusal(() => handle.executeUpdate('approve', { args: [{}] })),
          cancel: await refusal(() => handle.cancel()),
          terminate: await refusal(() => handle.terminate('authorization probe')),
          // The event id is an int64 (Long in the typings; protobufjs takes a number).
          reset: await refusal(() => connection.workflowService.resetWorkflowExecution({ ...resetRequest, workflowExecution: { workflowId }, requestId: crypto.randomUUID() })),
        };
      }
      for (const [who, byCall] of Object.entries(codes)) for (const [call, code] of Object.entries(byCall)) expect(REFUSED, `${who} ${call}: gRPC code ${code}`).toContain(code);
      // Nothing moved: the open run has the same history, the probe never started.
      const after = await callers.reader.client.workflow.getHandle(workflowId).describe();
      expect(after.status.name).toBe('RUNNING');
      expect(after.historyLength).toBe(before.historyLength);
      await expect(callers.reader.client.workflow.getHandle(probeId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    });

    it('without a token nothing is readable either: list and describe are refused', async () => {
      expect(REFUSED).toContain(await refusal(() => callers.anonymous.client.workflow.getHandle(intakeWorkflowId(openId)).describe()));
      expect(REFUSED).toContain(await refusal(() => callers.anonymous.client.workflow.list()[Symbol.asyncIterator]().next()));
    });

    it("the server's own worker service (schedules, batches) keeps working: it polls its per-namespace queue through the internal frontend", async () => {
      // temporal-sys-per-ns-tq: polled by the system worker, which an authorizer on its only door would refuse.
      let pollers = 0;
      for (let i = 0; i < 120 && pollers === 0; i++) {
        const desc = await callers.reader.connection.workflowService.describeTaskQueue({ namespace: NAMESPACE, taskQueue: { name: 'temporal-sys-per-ns-tq', kind: 1 }, taskQueueType: 1 });
        pollers = desc.pollers.length;
        if (pollers === 0) await new Promise((r) => setTimeout(r, 500));
      }
      expect(pollers).toBeGreaterThan(0);
    }, 90_000);

    it('the temporal CLI lists workflows with the reader token (--api-key, and on-call\'s client certificate), and without a token, or to terminate, is refused', async () => {
      const cli = findTemporalCli({ pathVar: pathVariable() });
      expect(cli, 'the temporal CLI (npm run setup installs it into .tools/)').toBeDefined();
      const at = ['--address', s.temporalAddress, '--namespace', NAMESPACE, ...tlsCliArgs(s.temporalTls!)];
      const workflowId = intakeWorkflowId(openId);
      const listed = await runCli(cli!, ['workflow', 'list', ...at, '--api-key', readerToken, '--query', `WorkflowId = "${workflowId}"`, '--output', 'json']);
      expect(listed.code, listed.out).toBe(0);
      expect((JSON.parse(listed.out) as { execution: { workflowId: string } }[]).map((w) => w.execution.workflowId)).toEqual([workflowId]);
      const anonymous = await runCli(cli!, ['workflow', 'list', ...at]);
      expect(anonymous.code).not.toBe(0);
      expect(anonymous.out).toMatch(/unauthorized|permission/i);
      const terminate = await runCli(cli!, ['workflow', 'terminate', ...at, '--api-key', readerToken, '--workflow-id', workflowId, '--reason', 'authorization probe']);
      expect(terminate.code).not.toBe(0);
      expect(terminate.out).toMatch(/unauthorized|permission/i);
    });

    it('the Web UI\'s server reads with the reader token as Authorization header, and answers nothing without it', async () => {
      expect(s.uiUrl).toBeDefined();
      const url = `${s.uiUrl}/api/v1/namespaces/${NAMESPACE}/workflows?query=${encodeURIComponent(`WorkflowId = "${intakeWorkflowId(openId)}"`)}`;
      const read = await fetch(url, { headers: { authorization: `Bearer ${readerToken}` } });
      expect(read.status).toBe(200);
      expect(JSON.stringify(await read.json())).toContain(intakeWorkflowId(openId));
      const anonymous = await fetch(url);
      expect([401, 403]).toContain(anonymous.status);
      await anonymous.arrayBuffer();
    });

    it.skipIf(!fs.existsSync(CHROMIUM_PATH))(
      'in a browser sending the --web-ui reader token as Authorization header, the Web UI lists the intake workflows; with the namespace-only token it sends you to its login page',
      async () => {
        const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
        const workflowId = intakeWorkflowId(openId);
        const open = async (token: string) => {
          const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` } });
          const page = await context.newPage();
          await page.goto(`${s.uiUrl}/namespaces/${NAMESPACE}/workflows?query=${encodeURIComponent(`WorkflowId = "${workflowId}"`)}`);
          return page;
        };
        try {
          await (await open(webUiToken)).getByText(workflowId).first().waitFor({ timeout: 30_000 });
          // ListNamespaces and GetClusterInfo are cluster-wide reads: refused to a namespace-only token.
          await (await open(readerToken)).waitForURL(/\/login/, { timeout: 30_000 });
        } finally {
          await browser.close();
        }
      },
      90_000,
    );

    it.skipIf(!fs.existsSync(CHROMIUM_PATH))(
      'on-call reads decoded payloads: the Web UI with the --web-ui reader token and the console session decodes through the API\'s codec endpoint',
      async () => {
        const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
        try {
          const context = await browser.newContext();
          // The reader token goes to the Web UI only (as a header extension scoped to it would send it);
          // the codec endpoint gets the operator's console session, as the Web UI's includeCredentials sends it.
          await context.route(`${s.uiUrl}/**`, (route) => route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${webUiToken}` } }));
          const page = await context.newPage();
          const code = await createSigninCode(s.sql, { subject: 'bench-operator', issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + 3600_000) });
          await page.goto(`${s.apiUrl}/console/signin?code=${code}`);
          await page.waitForURL(/\/console(\/|$|\?)/, { timeout: 30_000 });
          expect(new URL(page.url()).searchParams.get('signin')).toBeNull();
          const decoded: number[] = [];
          page.on('response', (r) => void (r.url().includes('/temporal-codec/decode') && decoded.push(r.status())));
          await page.goto(`${s.uiUrl}/namespaces/${NAMESPACE}/workflows/${encodeURIComponent(intakeWorkflowId(openId))}`);
          // The run's input, decoded: its JSON names the submission (the history holds it encrypted).
          await page.locator('[data-testid="data-encoder-status-success"]').first().waitFor({ timeout: 30_000 });
          await page.getByText(`"submissionId": "${openId}"`).first().waitFor({ timeout: 30_000 });
          expect(decoded.length).toBeGreaterThan(0);
          expect(decoded.every((status) => status === 200), decoded.join(',')).toBe(true);
        } finally {
          await browser.close();
        }
      },
      120_000,
    );

    it('after the tokens they started with expired, the API and the worker still run an intake (their tokens were replaced)', async () => {
      // Past the expiry of the tokens the processes started with (minted before the stack was ready).
      const expiredAt = readyAt + (WRITER_TTL_SECONDS + 10) * 1000;
      while (Date.now() < expiredAt) await new Promise((r) => setTimeout(r, Math.min(1000, expiredAt - Date.now())));
      const id = await staged(s, jpeg(16 * 1024));
      expect(await drive(s, id, [], 120_000)).toBe('promoted_to_media_store');
    }, 240_000);
  });
}
