// What the worker and the API do with an error nobody caught (lib/process-guard.ts).
import { describe, expect, it } from 'vitest';
import { EXIT_UNCAUGHT, guardHandler, isPostgresClosedSocketFault, isPostgresTypeFetchLost } from '../../lib/process-guard';

/** The fault as postgres.js throws it: a TypeError whose top frame is its connection.js. */
function closedSocketFault(file = '/app/node_modules/postgres/src/connection.js'): TypeError {
  const err = new TypeError("Cannot read properties of null (reading 'write')");
  err.stack = `TypeError: Cannot read properties of null (reading 'write')\n    at nextWrite (${file}:255:22)\n    at Immediate.<anonymous> (node:internal/timers:1:1)`;
  return err;
}

/** postgres.js's array-type lookup of a new connection, rejected when PostgreSQL dropped the connection (as CI saw it). */
function typeFetchLost(code = 'ECONNRESET', query = '\n      select b.oid, b.typarray\n      from pg_catalog.pg_type a\n      left join pg_catalog.pg_type b on b.oid = a.typelem\n      where a.typcategory = \'A\'\n      group by b.oid, b.typarray\n      order by b.oid\n    ') {
  return Object.assign(new Error(`read ${code}`), { errno: -104, code, syscall: 'read', query, parameters: [] });
}

describe('process guard', () => {
  it('recognises the lost array-type lookup of a new postgres.js connection, and no other lost query', () => {
    expect(isPostgresTypeFetchLost(typeFetchLost())).toBe(true);
    expect(isPostgresTypeFetchLost(typeFetchLost('CONNECTION_CLOSED'))).toBe(true);
    expect(isPostgresTypeFetchLost(typeFetchLost('ECONNRESET', 'select * from submissions'))).toBe(false);
    expect(isPostgresTypeFetchLost(typeFetchLost('42P01'))).toBe(false);
    expect(isPostgresTypeFetchLost(new Error('read ECONNRESET'))).toBe(false);
  });

  it('recognises the postgres.js closed-socket fault, and nothing else', () => {
    expect(isPostgresClosedSocketFault(closedSocketFault())).toBe(true);
    expect(isPostgresClosedSocketFault(closedSocketFault('/app/node_modules/postgres/cjs/src/connection.js'))).toBe(true);
    expect(isPostgresClosedSocketFault(closedSocketFault('/app/lib/db/index.ts'))).toBe(false);
    const other = new TypeError("Cannot read properties of undefined (reading 'actorId')");
    other.stack = `${other.message}\n    at x (/app/node_modules/postgres/src/connection.js:1:1)`;
    expect(isPostgresClosedSocketFault(other)).toBe(false);
    expect(isPostgresClosedSocketFault(new Error("Cannot read properties of null (reading 'write')"))).toBe(false);
  });

  it('survives the fault and exits non-zero on anything else', async () => {
    const lines: string[] = [];
    const exits: number[] = [];
    const log = { warn: (_: object, m: string) => void lines.push(`warn ${m}`), fatal: (_: object, m: string) => void lines.push(`fatal ${m}`) };
    const handle = guardHandler({ log, name: 'worker', exit: (c) => void exits.push(c), fatalGraceMs: 50 });
    handle(closedSocketFault(), 'exception');
    expect(exits).toEqual([]);
    expect(lines[0]).toMatch(/^warn worker: survived a postgres.js fault of a lost PostgreSQL connection \(a closed socket\)/);
    handle(typeFetchLost(), 'rejection');
    expect(exits).toEqual([]);
    expect(lines[1]).toMatch(/its array-type lookup/);
    handle(new RangeError('boom'), 'exception');
    await new Promise((r) => setTimeout(r, 100));
    expect(exits[0]).toBe(EXIT_UNCAUGHT);
    expect(lines[2]).toMatch(/^fatal worker: uncaught exception; exiting with code 70/);
  });
});
