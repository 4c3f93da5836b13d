import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../lib/db/unavailable';

describe('isDatabaseUnavailable', () => {
  it('knows a lost or refused connection and a shutting-down server', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { name: 'PostgresError', code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {}))).toBe(true);
  });
  it('leaves query errors alone: they are bugs, not outages', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { name: 'PostgresError', code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('plain'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
