// HAProxy in front of the API replicas (`npm start -- --replicas N`, the replica e2e test): Debian's
// `haproxy`, installed by `npm run setup` when missing (as root), and the configuration the launcher
// writes. docs/deploy.md shows the production configuration this one mirrors.
import { findBin } from './find-bin';

export const HAPROXY_PATH = '/usr/sbin/haproxy';

/** haproxy on PATH, else Debian's /usr/sbin/haproxy (sbin is not on every PATH). */
export const findHaproxy = (): string | undefined => findBin('haproxy', HAPROXY_PATH);

/**
 * Round robin over the replicas on loopback. Each is health-checked on /api/v1/health/ready every
 * second (down after 2 failures, up after 1 pass), so a dead or blocked replica leaves the rotation
 * within about two seconds. A check waits up to 4 s for its answer: readiness answers within its own
 * 3 s probe deadline, and under load it can take over a second (a 1 s check timeout took a live,
 * ready replica out of the rotation). A request whose connection was refused (the replica died before it got
 * the request) is sent to another replica: nothing reached the dead one, so nothing runs twice. A
 * GET or HEAD that got no answer (the replica died with it, or on a kept-alive connection) is sent
 * again too; any other request already sent is never re-sent: its client gets 502 and retries it
 * as it would any 5xx (creates carry their Idempotency-Key). X-Forwarded-For is set to the client's
 * address, whatever the client sent in it.
 */
export function haproxyConfig(o: { port: number; servers: number[]; bind?: string }): string {
  return [
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  option redispatch',
    '  retries 3',
    '  retry-on conn-failure empty-response',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  timeout http-request 30s',
    // below the API's keepAliveTimeout (65 s, api/server.ts): HAProxy closes an idle connection first
    '  timeout http-keep-alive 60s',
    '  timeout check 4s',
    '',
    'frontend api',
    `  bind ${o.bind ?? '127.0.0.1'}:${o.port}`,
    // The client address is the connection's, set (never appended): a client's own X-Forwarded-For
    // would otherwise reach the replicas as the first, trusted-looking hop and pick its rate-limit bucket.
    '  http-request set-header X-Forwarded-For %[src]',
    '  default_backend replicas',
    '  http-request disable-l7-retry if !METH_GET',
    '',
    'backend replicas',
    '  balance roundrobin',
    // Probes are answered whatever the Host (api/http/allowed-hosts.ts).
    '  option httpchk GET /api/v1/health/ready',
    '  http-check expect status 200',
    '  default-server inter 1s fall 2 rise 1',
    ...o.servers.map((p, i) => `  server api${i + 1} 127.0.0.1:${p} check`),
    '',
  ].join('\n');
}
