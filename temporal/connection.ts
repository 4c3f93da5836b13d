// The one place that turns the app's configuration into a Temporal connection: address
// (TEMPORAL_ADDRESS or the embedded default), namespace, API key / TLS, or (TEMPORAL_AUTH=jwt)
// short-lived tokens this process signs itself (temporal/tokens.ts), and the data converter that
// encrypts payloads (TEMPORAL_PAYLOAD_KEYS). The API uses the client half, the worker the native
// half and the same data converter.
import fs from 'node:fs';
import { Client, Connection, type TLSConfig } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { NativeConnection } from '@temporalio/worker';
import { temporalAddressOf } from '../lib/config';
import { payloadKeysOf } from '../lib/payload-keys';
import { clientTlsEnv, type TemporalClientTls } from './cluster-tls';
import { encryptionCodec } from './payload-codec';
import { namespacePermission, readTemporalSigningKey, temporalKeyFileOf, tokenSource, type TokenSource } from './tokens';

/** The config fields a Temporal connection needs (ApiConfig and WorkerConfig both carry them). */
export interface TemporalConnectionConfig {
  TEMPORAL_ADDRESS?: string | undefined;
  TEMPORAL_NAMESPACE: string;
  TEMPORAL_API_KEY?: string | undefined;
  TEMPORAL_TLS: boolean;
  TEMPORAL_TLS_CA_FILE?: string | undefined;
  TEMPORAL_TLS_CERT_FILE?: string | undefined;
  TEMPORAL_TLS_KEY_FILE?: string | undefined;
  TEMPORAL_TLS_SERVER_NAME?: string | undefined;
  TEMPORAL_PAYLOAD_KEYS?: string | undefined;
  /** Where the embedded stack's payload key (and the token key, TEMPORAL_AUTH=jwt) live when not configured. */
  DATA_DIR: string;
  TEMPORAL_AUTH?: 'none' | 'jwt' | undefined;
  TEMPORAL_JWT_KEY_FILE?: string | undefined;
  TEMPORAL_TOKEN_TTL_SECONDS?: number | undefined;
}

/** Who presents the tokens (their `sub`): the frontend logs it as the caller's principal. */
export type TemporalCaller = 'api' | 'worker';

/** Options both `Connection` (client) and `NativeConnection` (worker) accept. */
export interface TemporalConnectionOptions {
  address: string;
  /** Temporal Cloud's API key (TLS with it). */
  apiKey?: string;
  tls: boolean | TLSConfig;
}

/** The TLS the config asks for: a client certificate and a CA (mTLS: files read now), plain TLS, or none. */
export function temporalTlsOf(cfg: TemporalConnectionConfig): boolean | TLSConfig {
  const files = [cfg.TEMPORAL_TLS_CA_FILE, cfg.TEMPORAL_TLS_CERT_FILE, cfg.TEMPORAL_TLS_KEY_FILE, cfg.TEMPORAL_TLS_SERVER_NAME];
  if (files.every((f) => f === undefined)) return cfg.TEMPORAL_TLS;
  return {
    ...(cfg.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: cfg.TEMPORAL_TLS_SERVER_NAME } : {}),
    ...(cfg.TEMPORAL_TLS_CA_FILE ? { serverRootCACertificate: fs.readFileSync(cfg.TEMPORAL_TLS_CA_FILE) } : {}),
    ...(cfg.TEMPORAL_TLS_CERT_FILE && cfg.TEMPORAL_TLS_KEY_FILE ? { clientCertPair: { crt: fs.readFileSync(cfg.TEMPORAL_TLS_CERT_FILE), key: fs.readFileSync(cfg.TEMPORAL_TLS_KEY_FILE) } } : {}),
  };
}

export function temporalConnectionOptions(cfg: TemporalConnectionConfig): TemporalConnectionOptions {
  const address = temporalAddressOf(cfg);
  const tls = temporalTlsOf(cfg);
  if (cfg.TEMPORAL_API_KEY) return { address, apiKey: cfg.TEMPORAL_API_KEY, tls: tls === false ? true : tls };
  // Always explicit: the SDK turns TLS on by itself when an apiKey is given, and the tokens of
  // TEMPORAL_AUTH=jwt go to a frontend that may serve plain gRPC (the dev server, on loopback).
  return { address, tls };
}

/** With TEMPORAL_AUTH=jwt: tokens with write permission on the namespace, from the configured key. */
export function writerTokens(cfg: TemporalConnectionConfig, caller: TemporalCaller): TokenSource | undefined {
  if (cfg.TEMPORAL_AUTH !== 'jwt') return undefined;
  return tokenSource(readTemporalSigningKey(temporalKeyFileOf(cfg)), {
    subject: `tattoo-intake-${caller}`,
    permissions: [namespacePermission(cfg.TEMPORAL_NAMESPACE, 'write')],
    ttlSeconds: cfg.TEMPORAL_TOKEN_TTL_SECONDS ?? 900,
  });
}

/** What every client, worker and replayer of the project converts payloads with: encrypted under TEMPORAL_PAYLOAD_KEYS. */
export function temporalDataConverter(cfg: Pick<TemporalConnectionConfig, 'TEMPORAL_PAYLOAD_KEYS' | 'DATA_DIR'>): DataConverter {
  return { payloadCodecs: [encryptionCodec(payloadKeysOf(cfg))] };
}

/**
 * A lazy client connection: nothing is dialled until the first call, so the API starts (and
 * reports `blocked`) even while Temporal is away. The caller closes `connection`. Each call asks
 * the token source, which replaces the token before it gets old.
 */
export function createTemporalClient(cfg: TemporalConnectionConfig, caller: TemporalCaller): { client: Client; connection: Connection } {
  const tokens = writerTokens(cfg, caller);
  const connection = Connection.lazy({ ...temporalConnectionOptions(cfg), ...(tokens ? { apiKey: () => tokens.current() } : {}) });
  const client = new Client({ connection, namespace: cfg.TEMPORAL_NAMESPACE, dataConverter: temporalDataConverter(cfg) });
  return { client, connection };
}

/**
 * A client of a stack the launcher started (the tools, benches and fault suites): its Temporal
 * address and the payload key its API and worker share under its DATA_DIR.
 */
export function stackTemporalClient(stack: { temporalAddress: string; dataDir: string; temporalTls?: TemporalClientTls | undefined }, namespace = 'default'): { client: Client; connection: Connection } {
  // No TEMPORAL_AUTH here: a stack whose real server runs the authorizer is read with a token of its
  // own (npm run iam -- temporal-token). With mTLS, the on-call client certificate the stack names.
  return createTemporalClient({ TEMPORAL_ADDRESS: stack.temporalAddress, TEMPORAL_NAMESPACE: namespace, TEMPORAL_TLS: false, DATA_DIR: stack.dataDir, ...(stack.temporalTls ? clientTlsEnv(stack.temporalTls) : {}) }, 'api');
}

/**
 * The worker's native connection, connected now. `@temporalio/worker` (native core bridge) is
 * loaded on first use only, so the API, which imports this module too, never loads it. The native
 * connection takes a string, so a timer hands it a fresh token before the one it holds expires.
 */
export async function connectWorkerConnection(cfg: TemporalConnectionConfig): Promise<NativeConnection> {
  const { NativeConnection } = await import('@temporalio/worker');
  const tokens = writerTokens(cfg, 'worker');
  const connection = await NativeConnection.connect({ ...temporalConnectionOptions(cfg), ...(tokens ? { apiKey: tokens.current() } : {}) });
  if (!tokens) return connection;
  let held = tokens.current();
  const timer = setInterval(() => {
    const next = tokens.current();
    if (next === held) return;
    // Held only once the connection took it: a failed hand-over is tried again on the next tick.
    connection.setApiKey(next).then(() => (held = next), () => {});
  }, Math.min(tokens.refreshMs, 60_000));
  timer.unref();
  const close = connection.close.bind(connection);
  connection.close = async () => {
    clearInterval(timer);
    await close();
  };
  return connection;
}
