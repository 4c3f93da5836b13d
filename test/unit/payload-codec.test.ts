// Encrypted Temporal payloads (issue 43, item 4): AES-256-GCM over the whole payload, the key id in
// the metadata, rotation (the first key encrypts, every key decrypts), clear failures for an unknown
// key or altered bytes, unencrypted payloads passing through, and TEMPORAL_PAYLOAD_KEYS (its format,
// the embedded stack's generated key, required in production).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { apiConfigSchema, ConfigError, parseConfig, workerConfigSchema } from '../../lib/config';
import { PAYLOAD_KEY_FILE, parsePayloadKeys, payloadKeysOf, type PayloadKey } from '../../lib/payload-keys';
import { ENCRYPTED_ENCODING, KEY_ID_METADATA, encryptionCodec, PayloadDecryptionError } from '../../temporal/payload-codec';

const keyOf = (id: string): PayloadKey => ({ id, key: crypto.randomBytes(32) });
const text = (b: Uint8Array | null | undefined) => Buffer.from(b ?? []).toString('utf8');
const partnerText = { title: 'Koi sleeve for Ana Lima', tags: ['koi', 'irezumi'], notes: 'rights attested by phone' };
const payload = () => defaultPayloadConverter.toPayload(partnerText);

describe('the payload codec', () => {
  it('round-trips a payload, with its encoding and the key id in the metadata and nothing in clear', async () => {
    const codec = encryptionCodec([keyOf('k1')]);
    const [sealed] = await codec.encode([payload()]);
    expect(text(sealed!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(text(sealed!.metadata![KEY_ID_METADATA])).toBe('k1');
    expect(Object.keys(sealed!.metadata!).sort()).toEqual(['encoding', KEY_ID_METADATA].sort());
    const raw = Buffer.from(sealed!.data!).toString('latin1');
    for (const s of ['Koi sleeve', 'Ana Lima', 'irezumi', 'rights attested', 'json/plain']) expect(raw).not.toContain(s);
    const [opened] = await codec.decode([sealed!]);
    expect(defaultPayloadConverter.fromPayload(opened!)).toEqual(partnerText);
    expect(text(opened!.metadata!.encoding)).toBe('json/plain');
  });

  it('encrypts the same payload differently each time (a fresh IV)', async () => {
    const codec = encryptionCodec([keyOf('k1')]);
    const [a, b] = await codec.encode([payload(), payload()]);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
  });

  it('after a rotation, encrypts under the new key and still decrypts what the old key sealed', async () => {
    const old = keyOf('2026-01');
    const fresh = keyOf('2026-11');
    const [sealedBefore] = await encryptionCodec([old]).encode([payload()]);
    const rotated = encryptionCodec([fresh, old]);
    const [sealedAfter] = await rotated.encode([payload()]);
    expect(text(sealedAfter!.metadata![KEY_ID_METADATA])).toBe('2026-11');
    const opened = await rotated.decode([sealedBefore!, sealedAfter!]);
    expect(opened.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual([partnerText, partnerText]);
  });

  it('fails clearly on a key id it does not hold, naming the id and the configured ones', async () => {
    const [sealed] = await encryptionCodec([keyOf('gone')]).encode([payload()]);
    const codec = encryptionCodec([keyOf('k2'), keyOf('k3')]);
    await expect(codec.decode([sealed!])).rejects.toThrow(PayloadDecryptionError);
    await expect(codec.decode([sealed!])).rejects.toThrow(/key id "gone".*TEMPORAL_PAYLOAD_KEYS.*k2, k3/);
  });

  it('refuses altered ciphertext, a truncated payload, and a payload relabelled with another key id', async () => {
    const a = keyOf('a');
    const b = { id: 'b', key: a.key }; // the same bytes under another id: the id is authenticated
    const codec = encryptionCodec([a, b]);
    const [sealed] = await codec.encode([payload()]);
    const flipped = Buffer.from(sealed!.data!);
    flipped[20] = flipped[20]! ^ 1;
    await expect(codec.decode([{ ...sealed!, data: flipped }])).rejects.toThrow(/does not authenticate/);
    await expect(codec.decode([{ ...sealed!, data: Buffer.from(sealed!.data!).subarray(0, 20) }])).rejects.toThrow(/truncated/);
    await expect(codec.decode([{ ...sealed!, metadata: { ...sealed!.metadata, [KEY_ID_METADATA]: Buffer.from('b') } }])).rejects.toThrow(/does not authenticate/);
  });

  it('passes an unencrypted payload through unchanged (histories recorded before, clients without the codec)', async () => {
    const codec = encryptionCodec([keyOf('k1')]);
    const plain = payload();
    const binary: Payload = { metadata: { encoding: Buffer.from('binary/null') } };
    expect(await codec.decode([plain, binary])).toEqual([plain, binary]);
  });

  it('refuses to be built without a key, with a repeated id, or with a key that is not 32 bytes', () => {
    expect(() => encryptionCodec([])).toThrow(/at least one key/);
    expect(() => encryptionCodec([keyOf('x'), keyOf('x')])).toThrow(/unique/);
    expect(() => encryptionCodec([{ id: 'short', key: crypto.randomBytes(16) }])).toThrow(/32 bytes/);
  });
});

describe('TEMPORAL_PAYLOAD_KEYS', () => {
  const b64 = () => crypto.randomBytes(32).toString('base64');

  it('reads a comma list of id:key (base64 or hex), the first one current', () => {
    const hex = crypto.randomBytes(32);
    const keys = parsePayloadKeys(`2026-11:${b64()}, 2026-01:${hex.toString('hex')}`);
    expect(keys?.map((k) => k.id)).toEqual(['2026-11', '2026-01']);
    expect(keys?.[1]!.key).toEqual(hex);
    for (const bad of ['', 'k1', `:${b64()}`, `k1:${crypto.randomBytes(16).toString('base64')}`, `k 1:${b64()}`, `k1:${b64()},k1:${b64()}`]) expect(parsePayloadKeys(bad), bad).toBeUndefined();
  });

  it('without the variable, generates one key into DATA_DIR/secrets (0600) that every process on that folder reads', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payload-keys-'));
    try {
      const first = payloadKeysOf({ DATA_DIR: dataDir });
      const again = payloadKeysOf({ DATA_DIR: dataDir });
      expect(first).toHaveLength(1);
      expect(again).toEqual(first);
      const file = path.join(dataDir, 'secrets', PAYLOAD_KEY_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      // The variable wins over the file.
      expect(payloadKeysOf({ DATA_DIR: dataDir, TEMPORAL_PAYLOAD_KEYS: `prod:${b64()}` })[0]!.id).toBe('prod');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is required in production by the API and the worker, refused when malformed, and its value never appears in the error', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@db/intake', TEMPORAL_ADDRESS: 'temporal:7233' };
    for (const schema of [apiConfigSchema, workerConfigSchema]) {
      expect(() => parseConfig(schema, production)).toThrow(ConfigError);
      try {
        parseConfig(schema, production);
      } catch (err) {
        expect((err as Error).message).toMatch(/TEMPORAL_PAYLOAD_KEYS: required when NODE_ENV=production/);
      }
      const secret = crypto.randomBytes(16).toString('base64');
      try {
        parseConfig(schema, { TEMPORAL_PAYLOAD_KEYS: `k1:${secret}` });
        expect.unreachable('a 16-byte key was accepted');
      } catch (err) {
        expect((err as Error).message).toMatch(/TEMPORAL_PAYLOAD_KEYS/);
        expect((err as Error).message).not.toContain(secret);
      }
      expect(parseConfig(schema, { TEMPORAL_PAYLOAD_KEYS: `k1:${b64()}` }).TEMPORAL_PAYLOAD_KEYS).toMatch(/^k1:/);
    }
  });
});
