// Where a webhook may be sent (no SSRF). A target is checked at registration and again at every
// delivery, after DNS resolution, and the connection is made to exactly the address that passed
// (lookupGuard), so a name that resolves to a public address at registration and to 127.0.0.1 or a
// cloud metadata address later (DNS rebinding) is refused at delivery.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface TargetPolicy {
  /** Production: only https:// and only public addresses. */
  production: boolean;
  /** Outside production: loopback is allowed too, so the embedded stack can be tried with a local receiver. */
  allowLoopback: boolean;
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/**
 * IPv6 ranges that carry an IPv4 address inside and reach it by other means than the address
 * says: IPv4-compatible (`::/96`, deprecated, still routed to the IPv4 host by some stacks) and
 * NAT64 (`64:ff9b::/96` well-known, `64:ff9b:1::/48` local-use), which a NAT64 gateway turns into
 * the embedded IPv4 address, a metadata or private one included. Refused whatever they embed.
 */
const EMBEDDED_IPV4_RANGES: [ipaddr.IPv6, number, string][] = [
  [ipaddr.IPv6.parse('::'), 96, 'ipv4Compatible'],
  [ipaddr.IPv6.parse('64:ff9b::'), 96, 'nat64'],
  [ipaddr.IPv6.parse('64:ff9b:1::'), 48, 'nat64'],
];

/** The range ipaddr.js gives an address; IPv4-mapped IPv6 is judged as its IPv4 address. */
export function rangeOf(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range();
  const range = v6.range();
  // `::1` and `::` sit inside ::/96 but keep their own names (loopback may be allowed in development).
  if (range === 'loopback' || range === 'unspecified') return range;
  for (const [net, bits, name] of EMBEDDED_IPV4_RANGES) if (v6.match(net, bits)) return name;
  return range;
}

/** Undefined when the address may be contacted under the policy, else why not. */
export function addressRefusal(address: string, policy: TargetPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = rangeOf(address);
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback && !policy.production) return undefined;
  return `${address} is a ${range} address; webhooks go to public addresses only`;
}

/** The URL's own rules (scheme, no credentials), before any resolution. */
export function urlRefusal(raw: string, policy: TargetPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only http(s) URLs';
  if (policy.production && url.protocol !== 'https:') return 'only https:// URLs in production';
  if (url.username || url.password) return 'no credentials in the URL';
  if (url.hash) return 'no fragment in the URL';
  return undefined;
}

type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Check a URL and every address its host resolves to; throws TargetRefused with the reason. */
export async function checkTarget(raw: string, policy: TargetPolicy, resolve: Resolver = systemResolver): Promise<void> {
  const bad = urlRefusal(raw, policy);
  if (bad) throw new TargetRefused(bad);
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  if (ipaddr.isValid(host)) addresses = [{ address: host }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new TargetRefused(`${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`${host} does not resolve`);
  for (const a of addresses) {
    const why = addressRefusal(a.address, policy);
    if (why) throw new TargetRefused(`${host}: ${why}`);
  }
}

/**
 * A `lookup` for http(s).request: resolves, refuses the connection when any address is not allowed,
 * and hands the socket the address it checked (so the check and the connection agree).
 */
export function lookupGuard(policy: TargetPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const cb = callback as unknown as (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;
    resolve(hostname)
      .then((addresses) => {
        for (const a of addresses) {
          const why = addressRefusal(a.address, policy);
          if (why) throw new TargetRefused(`${hostname}: ${why}`);
        }
        if (addresses.length === 0) throw new TargetRefused(`${hostname} does not resolve`);
        if ((options as { all?: boolean }).all) cb(null, addresses);
        else cb(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((err: Error) => cb(err as NodeJS.ErrnoException, ''));
  };
}
