import { Client, Connection } from '@temporalio/client';

export interface TemporalTarget {
  address: string;
  namespace: string;
  apiKey?: string | undefined;
  tls?: boolean | undefined;
}

export async function connectClient(t: TemporalTarget): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({
    address: t.address,
    connectTimeout: 5000,
    ...(t.apiKey ? { apiKey: t.apiKey, tls: true } : t.tls ? { tls: true } : {}),
  });
  return { client: new Client({ connection, namespace: t.namespace }), connection };
}
