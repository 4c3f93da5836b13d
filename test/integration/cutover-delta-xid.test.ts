// The delta's transaction-id test (writtenSince) across an xid epoch: a row's 32-bit xmin is placed in
// the current epoch or the one before, a frozen row is older than any transaction. The epoch a real
// cluster is in cannot be chosen, so `cur` (the current snapshot's xmax, split) is given here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writtenSince } from '../../lib/cutover/delta-window';
import { createLegacyDatabase, type LegacyDb } from '../helpers/legacy';

let db: LegacyDb;
beforeAll(async () => {
  db = await createLegacyDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const EPOCH = 2n ** 32n;

async function counts(xmax: bigint, xmin32: number, since: bigint): Promise<boolean> {
  const sql = db.sql;
  const cur = sql.unsafe(`(select ${xmax}::bigint - (${xmax}::bigint & 4294967295) as e, ${xmax}::bigint & 4294967295 as l) cur`);
  const [r] = await sql<{ ok: boolean }[]>`select ${writtenSince(sql, 't', since.toString())} as ok from (select ${String(xmin32)}::xid as xmin) t cross join ${cur}`;
  return r!.ok;
}

describe('writtenSince', () => {
  it('places a row xmin in the current epoch when below the snapshot xmax, else in the epoch before', async () => {
    const xmax = EPOCH + 100n; // epoch 1, 100 transactions in
    expect(await counts(xmax, 50, EPOCH + 50n)).toBe(true);
    expect(await counts(xmax, 50, EPOCH + 51n)).toBe(false);
    expect(await counts(xmax, 4294967000, 4294967000n)).toBe(true); // written just before the epoch turned
    expect(await counts(xmax, 4294967000, EPOCH)).toBe(false);
  });

  it('a frozen row is older than every transaction, and re-read only when everything is', async () => {
    expect(await counts(EPOCH + 100n, 2, 3n)).toBe(false);
    expect(await counts(EPOCH + 100n, 2, 0n)).toBe(true);
  });
});
