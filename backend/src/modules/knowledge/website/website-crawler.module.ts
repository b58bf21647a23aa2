import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { WEBSITE_CRAWLER_SETTINGS, WebsiteCrawler, type WebsiteCrawlerSettings } from './website-crawler.js';

/** Provides `WebsiteCrawler`, configured from CRAWL_ALLOW_PRIVATE and PUBLIC_URL. */
@Module({
  providers: [
    {
      provide: WEBSITE_CRAWLER_SETTINGS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): WebsiteCrawlerSettings => ({ ...config.crawl }),
    },
    WebsiteCrawler,
  ],
  exports: [WebsiteCrawler],
})
export class WebsiteCrawlerModule {}
