import { Test } from '@nestjs/testing';
import { buildConfig } from '../../../config/config.js';
import { ConfigModule } from '../../../config/config.module.js';
import { page, startTestWebsite } from '../../../../test/support/test-website.js';
import { WebsiteCrawler } from './website-crawler.js';
import { WebsiteCrawlerModule } from './website-crawler.module.js';

async function crawlerFor(env: NodeJS.ProcessEnv): Promise<WebsiteCrawler> {
  const moduleRef = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(buildConfig(env, '/repo')), WebsiteCrawlerModule],
  }).compile();
  return moduleRef.get(WebsiteCrawler);
}

describe('WebsiteCrawlerModule', () => {
  it('provides a crawler that refuses private addresses by default', async () => {
    const crawler = await crawlerFor({});
    await expect(crawler.crawl('http://10.0.0.1/')).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
  });

  it('passes CRAWL_ALLOW_PRIVATE and PUBLIC_URL on: a loopback site is then crawled, metadata still refused', async () => {
    const site = await startTestWebsite({ '/': { body: page('Home', '<p>Intranet home.</p>') } });
    try {
      const env = { PUBLIC_URL: 'https://app.botsmith.dev' };
      await expect((await crawlerFor(env)).crawl(`${site.origin}/`)).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
      expect(site.requests).toEqual([]);
      const crawler = await crawlerFor({ ...env, CRAWL_ALLOW_PRIVATE: 'true' });
      const result = await crawler.crawl(`${site.origin}/`);
      expect(result.pages).toMatchObject([{ url: `${site.origin}/`, title: 'Home', text: 'Intranet home.' }]);
      expect(site.requests[0].headers['user-agent']).toBe('BotsmithBot/1.0 (+https://app.botsmith.dev)');
      await expect(crawler.crawl('http://169.254.169.254/')).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    } finally {
      await site.close();
    }
  });
});
