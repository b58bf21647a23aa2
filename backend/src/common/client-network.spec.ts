import { ClientNetworks } from './client-network.js';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const networks = new ClientNetworks(SECRET);
const key = (ip: string | undefined) => networks.key(ip);

/**
 * The address and each group or octet of it of 3 or more characters (a 1- or 2-character one
 * turns up by chance in 22 random characters, which tells nothing).
 */
function fragmentsOf(ip: string): string[] {
  return [ip, ...ip.split(/[.:]/).filter((part) => part.length >= 3)];
}

describe('ClientNetworks', () => {
  it('gives a short keyed hash, `n:` and 22 base64url characters', () => {
    expect(key('203.0.113.7')).toMatch(/^n:[A-Za-z0-9_-]{22}$/);
  });

  it('keys an IPv4 client by its whole address (docs/product.md#rate-limits counts per IPv4 address)', () => {
    expect(key('203.0.113.7')).toBe(key('203.0.113.7'));
    expect(key('203.0.113.8')).not.toBe(key('203.0.113.7'));
    expect(key('203.0.114.7')).not.toBe(key('203.0.113.7'));
  });

  it('keys every address of one IPv6 /64 alike, and another /64 apart', () => {
    const a = key('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(key('2001:db8:1:2::1')).toBe(a);
    expect(key('2001:0db8:0001:0002:ffff:0:0:1')).toBe(a);
    expect(key('2001:DB8:1:2::1')).toBe(a);
    expect(key('2001:db8:1:3::1')).not.toBe(a);
    expect(key('2001:db8:2:2::1')).not.toBe(a);
  });

  it('expands compressed forms and drops a zone id', () => {
    expect(key('::1')).toBe(key('0:0:0:0:ffff::1'));
    expect(key('fe80::1%eth0')).toBe(key('fe80::2'));
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(key('::ffff:198.51.100.4')).toBe(key('198.51.100.4'));
    expect(key('::ffff:c633:6404')).toBe(key('198.51.100.4'));
    expect(key('::ffff:198.51.100.5')).not.toBe(key('198.51.100.4'));
  });

  it('gives anything that is not an address its own key of the same short form', () => {
    expect(key(undefined)).toBe(key(''));
    expect(key(undefined)).toMatch(/^n:[A-Za-z0-9_-]{22}$/);
    expect(key('x'.repeat(10_000))).toMatch(/^n:[A-Za-z0-9_-]{22}$/);
    expect(key('not-an-address')).not.toBe(key('not-an-address-either'));
    expect(key('not-an-address')).not.toBe(key(undefined));
  });

  it('is the same for the same secret (every instance) and different for another secret', () => {
    const ip = '2001:db8:1:2::1';
    expect(new ClientNetworks(SECRET).key(ip)).toBe(key(ip));
    expect(new ClientNetworks('another-secret-of-at-least-32-characters!').key(ip)).not.toBe(key(ip));
    expect(new ClientNetworks('another-secret-of-at-least-32-characters!').key('203.0.113.7')).not.toBe(
      key('203.0.113.7'),
    );
  });

  it('never holds the address, its /64 or any of its groups or octets', () => {
    const addresses = ['203.0.113.77', '198.51.100.254', '2001:db8:abcd:12:3456:789a:bcde:f077', '::ffff:203.0.113.77'];
    for (const ip of addresses) {
      const found = key(ip);
      for (const fragment of fragmentsOf(ip)) expect(found.toLowerCase()).not.toContain(fragment.toLowerCase());
    }
    expect(key('2001:db8:abcd:12::1')).not.toContain('::/64');
  });
});
