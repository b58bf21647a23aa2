import { HttpStatus, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { AppError } from './app-error.js';
import { HEADER_MAX_CHARS, SESSION_COOKIE } from './constants.js';
import { SKIP_ORIGIN_CHECK } from './skip-origin-check.decorator.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Public cross-origin endpoints that carry no session semantics. Matched on whole path segments,
 * as a backstop for routes that forget `@SkipOriginCheck()`.
 */
const CROSS_ORIGIN_PREFIXES = ['/api/chat', '/api/widget', '/api/billing/webhook'];

export function isCrossOriginPath(path: string): boolean {
  return CROSS_ORIGIN_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The origin of an Origin or Referer value; null for an opaque, unparsable or over-long one. */
function originOf(value: string, maxChars: number): string | null {
  if (value.length > maxChars) return null;
  try {
    const { origin } = new URL(value);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Refuses a state-changing request that a browser sent from another site: a third-party page
 * must not ride the owner's session cookie (CSRF), nor sign a visitor into an attacker's
 * account (login CSRF).
 *
 * - GET/HEAD/OPTIONS pass (they change nothing by contract).
 * - `Origin` (or, when absent, the origin of `Referer`) must equal PUBLIC_URL's origin.
 *   A foreign or opaque ("null") origin is refused, with or without a cookie.
 * - With neither header, a request that carries the session cookie is refused (a browser sends
 *   one of them on every cross-site POST); one without the cookie passes (scripts, servers).
 */
@Injectable()
export class OriginGuard implements CanActivate {
  private readonly ownOrigin: string;

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownOrigin = new URL(config.publicUrl).origin;
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(request.method)) return true;
    const skip = this.reflector.getAllAndOverride<boolean>(SKIP_ORIGIN_CHECK, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (skip || isCrossOriginPath(request.path)) return true;

    const origin = request.headers.origin;
    const referer = request.headers.referer;
    if (origin !== undefined) {
      if (originOf(origin, HEADER_MAX_CHARS.origin) === this.ownOrigin) return true;
    } else if (referer !== undefined) {
      if (originOf(referer, HEADER_MAX_CHARS.referer) === this.ownOrigin) return true;
    } else if (!hasSessionCookie(request)) {
      return true;
    }
    throw new AppError(
      HttpStatus.FORBIDDEN,
      'ORIGIN_NOT_ALLOWED',
      'This request was refused because it did not come from the Botsmith site.',
    );
  }
}

function hasSessionCookie(request: Request): boolean {
  const cookie = request.headers.cookie;
  if (!cookie) return false;
  return cookie.split(';').some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`));
}
