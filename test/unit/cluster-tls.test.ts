// The real server's local CA set (issue 55 item 4): two CAs whose certificates open different doors,
// the usages and names each leaf carries, private keys, renewal at start, the server's TLS block,
// and how a process's TEMPORAL_TLS_* files become the SDK's TLS options.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiConfigSchema } from '../../lib/config/schema';
import { clientPairAt, clientTlsEnv, clientTlsOf, FRONTEND_SERVER_NAME, INTERNODE_SERVER_NAME, providedClusterTls, serverTlsConfig } from '../../temporal/cluster-tls';
import { ensureLocalClusterTls, LEAF_RENEW_DAYS } from '../../temporal/cluster-tls-issue';
import { temporalConnectionOptions } from '../../temporal/connection';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const cert = (file: string) => new crypto.X509Certificate(fs.readFileSync(file));
const DAY = 86_400_000;

describe('the local CA set', () => {
  it('signs servers and internode with the cluster CA, callers with the client CA, and neither CA vouches for the other\'s', async () => {
    const { tls, issued } = await ensureLocalClusterTls(path.join(root, 'a'));
    expect(issued).toHaveLength(2 + 2 + 5);
    const clusterCa = cert(tls.clusterCa);
    const clientCa = cert(tls.clientCa);
    expect(clusterCa.ca && clientCa.ca).toBe(true);
    const frontend = cert(tls.frontend.cert);
    const internode = cert(tls.internode.cert);
    const api = cert(clientPairAt(tls.dir, 'api').cert);
    expect(frontend.verify(clusterCa.publicKey) && internode.verify(clusterCa.publicKey)).toBe(true);
    expect(api.verify(clientCa.publicKey)).toBe(true);
    // A client certificate is no internode certificate, and the other way round.
    expect(api.verify(clusterCa.publicKey)).toBe(false);
    expect(internode.verify(clientCa.publicKey)).toBe(false);
    expect(frontend.ca || internode.ca || api.ca).toBe(false);
    // Names the clients check, and what each may be used for (server 1.3.6.1.5.5.7.3.1, client .2).
    expect(frontend.checkHost(FRONTEND_SERVER_NAME)).toBe(FRONTEND_SERVER_NAME);
    expect(frontend.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(internode.checkHost(INTERNODE_SERVER_NAME)).toBe(INTERNODE_SERVER_NAME);
    expect(frontend.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect([...internode.keyUsage].sort()).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(api.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(api.subject).toContain('tattoo-intake-api');
    // Each key pairs with its certificate, and is readable by its owner only.
    const key = crypto.createPrivateKey(fs.readFileSync(tls.internode.key));
    expect(internode.checkPrivateKey(key)).toBe(true);
    for (const f of fs.readdirSync(tls.dir).filter((n) => n.endsWith('.key'))) expect(fs.statSync(path.join(tls.dir, f)).mode & 0o077, f).toBe(0);
    expect(fs.statSync(tls.dir).mode & 0o077).toBe(0);
  });

  it('a second start issues nothing; a leaf within 30 days of its end is issued again; an ending CA takes every leaf with it', async () => {
    const dataDir = path.join(root, 'b');
    const first = await ensureLocalClusterTls(dataDir);
    const serial = (f: string) => cert(f).serialNumber;
    const before = serial(first.tls.frontend.cert);
    expect((await ensureLocalClusterTls(dataDir)).issued).toEqual([]);
    // 61 days on, the 90-day leaves have 29 left: all of them again, the CAs (730 days) kept.
    const later = new Date(Date.now() + (90 - LEAF_RENEW_DAYS + 1) * DAY);
    const renewed = await ensureLocalClusterTls(dataDir, later);
    expect(renewed.issued).not.toContain('cluster-ca.pem');
    expect(renewed.issued).toContain('frontend.pem');
    expect(renewed.issued).toContain('client-on-call.pem');
    expect(serial(first.tls.frontend.cert)).not.toBe(before);
    expect(cert(first.tls.frontend.cert).verify(cert(first.tls.clusterCa).publicKey)).toBe(true);
    // 680 days on, the CAs have 50 left: new CAs and every leaf from them.
    const caEnd = await ensureLocalClusterTls(dataDir, new Date(Date.now() + 680 * DAY));
    expect(caEnd.issued).toHaveLength(9);
    expect(cert(first.tls.internode.cert).verify(cert(first.tls.clusterCa).publicKey)).toBe(true);
  });

  it("a cluster's own folder must hold every file; none is made there", () => {
    const dir = fs.mkdtempSync(path.join(root, 'provided-'));
    fs.writeFileSync(path.join(dir, 'cluster-ca.pem'), '');
    expect(() => providedClusterTls(dir)).toThrow(/lacks client-ca\.pem, frontend\.pem/);
    expect(fs.readdirSync(dir)).toEqual(['cluster-ca.pem']);
  });
});

describe('the server block and the clients', () => {
  it('internode requires the cluster CA, the frontend the client CA, both with client certificates', async () => {
    const { tls } = await ensureLocalClusterTls(path.join(root, 'c'));
    const text = serverTlsConfig(tls).join('\n');
    const block = (name: string) => text.slice(text.indexOf(`  ${name}:`)).split('\n').slice(0, 8).join('\n');
    expect(block('internode')).toContain(`clientCaFiles: [${JSON.stringify(tls.clusterCa)}]`);
    expect(block('frontend')).toContain(`clientCaFiles: [${JSON.stringify(tls.clientCa)}]`);
    expect(text.match(/requireClientAuth: true/g)).toHaveLength(2);
  });

  it('TEMPORAL_TLS_* files become the SDK\'s mTLS options; a certificate without its key is refused', async () => {
    const { tls } = await ensureLocalClusterTls(path.join(root, 'd'));
    const files = clientTlsOf(tls, 'worker');
    const opts = temporalConnectionOptions({ DATA_DIR: root, TEMPORAL_NAMESPACE: 'default', TEMPORAL_ADDRESS: '127.0.0.1:7233', TEMPORAL_TLS: false, ...clientTlsEnv(files) });
    expect(opts.tls).toEqual({
      serverNameOverride: FRONTEND_SERVER_NAME,
      serverRootCACertificate: fs.readFileSync(tls.clusterCa),
      clientCertPair: { crt: fs.readFileSync(files.cert), key: fs.readFileSync(files.key) },
    });
    const r = apiConfigSchema.safeParse({ TEMPORAL_TLS_CERT_FILE: files.cert });
    expect(r.error?.issues.map((i) => i.path[0])).toContain('TEMPORAL_TLS_KEY_FILE');
  });
});
