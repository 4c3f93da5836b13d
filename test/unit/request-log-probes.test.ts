// Probes are logged when their answer changes (issue 57: the launcher's readiness polling filled the
// log before the banner): nothing while a process that was never ready starts up, then the first
// failure after it was ready and the recovery after it, once each.
import { describe, expect, it } from 'vitest';
import { probeLogState } from '../../api/http/request-log';

const READY = '/api/v1/health/ready';
const LIVE = '/api/v1/health/live';

describe('probe answers in the request log', () => {
  it('a process starting up logs none of its 503s, nor its first 200', () => {
    const level = probeLogState();
    expect([503, 503, 503, 200, 200].map((s) => level(READY, s))).toEqual(['silent', 'silent', 'silent', 'silent', 'silent']);
  });

  it('once ready: the first failure and the recovery, once each, per probe', () => {
    const level = probeLogState();
    level(READY, 200);
    expect([503, 503, 503, 200, 200].map((s) => level(READY, s))).toEqual(['info', 'silent', 'silent', 'info', 'silent']);
    // Another failing answer is a change too; liveness keeps its own account.
    expect([503, 500].map((s) => level(READY, s))).toEqual(['info', 'info']);
    expect(level(LIVE, 200)).toBe('silent');
  });
});
