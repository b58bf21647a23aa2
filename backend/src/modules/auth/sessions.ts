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
 * lifetime (rolling cookie) and an absolute one (checked on every request).
 */
export function configureSessions(app: INestApplication, config: AppConfig): void {
  const idleMs = config.session.idleMinutes * 60_000;
  const absoluteMs = config.session.absoluteHours * 3_600_000;
  const secure = config.publicUrl.startsWith('https://');
  app.use(
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
  );
  app.use(passport.initialize());
  app.use(passport.session());
  app.use((req: Request, _res: Response, next: NextFunction) => {
    if (!req.user) return next();
    req.session.authenticatedAt ??= Date.now();
    if (Date.now() - req.session.authenticatedAt <= absoluteMs) return next();
    endSession(req).then(() => next(), next);
  });
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
