import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** The public, cross-origin part of the API: the widget calls it from customers' sites. */
export const WIDGET_API_PATHS = ['/api/chat', '/api/widget'];

/** The server-issued visitor identity: sent with answers, sent back by the widget. */
export const VISITOR_TOKEN_HEADER = 'X-Visitor-Token';
/** The host page's proof of who the visitor is, on every visitor route (identityFromHeader). */
export const VISITOR_IDENTITY_HEADER = 'X-Visitor-Identity';

const ALLOWED_HEADERS = `Content-Type, Accept, Authorization, X-Page-Url, X-Visitor-Id, ${VISITOR_TOKEN_HEADER}, ${VISITOR_IDENTITY_HEADER}, Last-Event-ID`;

/**
 * CORS for the widget's calls: any origin may call them, WITHOUT credentials (no
 * Access-Control-Allow-Credentials, so a browser never sends the dashboard's session cookie
 * cross-site, and `*` is safe: these answers hold nothing private). Which sites may use a bot is
 * decided per bot on the server (allowedDomain), not by CORS. Preflights are answered here.
 * Every other path sends no CORS headers at all: the dashboard API stays same-origin.
 */
export function widgetCors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', `Retry-After, ${VISITOR_TOKEN_HEADER}`);
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
}

/** Mounted by createApp after helmet (whose Cross-Origin-Resource-Policy it overrides here). */
export function mountWidgetCors(app: INestApplication): void {
  app.use(WIDGET_API_PATHS, widgetCors);
}
