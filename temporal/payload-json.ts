// Payloads in protobuf JSON (bytes as base64), as the remote codec protocol and history JSON write
// them: to and from the SDK's Payload, and every encrypted payload of a JSON document decoded.
import type { Payload, PayloadCodec } from '@temporalio/common';
import { ENCRYPTED_ENCODING } from './payload-codec';

export interface JsonPayload {
  metadata?: Record<string, string> | undefined;
  data?: string | undefined;
}

export const payloadFromJson = (p: JsonPayload): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  ...(p.data !== undefined ? { data: Buffer.from(p.data, 'base64') } : {}),
});

export const payloadToJson = (p: Payload): { metadata: Record<string, string>; data: string } => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')])),
  data: Buffer.from(p.data ?? []).toString('base64'),
});

const ENCRYPTED_B64 = Buffer.from(ENCRYPTED_ENCODING).toString('base64');
const isEncrypted = (v: object): v is { metadata: Record<string, string>; data: string } =>
  'metadata' in v && typeof v.metadata === 'object' && v.metadata !== null && (v.metadata as Record<string, unknown>).encoding === ENCRYPTED_B64;

/** A JSON document (a history in JSON) with each encrypted payload replaced by its decoded one. */
export async function decodeJsonPayloads(value: unknown, codec: PayloadCodec): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((v) => decodeJsonPayloads(v, codec)));
  if (!value || typeof value !== 'object') return value;
  if (isEncrypted(value)) {
    const [decoded] = await codec.decode([payloadFromJson(value)]);
    return payloadToJson(decoded!);
  }
  const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await decodeJsonPayloads(v, codec)] as const));
  return Object.fromEntries(entries);
}
