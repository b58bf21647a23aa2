import { createHmac, hkdfSync } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * What per-network limits count a client under, and the only form in which a client's address
 * reaches a store (rate-limit counters in memory or Redis, stream caps, visitor-token MACs):
 * `n:` and 22 characters of HMAC-SHA256 of the client's network, keyed from the session secret.
 * The same secret gives the same keys on every instance; without the secret a key cannot be
 * turned back into an address, not even by trying all 2^32 IPv4 addresses, so abuse review
 * can group by network without anyone holding whole IP addresses.
 *
 * The network: an IPv4 address is one client (docs/product.md#rate-limits counts per IPv4
 * address, and carrier-grade NAT or a shared office would otherwise put strangers in one
 * bucket); an IPv6 client usually holds a whole /64 (one home or one cloud VM gets 2^64
 * addresses), so counting single IPv6 addresses would give anyone with a /64 unlimited buckets.
 * IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`, what a dual-stack socket reports) count as their
 * IPv4 address. Anything that is not an IP address (should not happen behind a correct `trust
 * proxy`) is its own network, hashed like the rest.
 */
export class ClientNetworks {
  private readonly hmacKey: Buffer;

  constructor(sessionSecret: string) {
    // Derived, never the secret itself: a key here cannot sign sessions or visitor tokens.
    this.hmacKey = Buffer.from(hkdfSync('sha256', sessionSecret, 'botsmith', 'client-network v1', 32));
  }

  /** The store key of the client network `ip` belongs to (`n:` + 22 base64url characters). */
  key(ip: string | undefined | null): string {
    const mac = createHmac('sha256', this.hmacKey).update(clientNetwork(ip)).digest();
    return `n:${mac.subarray(0, 16).toString('base64url')}`;
  }
}

/** The network in the clear (only ever hashed, never stored): an IPv4 address, an IPv6 /64, or the raw text. */
function clientNetwork(ip: string | undefined | null): string {
  const value = (ip ?? '').trim();
  if (isIPv4(value)) return value;
  const groups = isIPv6(value) ? expandIPv6(value) : null;
  if (!groups) return value === '' ? 'unknown' : `raw:${value}`;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (zone id dropped, dotted IPv4 tail converted). */
function expandIPv6(address: string): number[] | null {
  let value = address.split('%', 1)[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(value);
  if (dotted) {
    const octets = dotted[1].split('.').map(Number);
    value = `${value.slice(0, dotted.index)}${((octets[0] << 8) | octets[1]).toString(16)}:${(
      (octets[2] << 8) |
      octets[3]
    ).toString(16)}`;
  }
  const [head, tail] = value.split('::') as [string, string | undefined];
  const parse = (part: string | undefined): number[] =>
    part
      ? part
          .split(':')
          .filter((g) => g !== '')
          .map((g) => parseInt(g, 16))
      : [];
  const first = parse(head);
  const last = parse(tail);
  const groups =
    tail === undefined ? first : [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}
