import { ClientNetworks } from '../../common/client-network.js';
import { VisitorTokens } from './visitor-token.js';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const OTHER = 'another-secret-of-at-least-32-characters!';

describe('VisitorTokens', () => {
  const tokens = new VisitorTokens(SECRET, new ClientNetworks(SECRET));

  it('issues a new visitor without a token, and honours that token for the same bot and network', () => {
    const issued = tokens.resolve(undefined, 7, '203.0.113.5');
    expect(issued.token).toMatch(/^v1\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/);
    expect(issued.token.split('.')[1]).toBe(issued.id);
    expect(tokens.resolve(issued.token, 7, '203.0.113.5')).toEqual(issued);
    expect(tokens.resolve(undefined, 7, '203.0.113.5').id).not.toBe(issued.id);
  });

  it('binds the token to the IPv6 /64, not the single address', () => {
    const issued = tokens.resolve(undefined, 7, '2001:db8:1:2::5');
    expect(tokens.resolve(issued.token, 7, '2001:db8:1:2:ffff::9').id).toBe(issued.id);
    expect(tokens.resolve(issued.token, 7, '2001:db8:1:3::5').id).not.toBe(issued.id);
  });

  it('treats another bot, another network, a forged or oversized token, or another secret as a new visitor', () => {
    const issued = tokens.resolve(undefined, 7, '203.0.113.5');
    const [, id, mac] = issued.token.split('.');
    const others = [
      tokens.resolve(issued.token, 8, '203.0.113.5'),
      tokens.resolve(issued.token, 7, '203.0.113.6'),
      tokens.resolve(`v1.${id}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, 7, '203.0.113.5'),
      tokens.resolve(`v1.${id}.${mac}${'A'.repeat(16_000)}`, 7, '203.0.113.5'),
      new VisitorTokens(OTHER, new ClientNetworks(OTHER)).resolve(issued.token, 7, '203.0.113.5'),
    ];
    for (const other of others) {
      expect(other.id).not.toBe(issued.id);
      expect(other.token).not.toBe(issued.token);
    }
  });
});
