import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { AppModule } from './app.module.js';
import { mountApiReference } from './api-reference.js';
import { configureSessions } from './modules/auth/sessions.js';
import { mountUploads } from './modules/uploads/file-serving.js';
import { mountTestCheckoutPage } from './modules/billing/test-mode/test-checkout.page.js';
import { mountWidgetCors, WIDGET_API_PATHS } from './modules/chat/widget-cors.js';
import { createLogger } from './common/logger.js';
import { requestLogger } from './common/request-logger.middleware.js';
import { answerClientErrors } from './common/client-error.js';
import { refuseMalformedBodies } from './common/request-body.js';
import { REQUEST_BODY_MAX_BYTES } from './common/constants.js';
import { configWarnings, type AppConfig } from './config/config.js';
import type { DatabaseTarget } from './database/database.options.js';
import { mountStaticSite } from './web/static-site.js';

/**
 * The security headers of every response (helmet). docker/nginx.conf sends the same ones with
 * the dashboard's HTML it serves itself; the nginx integration test compares the two.
 */
export function securityHeaders(config: AppConfig): ReturnType<typeof helmet> {
  return helmet({
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
  // Which peers may say who the client is (X-Forwarded-For): per-IP limits count req.ip, so
  // trusting too much lets a client pick its own address, too little makes every visitor behind
  // the reverse proxy one client.
  app.set('trust proxy', config.trustProxy);
  for (const warning of configWarnings(config)) new Logger('Config').warn(warning);
  app.disable('x-powered-by');
  answerClientErrors(app.getHttpServer());
  app.use(securityHeaders(config));
  app.use(requestLogger);
  mountWidgetCors(app);
  app.setGlobalPrefix('api');
  app.useBodyParser('json', { limit: REQUEST_BODY_MAX_BYTES });
  // Registered here (Nest would add it at init, after everything below) so that the shape check
  // right after it sees form bodies too.
  app.useBodyParser('urlencoded', { extended: true, limit: REQUEST_BODY_MAX_BYTES });
  app.use(refuseMalformedBodies);
  configureSessions(app, config, WIDGET_API_PATHS);
  mountTestCheckoutPage(app);
  mountUploads(app.getHttpAdapter().getInstance(), app);
  mountApiReference(app);
  mountStaticSite(app.getHttpAdapter().getInstance(), config.staticRoots);
  return app;
}
