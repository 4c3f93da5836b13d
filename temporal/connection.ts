// The one place that turns the app's configuration into a Temporal connection: address
// (TEMPORAL_ADDRESS or the embedded default), namespace, API key / TLS, and the data converter
// that encrypts payloads (TEMPORAL_PAYLOAD_KEYS). The API uses the client half, the worker the
// native half and the same data converter.
import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { NativeConnection } from '@temporalio/worker';
import { temporalAddressOf } from '../lib/config';
import { payloadKeysOf } from '../lib/payload-keys';
import { encryptionCodec } from './payload-codec';

/** The config fields a Temporal connection needs (ApiConfig and WorkerConfig both carry them). */
export interface TemporalConnectionConfig {
  TEMPORAL_ADDRESS?: string | undefined;
  TEMPORAL_NAMESPACE: string;
  TEMPORAL_API_KEY?: string | undefined;
  TEMPORAL_TLS: boolean;
  TEMPORAL_PAYLOAD_KEYS?: string | undefined;
  /** Where the embedded stack's payload key lives when TEMPORAL_PAYLOAD_KEYS is unset. */
  DATA_DIR: string;
}

/** Options both `Connection` (client) and `NativeConnection` (worker) accept. */
export interface TemporalConnectionOptions {
  address: string;
  /** An API key implies TLS (Temporal Cloud). */
  apiKey?: string;
  tls?: boolean;
}

export function temporalConnectionOptions(cfg: TemporalConnectionConfig): TemporalConnectionOptions {
  const address = temporalAddressOf(cfg);
  if (cfg.TEMPORAL_API_KEY) return { address, apiKey: cfg.TEMPORAL_API_KEY, tls: true };
  if (cfg.TEMPORAL_TLS) return { address, tls: true };
  return { address };
}

/** What every client, worker and replayer of the project converts payloads with: encrypted under TEMPORAL_PAYLOAD_KEYS. */
export function temporalDataConverter(cfg: Pick<TemporalConnectionConfig, 'TEMPORAL_PAYLOAD_KEYS' | 'DATA_DIR'>): DataConverter {
  return { payloadCodecs: [encryptionCodec(payloadKeysOf(cfg))] };
}

/**
 * A lazy client connection: nothing is dialled until the first call, so the API starts (and
 * reports `blocked`) even while Temporal is away. The caller closes `connection`.
 */
export function createTemporalClient(cfg: TemporalConnectionConfig): { client: Client; connection: Connection } {
  const connection = Connection.lazy(temporalConnectionOptions(cfg));
  const client = new Client({ connection, namespace: cfg.TEMPORAL_NAMESPACE, dataConverter: temporalDataConverter(cfg) });
  return { client, connection };
}

/**
 * A client of a stack the launcher started (the tools, benches and fault suites): its Temporal
 * address and the payload key its API and worker share under its DATA_DIR.
 */
export function stackTemporalClient(stack: { temporalAddress: string; dataDir: string }, namespace = 'default'): { client: Client; connection: Connection } {
  return createTemporalClient({ TEMPORAL_ADDRESS: stack.temporalAddress, TEMPORAL_NAMESPACE: namespace, TEMPORAL_TLS: false, DATA_DIR: stack.dataDir });
}

/**
 * The worker's native connection, connected now. `@temporalio/worker` (native core bridge) is
 * loaded on first use only, so the API, which imports this module too, never loads it.
 */
export async function connectWorkerConnection(cfg: TemporalConnectionConfig): Promise<NativeConnection> {
  const { NativeConnection } = await import('@temporalio/worker');
  return NativeConnection.connect(temporalConnectionOptions(cfg));
}
