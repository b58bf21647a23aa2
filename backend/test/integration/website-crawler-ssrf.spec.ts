import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  AddressNotAllowedError,
  openGuardedSocket,
  type ConnectTarget,
  type Connector,
  type Resolver,
} from '../../src/common/outbound/guarded-agent.js';
import { WebsiteCrawler, type WebsiteCrawlerSettings } from '../../src/modules/knowledge/website/website-crawler.js';
import { crawlError, page, startTestWebsite, type TestWebsite } from '../support/test-website.js';

/**
 * The crawler's network guard (CRAWL_ALLOW_PRIVATE off). Live requests aim only at loopback,
 * where a broken guard reaches nothing but our own test server. Private, link-local and
 * metadata ranges are tested with a stubbed resolver and a connect hook that records every
 * address it is asked for and refuses all but loopback: no test opens a connection to a
 * non-loopback address.
 */

const USER_AGENT = 'BotsmithBot/1.0 (+http://botsmith.test)';
/** What the stubbed resolver answers for "public" names; the hook sends it to the loopback site. */
const PUBLIC_ADDRESS = '93.184.215.14';

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address === '::ffff:127.0.0.1';
}

/** A socket that fails at once, as a refused connection does. */
function refusedSocket(): net.Socket {
  const socket = new net.Socket();
  process.nextTick(() =>
    socket.destroy(Object.assign(new Error('refused by the test hook'), { code: 'ECONNREFUSED' })),
  );
  return socket;
}

interface Network {
  resolve: Resolver;
  connect: Connector;
  lookups: string[];
  connections: ConnectTarget[];
}

/**
 * A stub network: `names` is the resolver's table; the connect hook records each target, sends
 * PUBLIC_ADDRESS to the loopback test site, connects loopback targets for real (only our own
 * server listens there) and refuses everything else without touching the network.
 */
function stubNetwork(names: Record<string, string[] | (() => string[])>, site?: TestWebsite): Network {
  const lookups: string[] = [];
  const connections: ConnectTarget[] = [];
  return {
    lookups,
    connections,
    resolve: async (hostname) => {
      lookups.push(hostname);
      const entry = names[hostname];
      const addresses = typeof entry === 'function' ? entry() : entry;
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
    },
    connect: (target) => {
      connections.push(target);
      if (target.host === PUBLIC_ADDRESS && site) return net.connect({ host: '127.0.0.1', port: site.port });
      if (isLoopback(target.host)) return net.connect({ host: target.host, port: target.port });
      return refusedSocket();
    },
  };
}

function guardedCrawler(settings: Partial<WebsiteCrawlerSettings> = {}): WebsiteCrawler {
  return new WebsiteCrawler({ allowPrivate: false, userAgent: USER_AGENT, ...settings });
}

const NOT_ALLOWED = 'This address points to a private network and cannot be crawled.';
/**
 * What a name that resolves to a refused address gets: the answer for a name that does not
 * resolve at all, so an owner cannot map the names of our internal network (issue 25).
 */
const UNREACHABLE = 'The website could not be reached. Check the address and try again.';

describe('WebsiteCrawler network guard', () => {
  let site: TestWebsite;
  beforeEach(async () => {
    site = await startTestWebsite({
      '/': { body: page('Home', '<p>Home.</p>') },
      '/secret': { body: page('Secret', '<p>Internal data.</p>') },
    });
  });
  afterEach(async () => {
    await site.close();
  });

  describe('live, against loopback only', () => {
    it.each([
      ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/`],
      ['localhost', (port: number) => `http://localhost:${port}/`],
      ['[::1]', (port: number) => `http://[::1]:${port}/`],
      ['127.0.0.1 in hex', (port: number) => `http://0x7f.0.0.1:${port}/`],
      ['127.0.0.1 as a number', (port: number) => `http://2130706433:${port}/`],
      ['IPv4-mapped 127.0.0.1', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
    ])('refuses %s and sends it nothing', async (_name, url) => {
      const error = await crawlError(guardedCrawler({ allowPorts: [site.port] }).crawl(url(site.port)));
      expect([error.code, error.status, error.message]).toEqual(['URL_NOT_ALLOWED', 422, NOT_ALLOWED]);
      expect(site.requests).toEqual([]);
    });

    it('refuses [::1] with a server listening there too', async () => {
      let v6: TestWebsite;
      try {
        v6 = await startTestWebsite({ '/': { body: page('Home', '<p>Home.</p>') } }, '::1');
      } catch {
        return; // no IPv6 loopback on this machine: the case above covers the refusal
      }
      try {
        const error = await crawlError(guardedCrawler({ allowPorts: [v6.port] }).crawl(`${v6.origin}/`));
        expect(error.code).toBe('URL_NOT_ALLOWED');
        expect(v6.requests).toEqual([]);
      } finally {
        await v6.close();
      }
    });

    it('refuses a name that resolves to loopback, checked after resolution, with the real connector', async () => {
      const lookups: string[] = [];
      const resolve: Resolver = async (hostname) => {
        lookups.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      };
      const error = await crawlError(
        guardedCrawler({ allowPorts: [site.port], resolve }).crawl(`http://intranet.example.com:${site.port}/`),
      );
      // Said as for a name that does not resolve (issue 25: no oracle of internal names).
      expect([error.code, error.message]).toEqual(['SITE_UNREACHABLE', UNREACHABLE]);
      expect(lookups).toEqual(['intranet.example.com']);
      expect(site.requests).toEqual([]);
    });

    it('refuses a port other than 80 and 443 before any lookup', async () => {
      const network = stubNetwork({ 'example.test': [PUBLIC_ADDRESS] }, site);
      const error = await crawlError(guardedCrawler(network).crawl('http://example.test:8080/'));
      expect([error.code, error.message]).toEqual([
        'URL_NOT_ALLOWED',
        'Only addresses on the standard web ports (80 and 443) can be crawled.',
      ]);
      expect(network.lookups).toEqual([]);
      expect(network.connections).toEqual([]);
    });
  });

  describe('a public-looking start that redirects inward', () => {
    // A name that resolves inward is answered as one that does not resolve (issue 25).
    it.each([
      ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/secret`, NOT_ALLOWED],
      ['localhost', (port: number) => `http://localhost:${port}/secret`, NOT_ALLOWED],
      ['[::1]', (port: number) => `http://[::1]:${port}/secret`, NOT_ALLOWED],
      ['a name resolving to loopback', (port: number) => `http://rebind.test:${port}/secret`, UNREACHABLE],
      ['a private address', () => 'http://10.0.0.1/secret', NOT_ALLOWED],
      ['a name resolving to a private address', () => 'http://intranet.test/secret', UNREACHABLE],
      ['a name that does not resolve', () => 'http://nowhere.test/secret', UNREACHABLE],
      ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', NOT_ALLOWED],
      ['the IPv6 metadata address', () => 'http://[fd00:ec2::254]/latest/meta-data/', NOT_ALLOWED],
      ['the metadata name', () => 'http://metadata.google.internal/computeMetadata/v1/', NOT_ALLOWED],
    ])('is refused at the redirect to %s', async (_name, target, sentence) => {
      site.routes.set('/', { status: 302, headers: { location: target(site.port) } });
      const network = stubNetwork(
        { 'example.test': [PUBLIC_ADDRESS], 'rebind.test': ['127.0.0.1'], 'intranet.test': ['192.168.1.10'] },
        site,
      );
      const error = await crawlError(
        guardedCrawler({ ...network, allowPorts: [site.port] }).crawl('http://example.test/'),
      );
      expect([error.code, error.message]).toEqual([
        sentence === NOT_ALLOWED ? 'URL_NOT_ALLOWED' : 'SITE_UNREACHABLE',
        sentence,
      ]);
      // robots.txt and the redirecting start page, nothing more: /secret was never asked for.
      expect(site.paths()).toEqual(['/robots.txt', '/']);
      expect(network.connections.map((c) => c.host).filter((host) => host !== PUBLIC_ADDRESS)).toEqual([]);
      expect(network.lookups).not.toContain('metadata.google.internal');
    });

    it('skips an inner page that redirects inward and keeps crawling', async () => {
      site.routes.set('/', { body: page('Home', '<p>Home.</p>', ['/jump', '/ftp', '/fine']) });
      site.routes.set('/jump', { status: 301, headers: { location: 'http://10.20.30.40/admin' } });
      site.routes.set('/ftp', { status: 301, headers: { location: 'ftp://example.test/file' } });
      site.routes.set('/fine', { body: page('Fine', '<p>Fine.</p>') });
      const network = stubNetwork({ 'example.test': [PUBLIC_ADDRESS] }, site);
      const result = await guardedCrawler(network).crawl('http://example.test/');
      expect(result.pages.map((p) => p.url)).toEqual(['http://example.test/', 'http://example.test/fine']);
      expect(result.skipped).toEqual(
        expect.arrayContaining([
          { url: 'http://example.test/jump', reason: 'address_not_allowed' },
          { url: 'http://example.test/ftp', reason: 'bad_redirect' },
        ]),
      );
      expect(network.connections.every((c) => c.host === PUBLIC_ADDRESS)).toBe(true);
    });

    it('checks the address of every new connection, so a name that rebinds to a private address is refused', async () => {
      let answers = 0;
      // Every answer after the first two (robots.txt, start page) points inward.
      const network = stubNetwork({ 'example.test': () => (++answers <= 2 ? [PUBLIC_ADDRESS] : ['10.0.0.7']) }, site);
      const links = ['/a', '/b', '/c'];
      site.routes.set('/', { headers: { connection: 'close' }, body: page('Home', '<p>Home.</p>', links) });
      site.routes.set('/robots.txt', { status: 404, headers: { connection: 'close' } });
      for (const link of links)
        site.routes.set(link, { headers: { connection: 'close' }, body: page(link, `<p>${link}</p>`) });
      const result = await guardedCrawler(network).crawl('http://example.test/');
      expect(result.pages.map((p) => p.url)).toEqual(['http://example.test/']);
      expect(network.lookups.length).toBeGreaterThan(2);
      expect(
        result.skipped
          .filter((s) => s.reason === 'address_not_allowed')
          .map((s) => s.url)
          .sort(),
      ).toEqual(links.map((link) => `http://example.test${link}`));
      expect(network.connections.map((c) => c.host)).not.toContain('10.0.0.7');
      expect(site.paths()).toEqual(['/robots.txt', '/']);
    });
  });

  describe('private, link-local and metadata ranges, with a stubbed resolver and a recording hook', () => {
    const REFUSED = [
      '10.1.2.3',
      '172.16.5.4',
      '172.31.255.254',
      '192.168.0.1',
      '100.64.0.1',
      '100.127.255.254',
      '169.254.169.254',
      '169.254.10.10',
      '127.0.0.2',
      '0.0.0.0',
      '224.0.0.251',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'fd00:ec2::254',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '2002:c0a8:101::1',
    ];

    it.each(REFUSED)('refuses a name resolving to %s and never connects, as if it did not resolve', async (address) => {
      const network = stubNetwork({ 'site.test': [address] });
      const error = await crawlError(guardedCrawler(network).crawl('http://site.test/'));
      expect([error.code, error.status, error.message]).toEqual(['SITE_UNREACHABLE', 422, UNREACHABLE]);
      expect(network.lookups).toEqual(['site.test']);
      expect(network.connections).toEqual([]);
    });

    it.each([
      'http://10.0.0.1/',
      'http://172.20.0.1/',
      'http://192.168.1.1/',
      'http://100.100.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://[::ffff:a00:1]/',
      'http://[::ffff:192.168.1.1]/',
      'http://metadata.google.internal/',
      'https://10.0.0.1/',
    ])('refuses %s before any lookup or connection', async (url) => {
      const network = stubNetwork({});
      const error = await crawlError(guardedCrawler(network).crawl(url));
      expect(error.code).toBe('URL_NOT_ALLOWED');
      expect(network.lookups).toEqual([]);
      expect(network.connections).toEqual([]);
    });

    it('refuses a name with one public and one private address', async () => {
      const network = stubNetwork({ 'site.test': [PUBLIC_ADDRESS, '10.0.0.1'] });
      expect((await crawlError(guardedCrawler(network).crawl('http://site.test/'))).code).toBe('SITE_UNREACHABLE');
      expect(network.connections).toEqual([]);
    });

    it('answers a name that resolves privately exactly as one that does not resolve', async () => {
      const network = stubNetwork({ 'intranet.test': ['10.0.0.5'], 'metadata.test': ['169.254.169.254'] });
      const answers = [];
      for (const url of ['http://intranet.test/', 'http://metadata.test/', 'http://no-such-name.test/']) {
        const error = await crawlError(guardedCrawler(network).crawl(url));
        answers.push([error.code, error.status, error.message]);
      }
      expect(answers).toEqual([
        ['SITE_UNREACHABLE', 422, UNREACHABLE],
        ['SITE_UNREACHABLE', 422, UNREACHABLE],
        ['SITE_UNREACHABLE', 422, UNREACHABLE],
      ]);
      expect(network.lookups).toEqual(['intranet.test', 'metadata.test', 'no-such-name.test']);
      expect(network.connections).toEqual([]);
    });

    it('connects to exactly the public address it checked, for http and https', async () => {
      const network = stubNetwork({ 'site.test': ['2606:4700::1', PUBLIC_ADDRESS] });
      const error = await crawlError(guardedCrawler(network).crawl('https://site.test/'));
      // The hook refused both: unreachable, not "not allowed".
      expect(error.code).toBe('SITE_UNREACHABLE');
      expect(network.connections).toEqual([
        { host: '2606:4700::1', port: 443, family: 6, hostname: 'site.test' },
        { host: PUBLIC_ADDRESS, port: 443, family: 4, hostname: 'site.test' },
      ]);
    });

    it('reaches private addresses with CRAWL_ALLOW_PRIVATE, but never metadata', async () => {
      const network = stubNetwork({ 'intranet.test': ['10.0.0.1'], 'meta.test': ['169.254.169.254'] });
      const crawler = guardedCrawler({ ...network, allowPrivate: true });
      expect((await crawlError(crawler.crawl('http://intranet.test:8080/'))).code).toBe('SITE_UNREACHABLE');
      expect(network.connections).toEqual([{ host: '10.0.0.1', port: 8080, family: 4, hostname: 'intranet.test' }]);
      expect((await crawlError(crawler.crawl('http://meta.test/'))).code).toBe('SITE_UNREACHABLE');
      for (const url of ['http://169.254.169.254/', 'http://[fd00:ec2::254]/', 'http://metadata.google.internal/']) {
        expect((await crawlError(crawler.crawl(url))).code).toBe('URL_NOT_ALLOWED');
      }
      expect(network.connections).toHaveLength(1);
    });

    it('openGuardedSocket: refuses with the address and the reason, and never calls the connector', async () => {
      const network = stubNetwork({ 'db.test': ['172.17.0.2'] });
      const refusal = openGuardedSocket('db.test', 5432, { allowPrivate: false, ...network });
      await expect(refusal).rejects.toBeInstanceOf(AddressNotAllowedError);
      await expect(refusal).rejects.toMatchObject({ hostname: 'db.test', address: '172.17.0.2', reason: 'private' });
      expect(network.connections).toEqual([]);
    });
  });

  const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
  // The https cases make their certificate with the openssl command; without it they are skipped, saying why.
  (hasOpenssl ? describe : describe.skip)(
    `https through the guard${hasOpenssl ? '' : ' (skipped: the openssl command is not installed here)'}`,
    () => {
      let directory: string;
      let secure: https.Server;
      let securePaths: string[];
      let ca: string;

      /** A self-signed certificate for one name, made with the openssl command line. */
      function certificate(name: string): { key: string; cert: string } {
        const prefix = path.join(directory, name);
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:prime256v1',
            '-nodes',
            '-days',
            '1',
            '-keyout',
            `${prefix}.key`,
            '-out',
            `${prefix}.crt`,
            '-subj',
            `/CN=${name}`,
            '-addext',
            `subjectAltName=DNS:${name}`,
          ],
          { stdio: 'ignore' },
        );
        return { key: readFileSync(`${prefix}.key`, 'utf8'), cert: readFileSync(`${prefix}.crt`, 'utf8') };
      }

      async function startSecure(name: string): Promise<number> {
        const { key, cert } = certificate(name);
        ca = cert;
        securePaths = [];
        secure = https.createServer({ key, cert }, (request, response) => {
          securePaths.push(request.url ?? '');
          if (request.url === '/') {
            response.writeHead(200, { 'content-type': 'text/html' });
            response.end(page('Secure home', '<p>Served over TLS.</p>', ['/inward']));
          } else if (request.url === '/inward') {
            response.writeHead(302, { location: 'https://10.0.0.1/' });
            response.end();
          } else {
            response.writeHead(404);
            response.end();
          }
        });
        await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
        return (secure.address() as net.AddressInfo).port;
      }

      /** "secure.test" resolves to a public address; the hook sends its port 443 to the TLS server. */
      function secureNetwork(port: number): Network {
        const network = stubNetwork({ 'secure.test': [PUBLIC_ADDRESS] });
        const record = network.connect;
        network.connect = (target) => {
          if (target.host === PUBLIC_ADDRESS && target.port === 443) {
            network.connections.push(target);
            return net.connect({ host: '127.0.0.1', port });
          }
          return record(target);
        };
        return network;
      }

      beforeEach(() => {
        directory = mkdtempSync(path.join(os.tmpdir(), 'crawl-tls-'));
      });
      afterEach(async () => {
        secure.closeAllConnections();
        await new Promise((resolve) => secure.close(resolve));
        rmSync(directory, { recursive: true, force: true });
      });

      it('crawls over TLS to the checked address, verifying the certificate against the URL name', async () => {
        const network = secureNetwork(await startSecure('secure.test'));
        const result = await guardedCrawler({ ...network, tlsCa: ca }).crawl('https://secure.test/');
        expect(result.pages).toMatchObject([
          { url: 'https://secure.test/', title: 'Secure home', text: 'Served over TLS.' },
        ]);
        expect(result.skipped).toContainEqual({ url: 'https://secure.test/inward', reason: 'address_not_allowed' });
        expect(network.connections.every((c) => c.host === PUBLIC_ADDRESS && c.port === 443)).toBe(true);
      });

      it('refuses a certificate made out to another name', async () => {
        const network = secureNetwork(await startSecure('other.test'));
        const error = await crawlError(guardedCrawler({ ...network, tlsCa: ca }).crawl('https://secure.test/'));
        expect(error.code).toBe('SITE_UNREACHABLE');
        expect(securePaths).toEqual([]);
      });
    },
  );
});
