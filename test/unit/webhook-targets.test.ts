// No SSRF: where a webhook may go, judged at registration and again at delivery after DNS
// resolution (so a name that later resolves to loopback or a metadata address is refused).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { nextAttemptAt } from '../../activities/webhooks';
import { newSecret, sendWebhook, signatureHeader } from '../../lib/webhooks/send';
import { addressRefusal, checkTarget, lookupGuard, TargetRefused } from '../../lib/webhooks/targets';

const production = { production: true, allowLoopback: false };
const development = { production: false, allowLoopback: true };
const resolvesTo = (address: string) => async () => [{ address, family: address.includes(':') ? 6 : 4 }];

describe('webhook targets', () => {
  it('production: refuses metadata, private, loopback (also behind a name) and plain http', async () => {
    for (const url of ['https://169.254.169.254/latest/meta-data/', 'https://10.0.0.1/', 'https://127.0.0.1/', 'https://[::1]/', 'https://[::ffff:127.0.0.1]/', 'https://100.64.0.1/', 'https://0.0.0.0/'])
      await expect(checkTarget(url, production), url).rejects.toThrow(TargetRefused);
    await expect(checkTarget('http://169.254.169.254/', production)).rejects.toThrow(/https/);
    await expect(checkTarget('https://hooks.example.com/', production, resolvesTo('127.0.0.1'))).rejects.toThrow(/loopback/);
    await expect(checkTarget('https://hooks.example.com/', production, resolvesTo('10.1.2.3'))).rejects.toThrow(/private/);
    await expect(checkTarget('https://hooks.example.com/', production, resolvesTo('93.184.216.34'))).resolves.toBeUndefined();
    await expect(checkTarget('https://localhost/', production)).rejects.toThrow(TargetRefused);
    await expect(checkTarget('https://no-such-host.invalid/', production)).rejects.toThrow(/does not resolve/);
  });

  it('outside production: loopback is allowed so the embedded stack can be tried; private and metadata are not', async () => {
    await expect(checkTarget('http://127.0.0.1:8080/hooks', development)).resolves.toBeUndefined();
    await expect(checkTarget('http://localhost:8080/hooks', development)).resolves.toBeUndefined();
    expect(addressRefusal('169.254.169.254', development)).toMatch(/linkLocal/);
    expect(addressRefusal('192.168.1.10', development)).toMatch(/private/);
    expect(addressRefusal('127.0.0.1', { production: false, allowLoopback: false })).toMatch(/loopback/);
    await expect(checkTarget('http://user:secret@127.0.0.1/', development)).rejects.toThrow(/credentials/);
  });

  it('refuses IPv4-compatible (::/96) and NAT64 (64:ff9b::/96, 64:ff9b:1::/48) addresses, at registration and at delivery', async () => {
    const embedded = ['::a9fe:a9fe', '::7f00:1', '::a00:1', '::5db8:d822', '64:ff9b::a9fe:a9fe', '64:ff9b::5db8:d822', '64:ff9b:1::a9fe:a9fe', '64:ff9b:1:ffff::1'];
    for (const policy of [production, development]) {
      for (const address of embedded) {
        expect(addressRefusal(address, policy), address).toMatch(/ipv4Compatible|nat64/);
        // registration: a literal in the URL, and a name resolving to it
        await expect(checkTarget(`http://[${address}]/`, policy), address).rejects.toThrow(TargetRefused);
        await expect(checkTarget('https://hooks.example.com/', policy, resolvesTo(address)), address).rejects.toThrow(/ipv4Compatible|nat64/);
        // delivery: the connection's lookup refuses it too
        const err = await new Promise<Error | null>((resolve) => lookupGuard(policy, resolvesTo(address))('hooks.example.com', {}, (e) => resolve(e)));
        expect(err, address).toBeInstanceOf(TargetRefused);
      }
    }
    await expect(checkTarget('http://[::a9fe:a9fe]/', development)).rejects.toThrow(/ipv4Compatible/);
    // The neighbours keep their own judgement: loopback ::1 in development, public IPv6 anywhere.
    expect(addressRefusal('::1', development)).toBeUndefined();
    expect(addressRefusal('::1', production)).toMatch(/loopback/);
    expect(addressRefusal('::', development)).toMatch(/unspecified/);
    expect(addressRefusal('2606:4700::1111', production)).toBeUndefined();
    expect(addressRefusal('64:ff9c::1', production)).toBeUndefined();
    expect(addressRefusal('1::a9fe:a9fe', production)).toBeUndefined();
  });

  it('the delivery connects only to an address it checked: a name rebound to loopback fails there', async () => {
    const guard = lookupGuard(production, resolvesTo('127.0.0.1'));
    const err = await new Promise<Error | null>((resolve) => guard('hooks.example.com', {}, (e) => resolve(e)));
    expect(err).toBeInstanceOf(TargetRefused);
    const ok = lookupGuard(production, resolvesTo('93.184.216.34'));
    const addr = await new Promise<string>((resolve) => ok('hooks.example.com', {}, (_e, a) => resolve(a as string)));
    expect(addr).toBe('93.184.216.34');
  });

  it('a real send to a loopback receiver in production mode is refused before any byte leaves', async () => {
    let hits = 0;
    const server = http.createServer((_q, s) => {
      hits++;
      s.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      const r = await sendWebhook({ url: `http://localhost:${port}/`, id: 'msg_x', body: '{}', secrets: [newSecret()], policy: { ...production }, userAgent: 't' });
      expect(r).toMatchObject({ ok: false, refused: true, statusCode: null });
      const dev = await sendWebhook({ url: `http://localhost:${port}/`, id: 'msg_x', body: '{}', secrets: [newSecret()], policy: development, userAgent: 't' });
      expect(dev).toMatchObject({ ok: true, statusCode: 200 });
      expect(hits).toBe(1);
    } finally {
      server.close();
    }
  });

  it('does not follow redirects and gives up after the timeout', async () => {
    const server = http.createServer((q, s) => {
      if (q.url === '/slow') return; // never answers
      s.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const redirect = await sendWebhook({ url: `${base}/`, id: 'msg_r', body: '{}', secrets: [newSecret()], policy: development, userAgent: 't' });
      expect(redirect).toMatchObject({ ok: false, statusCode: 302, refused: false });
      const slow = await sendWebhook({ url: `${base}/slow`, id: 'msg_s', body: '{}', secrets: [newSecret()], policy: development, userAgent: 't', timeoutMs: 300 });
      expect(slow).toMatchObject({ ok: false, statusCode: null });
      expect(slow.error).toMatch(/no answer within 300 ms/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('webhook signatures', () => {
  it('verify with standardwebhooks, under each secret of a rotation', () => {
    const [a, b] = [newSecret(), newSecret()];
    const ts = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'submission.staged', timestamp: new Date().toISOString(), data: { submissionId: 'sub_1' } });
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': signatureHeader([a, b], 'msg_1', ts, body) };
    expect(new Webhook(a).verify(body, headers)).toMatchObject({ type: 'submission.staged' });
    expect(new Webhook(b).verify(body, headers)).toMatchObject({ type: 'submission.staged' });
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    // Their signer and ours agree byte for byte.
    expect(signatureHeader([a], 'msg_1', ts, body)).toBe(new Webhook(a).sign('msg_1', new Date(ts * 1000), body));
  });

  it('next retry follows the activity retry policy: doubling from the first interval, capped', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const r = { initialSeconds: 5, maxIntervalSeconds: 3600, windowSeconds: 86400 };
    expect(nextAttemptAt(now, 1, r).getTime() - now.getTime()).toBe(5000);
    expect(nextAttemptAt(now, 4, r).getTime() - now.getTime()).toBe(40_000);
    expect(nextAttemptAt(now, 20, r).getTime() - now.getTime()).toBe(3_600_000);
  });
});
