import { clientNetworkKey } from './client-network.js';

describe('clientNetworkKey', () => {
  it('keys an IPv4 client by its whole address', () => {
    expect(clientNetworkKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetworkKey('203.0.113.8')).not.toBe(clientNetworkKey('203.0.113.7'));
  });

  it('keys every address of one IPv6 /64 alike, and another /64 apart', () => {
    const a = clientNetworkKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(clientNetworkKey('2001:db8:1:2::1')).toBe(a);
    expect(clientNetworkKey('2001:0db8:0001:0002:ffff:0:0:1')).toBe(a);
    expect(clientNetworkKey('2001:db8:1:3::1')).not.toBe(a);
  });

  it('expands compressed forms and drops a zone id', () => {
    expect(clientNetworkKey('::1')).toBe('0:0:0:0::/64');
    expect(clientNetworkKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientNetworkKey('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(clientNetworkKey('::ffff:c633:6404')).toBe('198.51.100.4');
  });

  it('keeps a non-address apart, bounded in length', () => {
    expect(clientNetworkKey(undefined)).toBe('unknown');
    expect(clientNetworkKey('x'.repeat(10_000))).toHaveLength(68);
  });
});
