// Webhook signing secrets sealed at rest (issue 22): the table holds no whsec_ secret, deliveries
// still verify with the `standardwebhooks` package, a secret stored in plaintext before the
// migration is sealed when the API starts, and `npm run iam -- rotate-webhook-key` reseals every
// secret under a new key.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../bench/lib/webhook-receiver';
import { parseSecretKey } from '../../lib/secrets';
import { createSecretBox, keyIdOf, WEBHOOK_SECRET_KEY_FILE } from '../../lib/webhooks/secret-box';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, submissionBody } from '../helpers/intake';
import { runScript } from '../helpers/run-script';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential & { organizationId?: string };
const receivers: Receiver[] = [];
beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_RETRY_INITIAL_SECONDS: '1', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '2', WEBHOOK_SWEEP_SECONDS: '1' } });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await stack?.stop();
});

const stored = () => stack.sql<{ secretId: string; endpointId: string; secret: string }[]>`select secret_id, endpoint_id, secret from webhook_endpoint_secrets order by created_at`;
/** The key the embedded stack generated into DATA_DIR/secrets (the API's and the worker's). */
const devKeyText = () => fs.readFileSync(path.join(stack.dataDir, 'secrets', WEBHOOK_SECRET_KEY_FILE), 'utf8').trim();

async function subscribed() {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const r = await call(stack, 'POST', `${INTAKE}/webhook-endpoints`, { headers: partner.headers, body: { url: receiver.url } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  receiver.secrets.push(r.body.data.secret);
  return { receiver, endpointId: r.body.data.endpointId as string, secret: r.body.data.secret as string };
}

/** A create, and the receiver's verified receipt of its submission.staged event. */
async function deliveredVerified(receiver: Receiver): Promise<void> {
  const created = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: partner.headers, body: submissionBody(partner) });
  expect(created.status).toBe(201);
  const id = created.body.data.submission.submissionId as string;
  expect(await receiver.waitFor((a) => a.some((x) => x.body.data.submissionId === id), 20_000)).toBe(true);
  const mine = receiver.all.filter((x) => x.body.data.submissionId === id);
  expect(mine.every((x) => x.verified), JSON.stringify(mine.map((x) => x.error))).toBe(true);
}

describe('webhook signing secrets at rest', () => {
  it('are stored sealed (no whsec_ in the table), shown once in the clear, and deliveries verify with standardwebhooks', async () => {
    const { receiver, endpointId, secret } = await subscribed();
    const rotated = await call(stack, 'POST', `${INTAKE}/webhook-endpoints/${endpointId}/rotate-secret`, { headers: partner.headers, body: { overlapSeconds: 600 } });
    expect(rotated.status).toBe(200);
    receiver.secrets.splice(0, receiver.secrets.length, rotated.body.data.secret); // verifies with the new secret only

    const rows = (await stored()).filter((r) => r.endpointId === endpointId);
    expect(rows).toHaveLength(2);
    const keyId = keyIdOf(parseSecretKey(devKeyText())!);
    for (const r of rows) {
      expect(r.secret).toMatch(new RegExp(`^whenc:v1:${keyId}:[A-Za-z0-9_-]+$`));
      expect(r.secret).not.toContain(secret);
      expect(r.secret).not.toContain(rotated.body.data.secret);
    }
    const [plain] = await stack.sql<{ n: number }[]>`select count(*)::int as n from webhook_endpoint_secrets where secret like 'whsec%' or secret like ${'%' + secret.slice(6, 30) + '%'}`;
    expect(plain!.n).toBe(0);
    // The listing never carries a secret, sealed or not.
    const listed = await call(stack, 'GET', `${INTAKE}/webhook-endpoints`, { headers: partner.headers });
    expect(JSON.stringify(listed.body)).not.toMatch(/whsec_|whenc:/);

    await deliveredVerified(receiver);
    // The database refuses a plaintext secret from here on.
    const refused = await stack.sql`insert into webhook_endpoint_secrets (secret_id, endpoint_id, secret) values ('whs_plain', ${endpointId}, 'whsec_bm90LWEtcmVhbC1zZWNyZXQ=')`.catch((e: { code: string }) => e.code);
    expect(refused).toBe('23514'); // check_violation
  });

  it('a secret stored in plaintext before the migration still signs, and the next API start seals it', async () => {
    const { receiver, endpointId } = await subscribed();
    // As the database held it before the migration: the plaintext secret (the check is NOT VALID,
    // so such old rows exist; write one the way they were written).
    const legacy = `whsec_${crypto.randomBytes(32).toString('base64')}`;
    await stack.sql.begin(async (tx) => {
      await tx`alter table webhook_endpoint_secrets drop constraint webhook_endpoint_secrets_sealed`;
      await tx`update webhook_endpoint_secrets set secret = ${legacy} where endpoint_id = ${endpointId}`;
      await tx`alter table webhook_endpoint_secrets add constraint webhook_endpoint_secrets_sealed check (secret like 'whenc:%') not valid`;
    });
    receiver.secrets.splice(0, receiver.secrets.length, legacy);
    await deliveredVerified(receiver); // the worker opens a plaintext one meanwhile

    const again = await startTestStack({ worker: false, databaseUrl: stack.cfg.DATABASE_URL!, env: { DATA_DIR: stack.dataDir } });
    try {
      const [row] = await eventually(async () => {
        const r = (await stored()).filter((x) => x.endpointId === endpointId);
        return r.every((x) => x.secret.startsWith('whenc:v1:')) && r;
      }, 10_000, 100);
      expect(row!.secret).not.toContain(legacy.slice(6));
      expect(createSecretBox(parseSecretKey(devKeyText())!).open(row!.secretId, row!.secret)).toBe(legacy);
    } finally {
      await again.stop(); // the database is the first stack's: it stays
    }
    await deliveredVerified(receiver); // and signs with the same secret, now sealed
  });

  it('rotate-webhook-key reseals every secret under the new key, opening them with the previous one; again, it does nothing', async () => {
    await subscribed();
    const oldKey = devKeyText();
    const newKey = crypto.randomBytes(32).toString('base64');
    const env = { DATABASE_URL: stack.cfg.DATABASE_URL!, DATA_DIR: stack.dataDir, WEBHOOK_SECRET_KEY: newKey, WEBHOOK_SECRET_PREVIOUS_KEYS: oldKey, LOG_LEVEL: 'silent' };
    const before = await stored();
    const oldBox = createSecretBox(parseSecretKey(oldKey)!);
    const secrets = before.map((r) => oldBox.open(r.secretId, r.secret));

    const run = await runScript('scripts/iam.ts', ['rotate-webhook-key'], env);
    expect(run.code, run.stderr).toBe(0);
    const newId = keyIdOf(parseSecretKey(newKey)!);
    expect(run.stdout).toContain(`resealed under key ${newId}: ${before.length}`);
    expect(run.stdout + run.stderr).not.toMatch(/whsec_|whenc:/);
    expect(run.stdout + run.stderr).not.toContain(newKey);

    const after = await stored();
    const newBox = createSecretBox(parseSecretKey(newKey)!);
    expect(after.map((r) => r.secret.startsWith(`whenc:v1:${newId}:`))).toEqual(before.map(() => true));
    expect(after.map((r) => newBox.open(r.secretId, r.secret))).toEqual(secrets);

    const twice = await runScript('scripts/iam.ts', ['rotate-webhook-key'], env);
    expect([twice.code, twice.stdout.trim()]).toEqual([0, `webhook signing secrets resealed under key ${newId}: 0`]);
    // A key that opens none of them: nothing changes, and the command says so.
    const stranger = await runScript('scripts/iam.ts', ['rotate-webhook-key'], { ...env, WEBHOOK_SECRET_KEY: crypto.randomBytes(32).toString('hex'), WEBHOOK_SECRET_PREVIOUS_KEYS: '' });
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toMatch(/not opened by WEBHOOK_SECRET_KEY or WEBHOOK_SECRET_PREVIOUS_KEYS/);
    expect((await stored()).map((r) => r.secret)).toEqual(after.map((r) => r.secret));
  });
});
