// Sealing the stored webhook signing secrets again: at the API's start, any still in plaintext
// (SQL cannot seal: it has no key); after a key rotation (`npm run iam --
// rotate-webhook-key`), every one not sealed under the current key. Batches of rows locked with
// SKIP LOCKED, each its own transaction, so replicas starting at once share the work; run again,
// it finds nothing to do.
import type { Sql } from '../db';
import { SEALED_PREFIX, type SecretBox } from './secret-box';
import { SECRET_PREFIX } from './send';

const BATCH = 100;

export interface ResealReport {
  resealed: number;
  /** Secret ids whose value no configured key opens (sealed under a key no longer given). */
  unreadable: string[];
}

/** `plaintext`: only `whsec_` values; `stale`: every value not sealed under the current key. */
export async function resealSecrets(sql: Sql, box: SecretBox, which: 'plaintext' | 'stale'): Promise<ResealReport> {
  const current = `${SEALED_PREFIX}${box.keyId}:`;
  const report: ResealReport = { resealed: 0, unreadable: [] };
  for (;;) {
    const done = await sql.begin(async (tx) => {
      const rows = await tx<{ secretId: string; secret: string }[]>`
        select secret_id, secret from webhook_endpoint_secrets
        where ${which === 'plaintext' ? tx`left(secret, ${SECRET_PREFIX.length}) = ${SECRET_PREFIX}` : tx`left(secret, ${current.length}) <> ${current}`}
          and secret_id <> all(${report.unreadable})
        order by secret_id limit ${BATCH} for update skip locked`;
      for (const r of rows) {
        let secret: string;
        try {
          secret = box.open(r.secretId, r.secret);
        } catch {
          report.unreadable.push(r.secretId);
          continue;
        }
        await tx`update webhook_endpoint_secrets set secret = ${box.seal(r.secretId, secret)} where secret_id = ${r.secretId}`;
        report.resealed++;
      }
      return rows.length < BATCH;
    });
    if (done) return report;
  }
}
