// The keys Temporal payloads are encrypted with (temporal/payload-codec.ts): TEMPORAL_PAYLOAD_KEYS,
// a comma list of `id:key` (32 bytes, base64 or 64 hex digits), the first one current. Without it
// (the embedded stack, tests) one key is generated into DATA_DIR/secrets on first use and shared
// by the API, the worker and the tools on that folder; production requires the variable.
import crypto from 'node:crypto';
import { loadOrCreateFile, parseSecretKey } from './secrets';

export interface PayloadKey {
  id: string;
  key: Buffer;
}

/** The embedded stack's key file under DATA_DIR/secrets (0600), in the variable's own format. */
export const PAYLOAD_KEY_FILE = 'temporal-payload.key';
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The keys of a TEMPORAL_PAYLOAD_KEYS value; undefined when an entry is not `id:key` or an id repeats. */
export function parsePayloadKeys(text: string): PayloadKey[] | undefined {
  const entries = text.split(',').map((e) => e.trim()).filter(Boolean);
  const keys: PayloadKey[] = [];
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const id = entry.slice(0, colon);
    const key = colon > 0 ? parseSecretKey(entry.slice(colon + 1)) : undefined;
    if (!key || !KEY_ID.test(id) || keys.some((k) => k.id === id)) return undefined;
    keys.push({ id, key });
  }
  return keys.length > 0 ? keys : undefined;
}

/** TEMPORAL_PAYLOAD_KEYS, else the embedded stack's generated key. */
export function payloadKeysOf(cfg: { TEMPORAL_PAYLOAD_KEYS?: string | undefined; DATA_DIR: string }): PayloadKey[] {
  const text =
    cfg.TEMPORAL_PAYLOAD_KEYS ??
    loadOrCreateFile(cfg.DATA_DIR, PAYLOAD_KEY_FILE, () => `local-${crypto.randomBytes(4).toString('hex')}:${crypto.randomBytes(32).toString('base64')}`);
  const keys = parsePayloadKeys(text);
  if (!keys) throw new Error(`TEMPORAL_PAYLOAD_KEYS${cfg.TEMPORAL_PAYLOAD_KEYS === undefined ? ` (${PAYLOAD_KEY_FILE} under DATA_DIR/secrets)` : ''}: expected a comma list of id:key, each key 32 bytes, base64 or hex`);
  return keys;
}
