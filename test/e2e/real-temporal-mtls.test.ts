// Issue 55 item 4: mTLS inside the real Temporal server, as `npm start -- --temporal server` runs it
// (JWT authorizer and a local CA). Every write and admin call, sent to each of the server's service
// ports (frontend, internal frontend, history, matching, worker service) without the right client
// certificate, is refused: in plain text, over TLS with no certificate, with a certificate of a
// foreign CA, and (on the internode ports) with the API's own client certificate. The HTTP and
// membership ports refuse a TLS client without one. The server's own internode certificate opens the
// internal frontend (the probe reaches a real door), and on the public frontend a caller with a
// client certificate but no token is still refused by the JWT check.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { Client, Connection, WorkflowNotFoundError, type TLSConfig } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBenchStack, type BenchStack } from '../../bench/lib/stack';
import { create, createBody, jpeg } from '../../faults/client';
import { clientPairAt, clientTlsOf, clusterTlsAt, FRONTEND_SERVER_NAME, INTERNODE_SERVER_NAME, localTlsDirOf, sdkTlsOf } from '../../temporal/cluster-tls';
import { ensureLocalClusterTls } from '../../temporal/cluster-tls-issue';
import { mintTemporalToken, loadOrCreateTemporalSigningKey, SYSTEM_ADMIN_PERMISSION } from '../../temporal/tokens';
import { intakeWorkflowId } from '../../workflows/messages';
import { realServerOrSkip } from './real-temporal-suite';

const EventType = temporal.api.enums.v1.EventType;
type EventType = temporal.api.enums.v1.EventType;
const NAMESPACE = 'default';
const PROBE_NAMESPACE = 'mtls-probe';
/** gRPC PERMISSION_DENIED and UNAUTHENTICATED: the JWT check's refusals. */
const JWT_REFUSED = [7, 16];

interface ServicePorts {
  grpc: number;
  membership: number;
  http?: number;
}

/** The service ports the launcher wrote into the server's configuration (temporal/real-server.ts serverConfig). */
function servicePorts(configFile: string): Record<string, ServicePorts> {
  const text = fs.readFileSync(configFile, 'utf8');
  const services = text.slice(text.indexOf('\nservices:\n'), text.indexOf('\nclusterMetadata:'));
  const out: Record<string, ServicePorts> = {};
  for (const m of services.matchAll(/^ {2}([a-z-]+):\n {4}rpc:\n((?: {6}.*\n)+)/gm)) {
    const num = (key: string) => {
      const v = new RegExp(`${key}: (\\d+)`).exec(m[2]!)?.[1];
      return v === undefined ? undefined : Number(v);
    };
    out[m[1]!] = { grpc: num('grpcPort')!, membership: num('membershipPort')!, ...(num('httpPort') !== undefined ? { http: num('httpPort')! } : {}) };
  }
  return out;
}

function grpcCode(err: unknown): number | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (typeof e.code === 'number') return e.code;
  return undefined;
}

/** Every write and admin call the issue names, against one connection: the gRPC code each ended with ('ok' when it went through). */
async function writeCalls(connection: Connection, o: { workflowId: string; probeId: string; taskQueue: string }): Promise<Record<string, number | 'ok' | 'no code'>> {
  const ws = connection.workflowService;
  const execution = { workflowId: o.workflowId };
  const requestId = () => crypto.randomUUID();
  const workflowType = { name: 'portfolioIntake' };
  const taskQueue = { name: o.taskQueue };
  const calls: Record<string, () => Promise<unknown>> = {
    start: () => ws.startWorkflowExecution({ namespace: NAMESPACE, workflowId: o.probeId, workflowType, taskQueue, requestId: requestId() }),
    signal: () => ws.signalWorkflowExecution({ namespace: NAMESPACE, workflowExecution: execution, signalName: 'approve', requestId: requestId() }),
    signalWithStart: () => ws.signalWithStartWorkflowExecution({ namespace: NAMESPACE, workflowId: o.probeId, workflowType, taskQueue, signalName: 'approve', requestId: requestId() }),
    update: () => ws.updateWorkflowExecution({ namespace: NAMESPACE, workflowExecution: execution, request: { meta: { updateId: requestId() }, input: { name: 'approve' } }, waitPolicy: { lifecycleStage: 2 } }),
    cancel: () => ws.requestCancelWorkflowExecution({ namespace: NAMESPACE, workflowExecution: execution, requestId: requestId() }),
    terminate: () => ws.terminateWorkflowExecution({ namespace: NAMESPACE, workflowExecution: execution, reason: 'mTLS probe' }),
    reset: () => ws.resetWorkflowExecution({ namespace: NAMESPACE, workflowExecution: execution, reason: 'mTLS probe', workflowTaskFinishEventId: 3 as never, requestId: requestId() }),
    delete: () => ws.deleteWorkflowExecution({ namespace: NAMESPACE, workflowExecution: execution }),
    batchTerminate: () => ws.startBatchOperation({ namespace: NAMESPACE, jobId: `mtls-probe-${requestId()}`, reason: 'mTLS probe', visibilityQuery: 'WorkflowType = "portfolioIntake"', terminationOperation: {} }),
    createSchedule: () =>
      ws.createSchedule({
        namespace: NAMESPACE,
        scheduleId: 'mtls-probe',
        schedule: { spec: { interval: [{ interval: msToTs('1 hour') }] }, action: { startWorkflow: { workflowId: o.probeId, workflowType, taskQueue } } },
        requestId: requestId(),
      }),
    registerNamespace: () => ws.registerNamespace({ namespace: PROBE_NAMESPACE, workflowExecutionRetentionPeriod: msToTs('1 day') }),
    updateNamespace: () => ws.updateNamespace({ namespace: NAMESPACE, updateInfo: { description: 'mTLS probe' } }),
    addSearchAttributes: () => connection.operatorService.addSearchAttributes({ namespace: NAMESPACE, searchAttributes: { MtlsProbe: 2 } }),
    pollWorkflowTasks: () => ws.pollWorkflowTaskQueue({ namespace: NAMESPACE, taskQueue, identity: 'mtls-probe' }),
    pollActivityTasks: () => ws.pollActivityTaskQueue({ namespace: NAMESPACE, taskQueue, identity: 'mtls-probe' }),
    setDeploymentVersion: () => ws.setWorkerDeploymentCurrentVersion({ namespace: NAMESPACE, deploymentName: 'mtls-probe', buildId: 'mtls-probe', identity: 'mtls-probe' }),
  };
  const out: Record<string, number | 'ok' | 'no code'> = {};
  for (const [name, call] of Object.entries(calls)) {
    try {
      await call();
      out[name] = 'ok';
    } catch (err) {
      out[name] = grpcCode(err) ?? 'no code';
    }
  }
  return out;
}

/** A TLS client at a port: 'refused' when the handshake or the first read fails, 'open' when the server talks back. */
function tlsProbe(port: number, options: tls.ConnectionOptions): Promise<'refused' | 'open'> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ...options });
    let done = false;
    const end = (r: 'refused' | 'open') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    // TLS 1.3: the client's handshake completes before the server checks its certificate; the
    // server's alert (or close) comes with the first read. An HTTP request asks for an answer.
    socket.once('secureConnect', () => socket.write('GET / HTTP/1.1\r\nHost: probe\r\n\r\n'));
    socket.once('data', () => end('open'));
    socket.once('error', () => end('refused'));
    socket.once('close', () => end('refused'));
    const timer = setTimeout(() => end('open'), 5_000);
  });
}

/** Plain TCP at a TLS port: bytes that are not a handshake get a close, never an answer in plain text. */
function plainProbe(port: number): Promise<'refused' | 'open'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: probe\r\n\r\n'));
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    const end = () => {
      clearTimeout(timer);
      socket.destroy();
      // Go's HTTP server on a TLS listener answers a plain request with a 400 saying so, then closes.
      resolve(got.length === 0 || (/^HTTP\/1\.[01] 400/.test(got) && /HTTPS/.test(got)) ? 'refused' : 'open');
    };
    socket.once('error', end);
    socket.once('close', end);
    const timer = setTimeout(end, 5_000);
  });
}

const bin = realServerOrSkip('mTLS inside the real Temporal server');
if (bin) {
  describe('mTLS inside the real Temporal server', () => {
    let s: BenchStack;
    let ports: Record<string, ServicePorts>;
    let openId: string;
    let foreign: { ca: string; cert: string; key: string };
    const tlsDir = () => localTlsDirOf(s.dataDir);

    beforeAll(async () => {
      s = await startBenchStack({ realTemporal: bin, temporalAuth: 'jwt' });
      ports = servicePorts(path.join(s.dir, 'temporal-server', 'config', 'development.yaml'));
      // A CA of another cluster: its client certificates are well formed, signed by nobody we trust.
      const other = await ensureLocalClusterTls(fs.mkdtempSync(path.join(s.dir, 'foreign-')));
      foreign = { ca: other.tls.clusterCa, ...clientPairAt(other.tls.dir, 'on-call') };
      openId = (await create(s, createBody(s, { sizeBytes: jpeg(16 * 1024).length }))).id;
    }, 300_000);

    afterAll(async () => {
      await s?.stop();
    }, 120_000);

    it('the launcher made the local CA set with private keys, and every service of the cluster listens', () => {
      expect(Object.keys(ports).sort()).toEqual(['frontend', 'history', 'internal-frontend', 'matching', 'worker']);
      // Below the ephemeral range (temporal/real-server.ts serverPort): a port picked seconds before the
      // server binds it is never one another process gets by binding port 0 meanwhile.
      for (const p of Object.values(ports)) for (const port of [p.grpc, p.membership, p.http]) if (port !== undefined) expect(port).toBeLessThan(32768);
      for (const file of fs.readdirSync(tlsDir()).filter((f) => f.endsWith('.key'))) expect(fs.statSync(path.join(tlsDir(), file)).mode & 0o077, file).toBe(0);
      expect(s.temporalTls).toEqual(clientTlsOf(clusterTlsAt(tlsDir()), 'on-call'));
    });

    it('every write and admin call to each service port without the right client certificate is refused, and nothing moved', async () => {
      const cluster = clusterTlsAt(tlsDir());
      const ca = fs.readFileSync(cluster.clusterCa);
      const api = clientTlsOf(cluster, 'api');
      const callers: Record<string, (service: string) => TLSConfig | false | undefined> = {
        plaintext: () => false,
        'TLS, no certificate': (service) => ({ serverRootCACertificate: ca, serverNameOverride: service === 'frontend' ? FRONTEND_SERVER_NAME : INTERNODE_SERVER_NAME }),
        'foreign CA certificate': (service) => ({
          serverRootCACertificate: ca,
          serverNameOverride: service === 'frontend' ? FRONTEND_SERVER_NAME : INTERNODE_SERVER_NAME,
          clientCertPair: { crt: fs.readFileSync(foreign.cert), key: fs.readFileSync(foreign.key) },
        }),
        // The public frontend's callers hold client-CA certificates: they open no internode port.
        "the API's client certificate": (service) =>
          service === 'frontend' ? undefined : { serverRootCACertificate: ca, serverNameOverride: INTERNODE_SERVER_NAME, clientCertPair: { crt: fs.readFileSync(api.cert), key: fs.readFileSync(api.key) } },
      };
      const workflowId = intakeWorkflowId(openId);
      const probeId = `mtls-probe-${crypto.randomUUID()}`;
      const reader = new Client({ connection: Connection.lazy({ address: s.temporalAddress, tls: sdkTlsOf(s.temporalTls!), apiKey: mintTemporalToken(loadOrCreateTemporalSigningKey(s.dataDir), { subject: 'mtls-test', permissions: [SYSTEM_ADMIN_PERMISSION], ttlSeconds: 600 }) }), namespace: NAMESPACE });
      const wentThrough: string[] = [];
      let tried = 0;
      for (const [service, p] of Object.entries(ports)) {
        for (const [who, tlsFor] of Object.entries(callers)) {
          const t = tlsFor(service);
          if (t === undefined) continue;
          // No retries (an outsider's client): each refusal comes back at once.
          const connection = Connection.lazy({ address: `127.0.0.1:${p.grpc}`, tls: t, interceptors: [], connectTimeout: 5_000 });
          try {
            const codes = await writeCalls(connection, { workflowId, probeId, taskQueue: s.taskQueue });
            for (const [call, code] of Object.entries(codes)) {
              tried++;
              // UNAVAILABLE: the TLS handshake (or the plain bytes) refused before any call was read.
              if (code !== 14) wentThrough.push(`${service} ${who} ${call}: ${code}`);
            }
          } finally {
            await connection.close();
          }
        }
      }
      expect(wentThrough).toEqual([]);
      expect(tried).toBe(16 * (4 * 4 + 3));
      // Nothing moved: the open run took no signal, Update, cancel or termination (it goes on by
      // itself, waiting for its upload); no probe run, namespace, search attribute or schedule.
      const after = await reader.workflow.getHandle(workflowId).describe();
      expect(after.status.name).toBe('RUNNING');
      const events = (await reader.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
      const moved = events.map((e) => e.eventType ?? 0).filter((t) => [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED].includes(t as EventType));
      expect(moved).toEqual([]);
      await expect(reader.workflow.getHandle(probeId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
      await expect(reader.connection.workflowService.describeNamespace({ namespace: PROBE_NAMESPACE })).rejects.toThrow(/not found/i);
      const attrs = await reader.connection.operatorService.listSearchAttributes({ namespace: NAMESPACE });
      expect(Object.keys(attrs.customAttributes)).not.toContain('MtlsProbe');
      await expect(reader.schedule.getHandle('mtls-probe').describe()).rejects.toThrow(/not found/i);
      await reader.connection.close();
    }, 240_000);

    it('the HTTP and membership ports refuse a client without the right certificate too', async () => {
      const cluster = clusterTlsAt(tlsDir());
      const ca = fs.readFileSync(cluster.clusterCa);
      const api = clientTlsOf(cluster, 'api');
      const open: string[] = [];
      const internode = { ca, servername: INTERNODE_SERVER_NAME };
      for (const [service, p] of Object.entries(ports)) {
        const targets: [string, number, tls.ConnectionOptions][] = [[`${service} membership`, p.membership, internode]];
        if (p.http !== undefined) targets.push([`${service} http`, p.http, { ca, servername: FRONTEND_SERVER_NAME }]);
        for (const [what, port, base] of targets) {
          if ((await plainProbe(port)) !== 'refused') open.push(`${what}: plain`);
          if ((await tlsProbe(port, base)) !== 'refused') open.push(`${what}: TLS, no certificate`);
          if ((await tlsProbe(port, { ...base, cert: fs.readFileSync(foreign.cert), key: fs.readFileSync(foreign.key) })) !== 'refused') open.push(`${what}: foreign certificate`);
          if (what.endsWith('membership') && (await tlsProbe(port, { ...base, cert: fs.readFileSync(api.cert), key: fs.readFileSync(api.key) })) !== 'refused') open.push(`${what}: the API's certificate`);
        }
      }
      expect(ports.frontend!.http).toBeDefined();
      expect(open).toEqual([]);
      // The probe can see an open door: the frontend's HTTP port answers a client with on-call's certificate.
      const onCall = s.temporalTls!;
      expect(await tlsProbe(ports.frontend!.http!, { ca, servername: FRONTEND_SERVER_NAME, cert: fs.readFileSync(onCall.cert), key: fs.readFileSync(onCall.key) })).toBe('open');
    }, 120_000);

    it("the server's own internode certificate opens the internal frontend (the probe reaches a real door, which only certificates guard)", async () => {
      const cluster = clusterTlsAt(tlsDir());
      const connection = await Connection.connect({
        address: `127.0.0.1:${ports['internal-frontend']!.grpc}`,
        tls: { serverRootCACertificate: fs.readFileSync(cluster.clusterCa), serverNameOverride: INTERNODE_SERVER_NAME, clientCertPair: { crt: fs.readFileSync(cluster.internode.cert), key: fs.readFileSync(cluster.internode.key) } },
      });
      try {
        const ns = await connection.workflowService.describeNamespace({ namespace: NAMESPACE });
        expect(ns.namespaceInfo?.name).toBe(NAMESPACE);
      } finally {
        await connection.close();
      }
    });

    it('on the public frontend, a client with a certificate but no token is still refused by the JWT check', async () => {
      const connection = Connection.lazy({ address: s.temporalAddress, tls: sdkTlsOf(s.temporalTls!), interceptors: [] });
      try {
        const codes = await writeCalls(connection, { workflowId: intakeWorkflowId(openId), probeId: `mtls-probe-${crypto.randomUUID()}`, taskQueue: s.taskQueue });
        for (const [call, code] of Object.entries(codes)) expect(JWT_REFUSED, `${call}: ${code}`).toContain(code);
      } finally {
        await connection.close();
      }
    });
  });
}
