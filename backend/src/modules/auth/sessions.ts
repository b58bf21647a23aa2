import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import session from 'express-session';
import passport from 'passport';
import type { SessionUser } from '../../common/current-user.decorator.js';
import { SESSION_COOKIE } from '../../common/constants.js';
import type { AppConfig } from '../../config/config.js';
import { sessionSecret } from '../../config/session-secret.js';
import { DatabaseSessionStore } from './session-store.js';
import { SessionsRepository } from './sessions.repository.js';

export { SESSION_COOKIE };

declare module 'express-session' {
  interface SessionData {
    /** When the owner signed in; the absolute lifetime counts from here. */
    authenticatedAt?: number;
  }
}

/**
 * Cookie sessions stored in PostgreSQL: HttpOnly, SameSite=Lax, Secure behind https, an idle
 * lifetime (rolling cookie) and an absolute one (checked on every request). Not on `sessionless`
 * paths (the widget's API: every route there is public and identifies visitors by their own
 * token, so reading a session there is work for nothing on the busiest path, and a session
 * cookie sent there is neither read nor renewed).
 */
export function configureSessions(app: INestApplication, config: AppConfig, sessionless: readonly string[] = []): void {
  const idleMs = config.session.idleMinutes * 60_000;
  const absoluteMs = config.session.absoluteHours * 3_600_000;
  const secure = config.publicUrl.startsWith('https://');
  const middleware = [
    session({
      name: SESSION_COOKIE,
      secret: sessionSecret(config),
      store: new DatabaseSessionStore(app.get(SessionsRepository), idleMs),
      resave: false,
      saveUninitialized: false,
      rolling: true,
      proxy: secure,
      cookie: { httpOnly: true, sameSite: 'lax', secure, maxAge: idleMs, path: '/' },
    }),
    passport.initialize(),
    passport.session(),
    (req: Request, _res: Response, next: NextFunction) => {
      if (!req.user) return next();
      req.session.authenticatedAt ??= Date.now();
      if (Date.now() - req.session.authenticatedAt <= absoluteMs) return next();
      endSession(req).then(() => next(), next);
    },
  ] as Array<(req: Request, res: Response, next: NextFunction) => void>;
  for (const handler of middleware) {
    app.use((req: Request, res: Response, next: NextFunction) =>
      sessionless.some((path) => isUnder(req.path, path)) ? next() : handler(req, res, next),
    );
  }
}

/** Whether `path` is `prefix` or below it (`/api/chat/feedback` is under `/api/chat`, `/api/chatter` is not). */
function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Signs `user` in on this request. Passport regenerates the session first, so the id the browser
 * had before (possibly planted by someone else) is never the signed-in one.
 */
export function startSession(req: Request, user: SessionUser): Promise<void> {
  return new Promise((resolve, reject) => {
    req.login(user, (error) => {
      if (error) return reject(error as Error);
      req.session.authenticatedAt = Date.now();
      resolve();
    });
  });
}

/** Logs the request's owner out and deletes the session row. */
export function endSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => {
    req.logout((logoutError) => {
      if (logoutError) return reject(logoutError as Error);
      if (!req.session) return resolve();
      req.session.destroy((destroyError) => (destroyError ? reject(destroyError as Error) : resolve()));
    });
  });
}
