import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

const logger = new Logger('HTTP');

/**
 * E-mailed links carry a secret in the path (/verify-email/<token>, /reset-password/<token>): never
 * log it. Routes match without regard to case, so neither does this.
 */
export function redactPath(path: string): string {
  return path.replace(/\/(verify-email|reset-password)\/[^/]+/gi, '/$1/[redacted]');
}

/** One structured line per request: method, path (no query string), status, duration. */
export function requestLogger(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const path = redactPath(req.originalUrl.split('?', 1)[0] ?? '');
    const line = `${req.method} ${path} ${res.statusCode} ${Math.round(ms * 10) / 10}ms`;
    if (res.statusCode >= 500) logger.error(line);
    else logger.log(line);
  });
  next();
}
