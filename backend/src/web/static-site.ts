import fs from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express, { type Express, type Request, type Response, type NextFunction } from 'express';
import type { AppConfig } from '../config/config.js';

const ONE_YEAR = 365 * 24 * 60 * 60;

/**
 * Serves what the browser needs from the same process as the API:
 * - `/widget.js` (the loader customers embed; short cache, since its name never changes) and
 *   `/widget-assets/*` (hashed chunks, cached for a year), loadable from any origin;
 * - the built frontend, with history fallback to index.html for every non-API path, except `/`,
 *   which gets landing.html (the same shell with the landing page prerendered into it at build time).
 * Static files are compressed (gzip/brotli as the browser accepts); the API is not, so that
 * server-sent chat events are never held back in a compression buffer.
 */
export function mountStaticSite(app: Express, roots: AppConfig['staticRoots']): void {
  const compress = compression();
  app.use((req: Request, res: Response, next: NextFunction) =>
    isApiPath(req.path) ? next() : compress(req, res, next),
  );

  app.get('/widget.js', (_req: Request, res: Response) => {
    const file = path.join(roots.widget, 'widget.js');
    if (!fs.existsSync(file)) {
      res.status(503).type('text/javascript').send('/* The widget is not built yet: run npm run build. */');
      return;
    }
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'public, max-age=300, stale-while-revalidate=86400');
    res.type('text/javascript');
    res.sendFile(file);
  });

  app.use(
    '/widget-assets',
    express.static(path.join(roots.widget, 'widget-assets'), {
      immutable: true,
      maxAge: ONE_YEAR * 1000,
      fallthrough: false,
      setHeaders: (res) => {
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
        res.setHeader('Access-Control-Allow-Origin', '*');
      },
    }),
  );

  app.use(
    '/assets',
    express.static(path.join(roots.frontend, 'assets'), {
      immutable: true,
      maxAge: ONE_YEAR * 1000,
      fallthrough: false,
    }),
  );
  app.use(express.static(roots.frontend, { index: false, maxAge: 60 * 60 * 1000 }));

  const indexFile = path.join(roots.frontend, 'index.html');
  const landingFile = path.join(roots.frontend, 'landing.html');
  app.get(/^(?!\/api(\/|$)).*/, (req: Request, res: Response, next: NextFunction) => {
    if (!req.accepts('html')) return next();
    if (!fs.existsSync(indexFile)) {
      res.status(503).type('text/plain').send('The frontend is not built yet: run npm run build.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(req.path === '/' && fs.existsSync(landingFile) ? landingFile : indexFile);
  });
}

function isApiPath(urlPath: string): boolean {
  return urlPath === '/api' || urlPath.startsWith('/api/');
}
