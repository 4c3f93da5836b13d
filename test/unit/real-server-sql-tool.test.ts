// temporal-sql-tool is given the PostgreSQL owner's password by environment, never on its command
// line, where any local user reads it in /proc/<pid>/cmdline while it runs (issue 55).
import { describe, expect, it } from 'vitest';
import { sqlToolCall } from '../../temporal/real-server';

describe('temporal-sql-tool', () => {
  it('takes the password from SQL_PASSWORD, not from its arguments', () => {
    const call = sqlToolCall({ postgres: { host: '127.0.0.1', port: 5432, user: 'owner', password: 's3cret-Pw!' } }, 'temporal', ['setup-schema', '-v', '0.0']);
    expect(call.args.join(' ')).not.toContain('s3cret-Pw!');
    expect(call.args).not.toContain('--pw');
    expect(call.args).not.toContain('--password');
    expect(call.env.SQL_PASSWORD).toBe('s3cret-Pw!');
    expect(call.args).toEqual(expect.arrayContaining(['--db', 'temporal', 'setup-schema']));
  });
});
