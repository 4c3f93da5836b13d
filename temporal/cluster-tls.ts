// mTLS inside the real Temporal server (issue 55 item 4). Two certificate authorities, so a
// certificate that opens one door never opens the other:
//   - the cluster CA signs the servers' certificates (the public frontend's, serverAuth only) and
//     the internode certificate (serverAuth + clientAuth) the server's own services present to each
//     other on the internal frontend, history, matching, worker service and membership ports;
//   - the client CA signs the certificates of the public frontend's callers (the API, the worker,
//     the Web UI's server, the launcher, on-call's CLI), which the frontend requires and the
//     internode ports refuse (those map every caller to the internal admin).
// `npm start -- --temporal server` makes a local set under DATA_DIR/secrets/temporal-tls and renews
// it at start when a certificate nears its end; a cluster brings its own files in the same layout
// (TEMPORAL_SERVER_TLS_DIR, docs/deploy.md; the local set is issued by temporal/cluster-tls-issue.ts). The server re-reads them every minute (rotation without
// a restart); clients read theirs when they connect.
import fs from 'node:fs';
import path from 'node:path';

/** The public frontend's name in its certificate (clients check it: serverNameOverride, --tls-server-name). */
export const FRONTEND_SERVER_NAME = 'frontend.temporal.local';
/** The internode certificate's name (the services check it of each other). */
export const INTERNODE_SERVER_NAME = 'internode.temporal.local';

/** Who calls the public frontend with a client certificate of their own. */
export const CLIENT_IDENTITIES = ['api', 'worker', 'ui-server', 'launcher', 'on-call'] as const;
export type ClientIdentity = (typeof CLIENT_IDENTITIES)[number];

export interface PemPair {
  cert: string;
  key: string;
}

/** The files of one cluster (paths). */
export interface ClusterTls {
  dir: string;
  /** Trusted to verify the servers (frontend and internode certificates). */
  clusterCa: string;
  /** The frontend takes client certificates signed by it, and only those. */
  clientCa: string;
  frontend: PemPair;
  internode: PemPair;
}

/** What a client of the public frontend connects with (TEMPORAL_TLS_CA_FILE, _CERT_FILE, _KEY_FILE, _SERVER_NAME). */
export interface TemporalClientTls {
  ca: string;
  cert: string;
  key: string;
  serverName: string;
}

const LOCAL_TLS_DIR = path.join('secrets', 'temporal-tls');

/** The layout, in a directory of a cluster's own or the launcher's local one. */
export function clusterTlsAt(dir: string): ClusterTls {
  const pair = (name: string): PemPair => ({ cert: path.join(dir, `${name}.pem`), key: path.join(dir, `${name}.key`) });
  return { dir, clusterCa: path.join(dir, 'cluster-ca.pem'), clientCa: path.join(dir, 'client-ca.pem'), frontend: pair('frontend'), internode: pair('internode') };
}

export function clientPairAt(dir: string, who: ClientIdentity): PemPair {
  return { cert: path.join(dir, `client-${who}.pem`), key: path.join(dir, `client-${who}.key`) };
}

export function clientTlsOf(tls: ClusterTls, who: ClientIdentity): TemporalClientTls {
  return { ca: tls.clusterCa, ...clientPairAt(tls.dir, who), serverName: FRONTEND_SERVER_NAME };
}

export function localTlsDirOf(dataDir: string): string {
  return path.join(dataDir, LOCAL_TLS_DIR);
}

/** A cluster's own files (TEMPORAL_SERVER_TLS_DIR): every one must be there; none is made. */
export function providedClusterTls(dir: string): ClusterTls {
  const tls = clusterTlsAt(dir);
  const files = [tls.clusterCa, tls.clientCa, tls.frontend.cert, tls.frontend.key, tls.internode.cert, tls.internode.key, ...CLIENT_IDENTITIES.flatMap((w) => Object.values(clientPairAt(dir, w)))];
  const missing = files.filter((f) => !fs.existsSync(f));
  if (missing.length) throw new Error(`TEMPORAL_SERVER_TLS_DIR=${dir} lacks ${missing.map((f) => path.basename(f)).join(', ')} (docs/deploy.md: "Certificates")`);
  return tls;
}

/**
 * `global.tls` (indented under `global:`): internode TLS with client certificates from the cluster
 * CA on the internal frontend, history, matching and worker service ports (and membership, with
 * system.enableRingpopTLS); the public frontend (gRPC and HTTP) serving the frontend certificate and
 * requiring a client certificate from the client CA. Files re-read every minute.
 */
export function serverTlsConfig(tls: ClusterTls): string[] {
  const q = JSON.stringify;
  /** One group: the server side with its certificate and the CA its callers' certificates must come from; the client side checking the server's name. */
  const group = (name: string, pair: PemPair, callersCa: string, serverName: string) => [
    `  ${name}:`,
    '    server:',
    `      certFile: ${q(pair.cert)}`,
    `      keyFile: ${q(pair.key)}`,
    '      requireClientAuth: true',
    `      clientCaFiles: [${q(callersCa)}]`,
    '    client:',
    `      serverName: ${q(serverName)}`,
    `      rootCaFiles: [${q(tls.clusterCa)}]`,
  ];
  return [
    'tls:',
    '  refreshInterval: "1m"',
    '  expirationChecks:',
    '    warningWindow: "720h"',
    '    errorWindow: "168h"',
    '    checkInterval: "1h"',
    ...group('internode', tls.internode, tls.clusterCa, INTERNODE_SERVER_NAME),
    ...group('frontend', tls.frontend, tls.clientCa, FRONTEND_SERVER_NAME),
  ];
}

/** The SDK's TLS options (Connection and NativeConnection take the same shape) from a client's files. */
export function sdkTlsOf(t: TemporalClientTls): { serverNameOverride: string; serverRootCACertificate: Buffer; clientCertPair: { crt: Buffer; key: Buffer } } {
  return { serverNameOverride: t.serverName, serverRootCACertificate: fs.readFileSync(t.ca), clientCertPair: { crt: fs.readFileSync(t.cert), key: fs.readFileSync(t.key) } };
}

/** A client's files as the processes' environment names them (lib/config: TEMPORAL_TLS_*). */
export function clientTlsEnv(t: TemporalClientTls): { TEMPORAL_TLS_CA_FILE: string; TEMPORAL_TLS_CERT_FILE: string; TEMPORAL_TLS_KEY_FILE: string; TEMPORAL_TLS_SERVER_NAME: string } {
  return { TEMPORAL_TLS_CA_FILE: t.ca, TEMPORAL_TLS_CERT_FILE: t.cert, TEMPORAL_TLS_KEY_FILE: t.key, TEMPORAL_TLS_SERVER_NAME: t.serverName };
}

/** The temporal CLI's flags for a client's files (what the guides and `npm start` print). */
export function tlsCliArgs(t: TemporalClientTls): string[] {
  return ['--tls-ca-path', t.ca, '--tls-cert-path', t.cert, '--tls-key-path', t.key, '--tls-server-name', t.serverName];
}
