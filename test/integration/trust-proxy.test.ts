// TRUST_PROXY (issue 23 item 4): behind a trusted proxy the client address is the forwarded one, and
// public rate-limit windows and request logs use it; otherwise X-Forwarded-For is ignored.
import { afterAll, describe, expect, it } from 'vitest';
import { apiConfigSchema, ConfigError, parseConfig } from '../../lib/config';
import { startTestStack, type TestStack } from '../helpers/stack';

const STUDIOS = '/api/v1/studios';
type Line = { msg?: string; req?: { path?: string; ip?: string } };

async function proxyStack(trustProxy: string | undefined) {
  const lines: Line[] = [];
  const stack = await startTestStack({
    worker: false,
    env: { LOG_LEVEL: 'info', RATE_LIMITS_ENABLED: 'true', RATE_LIMIT_PUBLIC_PER_MINUTE: '2', ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) },
    logDestination: { write: (l) => void lines.push(JSON.parse(l) as Line) },
  });
  const get = async (forwardedFor: string) => {
    const res = await fetch(`${stack.url}${STUDIOS}`, { headers: { 'x-forwarded-for': forwardedFor } });
    await res.arrayBuffer();
    return res.status;
  };
  const loggedIps = () => lines.filter((l) => l.msg === 'request completed' && l.req?.path === STUDIOS).map((l) => l.req?.ip);
  return { stack, get, loggedIps };
}

describe('TRUST_PROXY is parsed once: off by default, a hop count or an address / CIDR list', () => {
  const parse = (TRUST_PROXY?: string) => parseConfig(apiConfigSchema, TRUST_PROXY === undefined ? {} : { TRUST_PROXY }).TRUST_PROXY;
  it('accepts off, hop counts and CIDR lists, and refuses anything else by name', () => {
    expect(parse()).toBe(false);
    expect(parse('false')).toBe(false);
    expect(parse('1')).toBe(1);
    expect(parse('10.0.0.0/8, 127.0.0.1/32,::1/128,loopback')).toEqual(['10.0.0.0/8', '127.0.0.1/32', '::1/128', 'loopback']);
    for (const bad of ['true', '10.0.0.0/99', 'proxy.example', '-1'])
      expect(() => parse(bad)).toThrow(ConfigError);
    try {
      parse('true');
    } catch (err) {
      expect((err as ConfigError).problems[0]!.variable).toBe('TRUST_PROXY');
    }
  });
});

describe('client address over HTTP', () => {
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const s of stacks) await s.stop();
  });

  it('with TRUST_PROXY off, X-Forwarded-For is ignored: two forwarded addresses share one public window, and the log shows the peer', async () => {
    const p = await proxyStack(undefined);
    stacks.push(p.stack);
    expect([await p.get('203.0.113.1'), await p.get('203.0.113.2'), await p.get('203.0.113.3')]).toEqual([200, 200, 429]);
    const ips = p.loggedIps();
    expect(ips).toHaveLength(3);
    for (const ip of ips) expect(ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  for (const setting of ['1', '127.0.0.0/8,::1/128,::ffff:127.0.0.1/128']) {
    it(`with TRUST_PROXY=${setting}, two forwarded addresses get windows of their own, and the log shows the forwarded address`, async () => {
      const p = await proxyStack(setting);
      stacks.push(p.stack);
      expect([await p.get('203.0.113.1'), await p.get('203.0.113.1'), await p.get('203.0.113.2'), await p.get('203.0.113.2')]).toEqual([200, 200, 200, 200]);
      expect(await p.get('203.0.113.1')).toBe(429);
      // Only the proxy's own hop is trusted: a client cannot pick its address by prepending one.
      expect(await p.get('198.51.100.7, 203.0.113.2')).toBe(429);
      expect(p.loggedIps()).toEqual(['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2', '203.0.113.1', '203.0.113.2']);
      const rows = await p.stack.sql<{ key: string }[]>`select key from rate_limits where key like 'public:ip:%' order by key`;
      expect(rows.map((r) => r.key)).toEqual(['public:ip:203.0.113.1', 'public:ip:203.0.113.2']);
    });
  }
});
