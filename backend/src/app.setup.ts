import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { AppModule } from './app.module.js';
import { configureSessions } from './modules/auth/sessions.js';
import { mountUploads } from './modules/uploads/file-serving.js';
import { mountTestCheckoutPage } from './modules/billing/test-mode/test-checkout.page.js';
import { mountWidgetCors } from './modules/chat/widget-cors.js';
import { requestLogger } from './common/request-logger.middleware.js';
import type { AppConfig } from './config/config.js';
import type { DatabaseTarget } from './database/database.options.js';
import { mountStaticSite } from './web/static-site.js';

const LEVELS: Record<string, LogLevel[]> = {
  silent: [],
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

export function createLogger(config: AppConfig): ConsoleLogger {
  return new ConsoleLogger('Botsmith', {
    json: config.env === 'production',
    colors: config.env !== 'production' && process.stdout.isTTY,
    logLevels: LEVELS[config.logLevel] ?? LEVELS.info,
  });
}

/**
 * Builds the whole HTTP application: the same function serves `npm start` and the
 * integration tests, so tests exercise exactly what runs in production.
 */
export async function createApp(config: AppConfig, database: DatabaseTarget): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, database }), {
    logger: createLogger(config),
    bufferLogs: true,
    rawBody: true,
  });
  app.set('trust proxy', 'loopback');
  app.disable('x-powered-by');
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          'media-src': ["'self'"],
          'connect-src': ["'self'", 'https://api-js.mixpanel.com'],
          'frame-ancestors': ["'self'"],
          'form-action': ["'self'", 'https://checkout.stripe.com', 'https://billing.stripe.com'],
          'upgrade-insecure-requests': config.publicUrl.startsWith('https://') ? [] : null,
        },
      },
      hsts: config.publicUrl.startsWith('https://'),
    }),
  );
  app.use(requestLogger);
  mountWidgetCors(app);
  app.setGlobalPrefix('api');
  app.useBodyParser('json', { limit: '256kb' });
  configureSessions(app, config);
  mountTestCheckoutPage(app);
  mountUploads(app.getHttpAdapter().getInstance(), app);
  mountStaticSite(app.getHttpAdapter().getInstance(), config.staticRoots);
  return app;
}
