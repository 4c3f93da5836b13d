// Payloads encrypted before they leave the process: partner text, operator notes and decision
// proofs never sit in clear in a workflow history. AES-256-GCM over the whole serialized Payload
// (its metadata too, so even the encoding is hidden); the outer payload names only
// `encoding: binary/encrypted` and the id of the key that sealed it. The current key encrypts; every
// configured key decrypts, so a rotation leaves older histories readable. A payload without that
// encoding (recorded before encryption, or sent by a client without the codec) passes through.
import crypto from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
// A CommonJS package: its default export under plain Node ESM (dist/), named exports only under tsx.
import proto from '@temporalio/proto';
import type { PayloadKey } from '../lib/payload-keys';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
const { Payload: PayloadProto } = proto.temporal.api.common.v1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A payload this codec cannot open: its key is not configured, or it does not authenticate. */
export class PayloadDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PayloadDecryptionError';
  }
}

const text = (b: Uint8Array | null | undefined) => (b ? Buffer.from(b).toString('utf8') : undefined);
// The key id is authenticated too: a payload relabelled with another key's id does not open.
const aadOf = (keyId: string) => Buffer.from(`${ENCRYPTED_ENCODING}:${keyId}`);

/** The codec over `keys`: the first encrypts, all of them decrypt. */
export function encryptionCodec(keys: readonly PayloadKey[]): PayloadCodec {
  const [current] = keys;
  if (!current) throw new Error('the payload codec needs at least one key');
  for (const k of keys) if (k.key.length !== 32) throw new Error(`payload key ${k.id}: an AES-256 key is 32 bytes`);
  // Key objects made once: a raw key is checked and wrapped again by every cipher made with it.
  const byId = new Map(keys.map((k) => [k.id, crypto.createSecretKey(k.key)]));
  if (byId.size !== keys.length) throw new Error('payload key ids must be unique');
  const currentKey = byId.get(current.id)!;

  const seal = (p: Payload): Payload => {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', currentKey, iv);
    cipher.setAAD(aadOf(current.id));
    const plain = PayloadProto.encode(p).finish();
    return {
      metadata: { [METADATA_ENCODING_KEY]: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: Buffer.from(current.id) },
      data: Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]),
    };
  };

  const open = (p: Payload): Payload => {
    if (text(p.metadata?.[METADATA_ENCODING_KEY]) !== ENCRYPTED_ENCODING) return p;
    const keyId = text(p.metadata?.[KEY_ID_METADATA]);
    const key = keyId === undefined ? undefined : byId.get(keyId);
    if (!key) throw new PayloadDecryptionError(`payload encrypted under key id ${JSON.stringify(keyId ?? null)}, which is not one of TEMPORAL_PAYLOAD_KEYS (configured: ${[...byId.keys()].join(', ')})`);
    const raw = Buffer.from(p.data ?? new Uint8Array());
    if (raw.length < IV_BYTES + TAG_BYTES) throw new PayloadDecryptionError(`payload under key id ${keyId}: truncated`);
    let plain: Buffer;
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(aadOf(keyId!));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new PayloadDecryptionError(`payload under key id ${keyId}: does not authenticate (altered, or sealed by another key with that id)`);
    }
    return PayloadProto.decode(plain);
  };

  return {
    encode: async (payloads) => payloads.map(seal),
    decode: async (payloads) => payloads.map(open),
  };
}
