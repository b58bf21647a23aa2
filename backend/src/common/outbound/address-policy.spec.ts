import { addressRefusal, hostnameRefusal } from './address-policy.js';

const guardOn = { allowPrivate: false };
const guardOff = { allowPrivate: true };

describe('addressRefusal', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.2.7', 'documentation'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'site-local'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'], // Teredo
    // IPv6 forms carrying an IPv4 address are judged by that address.
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(addressRefusal(address, guardOn)).toBe(reason);
  });

  it.each(['169.254.169.254', 'fd00:ec2::254', '::ffff:169.254.169.254', '100.100.100.200', '169.254.170.2'])(
    'refuses the metadata address %s even when private addresses are allowed',
    (address) => {
      expect(addressRefusal(address, guardOn)).toBe('cloud metadata');
      expect(addressRefusal(address, guardOff)).toBe('cloud metadata');
    },
  );

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:93.184.215.14'])(
    'lets the public address %s through',
    (address) => {
      expect(addressRefusal(address, guardOn)).toBeNull();
    },
  );

  it('accepts bracketed IPv6 as URLs write it', () => {
    expect(addressRefusal('[::1]', guardOn)).toBe('loopback');
  });

  it('lets private addresses through when they are allowed', () => {
    for (const address of ['10.0.0.1', '127.0.0.1', '::1', 'fd12::1', '100.64.0.1']) {
      expect(addressRefusal(address, guardOff)).toBeNull();
    }
  });

  it('refuses what is not an IP address', () => {
    expect(addressRefusal('example.com', guardOff)).toBe('not an IP address');
    expect(addressRefusal('0x7f.1', guardOn)).toBe('not an IP address');
  });
});

describe('hostnameRefusal', () => {
  it.each(['metadata.google.internal', 'METADATA.google.internal.', 'metadata', 'instance-data'])(
    'refuses the metadata name %s always',
    (name) => {
      expect(hostnameRefusal(name, guardOn)).toBe('cloud metadata');
      expect(hostnameRefusal(name, guardOff)).toBe('cloud metadata');
    },
  );

  it('refuses localhost names unless private addresses are allowed', () => {
    expect(hostnameRefusal('localhost', guardOn)).toBe('loopback');
    expect(hostnameRefusal('api.localhost', guardOn)).toBe('loopback');
    expect(hostnameRefusal('localhost', guardOff)).toBeNull();
    expect(hostnameRefusal('example.com', guardOn)).toBeNull();
  });
});
