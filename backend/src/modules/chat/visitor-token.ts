import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ClientNetworks } from '../../common/client-network.js';

/** A widget visitor as the server knows it. */
export interface Visitor {
  /** What the chat log, the per-visitor limit and the one-message-in-flight lock key on. */
  id: string;
  /** What the widget sends back (`X-Visitor-Token`) to stay this visitor. */
  token: string;
}

const VERSION = 'v1';
/** `v1.<22 characters of id>.<22 characters of MAC>`: 16 random bytes, and 128 bits of HMAC-SHA256. */
const TOKEN_PATTERN = /^v1\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;
const TOKEN_LENGTH = 48;

/**
 * Visitor identity is issued by the server, never chosen by the client. A visitor token names a
 * random visitor id and is signed (HMAC, with a key derived from the session secret) together with
 * the bot and the client's network (the keyed hash ClientNetworks gives of an IPv4 address or an
 * IPv6 /64). A request whose token is missing, forged, or was issued for another bot or another
 * network is a new visitor with a fresh id, so a script that invents identities gains nothing over
 * one that sends none: every message is then a new visitor, and the per-IP limit is what holds it.
 *
 * A visitor who changes network (Wi-Fi to mobile) becomes a new visitor: a new conversation in
 * the owner's logs. Tokens do not expire; one is only worth its own per-visitor limit.
 */
export class VisitorTokens {
  private readonly key: Buffer;

  constructor(
    sessionSecret: string,
    private readonly networks: ClientNetworks,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', sessionSecret, 'botsmith', 'visitor-token', 32));
  }

  /** The visitor `token` names if this server issued it for this bot and client network; else a new visitor. */
  resolve(token: string | undefined, botId: number, ip: string): Visitor {
    const network = this.networks.key(ip);
    const known = this.verify(token, botId, network);
    if (known) return { id: known, token: token! };
    const id = randomBytes(16).toString('base64url');
    return { id, token: `${VERSION}.${id}.${this.mac(id, botId, network)}` };
  }

  private verify(token: string | undefined, botId: number, network: string): string | null {
    // Length first: nothing longer than a real token reaches the pattern.
    if (!token || token.length !== TOKEN_LENGTH) return null;
    const match = TOKEN_PATTERN.exec(token);
    if (!match) return null;
    const [, id, given] = match;
    const expected = Buffer.from(this.mac(id, botId, network));
    const received = Buffer.from(given);
    return received.length === expected.length && timingSafeEqual(received, expected) ? id : null;
  }

  private mac(id: string, botId: number, network: string): string {
    return createHmac('sha256', this.key)
      .update(`${VERSION}\n${botId}\n${network}\n${id}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}
