import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which network addresses and names the server may reach on an owner's behalf (the website
 * crawler, webhook deliveries). An owner types any URL; without this rule the crawler would fetch
 * the cloud metadata service, the database or an admin panel on the private network and index the
 * answer into a bot anyone can question, and a webhook would post to them.
 *
 * Private, loopback, link-local, unique-local, carrier-grade NAT, multicast, unspecified,
 * documentation and other reserved ranges are refused unless private addresses are allowed
 * (CRAWL_ALLOW_PRIVATE=true or WEBHOOK_ALLOW_PRIVATE=true, for tests and intranets). Cloud metadata endpoints are refused
 * always: no intranet crawl has a reason to read instance credentials.
 */

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function ranges(entries: [string, string][]): { range: Range; reason: string }[] {
  return entries.map(([cidr, reason]) => ({ range: ipaddr.parseCIDR(cidr), reason }));
}

const IPV4_REFUSED = ranges([
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

const IPV6_REFUSED = ranges([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['100::/64', 'reserved'],
  // IETF protocol assignments, Teredo (2001::/32) among them: a tunnel to an address we cannot see.
  ['2001::/23', 'reserved'],
  ['2001:db8::/32', 'documentation'],
  ['64:ff9b:1::/48', 'private'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
]);

/** IPv6 forms that carry an IPv4 address: judged by the IPv4 address inside. */
const IPV4_CARRIERS: { range: Range; ipv4At: number }[] = [
  { range: ipaddr.parseCIDR('::ffff:0:0/96'), ipv4At: 12 }, // IPv4-mapped
  { range: ipaddr.parseCIDR('::/96'), ipv4At: 12 }, // IPv4-compatible (deprecated)
  { range: ipaddr.parseCIDR('64:ff9b::/96'), ipv4At: 12 }, // NAT64
  { range: ipaddr.parseCIDR('2002::/16'), ipv4At: 2 }, // 6to4
];

/** Instance metadata services of AWS, GCP, Azure, Alibaba, OpenStack and ECS task metadata. */
const METADATA_ADDRESSES = new Set(
  ['169.254.169.254', '169.254.170.2', '169.254.169.253', '100.100.100.200', 'fd00:ec2::254', 'fd00:ec2::253'].map(
    (address) => ipaddr.parse(address).toNormalizedString(),
  ),
);

const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);

export interface AddressRule {
  allowPrivate: boolean;
}

/**
 * Why this address may not be reached, or null when it may. `address` is an IP address as DNS or
 * a URL gives it (IPv6 with or without brackets); anything else is refused as unparseable.
 */
export function addressRefusal(address: string, rule: AddressRule): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIP(bare) === 0 || !ipaddr.isValid(bare)) return 'not an IP address';
  const parsed = ipaddr.parse(bare);
  const embedded = embeddedIpv4(parsed);
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString())) return 'cloud metadata';
  if (embedded && METADATA_ADDRESSES.has(embedded.toNormalizedString())) return 'cloud metadata';
  if (rule.allowPrivate) return null;
  if (embedded) return ipv4Refusal(embedded);
  if (parsed.kind() === 'ipv4') return ipv4Refusal(parsed as ipaddr.IPv4);
  for (const { range, reason } of IPV6_REFUSED) {
    if (parsed.match(range)) return reason;
  }
  return null;
}

function ipv4Refusal(address: ipaddr.IPv4): string | null {
  for (const { range, reason } of IPV4_REFUSED) {
    if (address.match(range)) return reason;
  }
  return null;
}

function embeddedIpv4(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.kind() !== 'ipv6') return null;
  const v6 = address as ipaddr.IPv6;
  // :: and ::1 sit inside ::/96 but are IPv6's own unspecified and loopback addresses.
  if (v6.match(ipaddr.parseCIDR('::/127'))) return null;
  for (const { range, ipv4At } of IPV4_CARRIERS) {
    if (v6.match(range)) {
      const bytes = v6.toByteArray().slice(ipv4At, ipv4At + 4);
      return ipaddr.fromByteArray(bytes) as ipaddr.IPv4;
    }
  }
  return null;
}

/**
 * Why a host name may not be looked up at all, or null. Metadata names are refused always;
 * `localhost` and `*.localhost` mean loopback by definition, whatever a resolver answers.
 */
export function hostnameRefusal(hostname: string, rule: AddressRule): string | null {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  if (METADATA_NAMES.has(name)) return 'cloud metadata';
  if (rule.allowPrivate) return null;
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  return null;
}

/** Ports a crawl may use when private addresses are not allowed: the web's standard ones. */
export const STANDARD_PORTS = new Set(['', '80', '443']);
