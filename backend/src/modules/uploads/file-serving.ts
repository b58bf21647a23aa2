import { pipeline } from 'node:stream/promises';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import type { Express, Request, Response } from 'express';
import { DocumentsService } from '../knowledge/documents.service.js';
import { contentTypeOfKey, FILE_STORAGE, isStorageKey, type FileStorage } from '../storage/file-storage.js';
import { UPLOADS_PATH } from '../storage/file-urls.js';
import { describeError } from '../../common/error-description.js';

const logger = new Logger('Uploads');

/**
 * GET /uploads/<key>: stored files, served so they can never run as a page of this origin.
 * - Icons are public (the widget shows them on customers' sites): inline, cross-origin, cached.
 * - Documents are sent only to the signed-in owner of their bot, as attachments.
 * Every answer: the type fixed by the generated key, nosniff, and a CSP that allows nothing.
 * Registered on Express before the frontend's history fallback (see app.setup.ts).
 */
export function mountUploads(app: Express, nest: INestApplicationContext): void {
  const storage = nest.get<FileStorage>(FILE_STORAGE, { strict: false });
  const documents = nest.get(DocumentsService, { strict: false });

  app.get(`${UPLOADS_PATH}/:folder/:name`, (req: Request, res: Response) => {
    void serve(req, res, storage, documents);
  });
}

async function serve(req: Request, res: Response, storage: FileStorage, documents: DocumentsService): Promise<void> {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox");
  const key = `${String(req.params.folder)}/${String(req.params.name)}`;
  try {
    // Knowledge files (which may be HTML) are read by the server only, never served.
    if (!isStorageKey(key) || key.startsWith('sources/')) return notFound(res);
    const isDocument = key.startsWith('documents/');
    let downloadName = '';
    if (isDocument) {
      const document = req.user ? await documents.findOwnedByStorageKey(req.user.id, key) : null;
      if (!document) return notFound(res);
      downloadName = document.originalName;
    }
    const file = await storage.get(key);
    if (!file) return notFound(res);

    res.setHeader('Content-Type', contentTypeOfKey(key));
    if (file.size !== undefined) res.setHeader('Content-Length', String(file.size));
    if (isDocument) {
      res.setHeader('Content-Disposition', attachment(downloadName));
      res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
      res.setHeader('Cache-Control', 'private, no-store');
    } else {
      res.setHeader('Content-Disposition', 'inline');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      // Keys are never reused, so an icon's bytes never change.
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    }
    if (req.method === 'HEAD') {
      file.body.destroy();
      res.end();
      return;
    }
    await pipeline(file.body, res);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    logger.error(`GET ${UPLOADS_PATH}/${key} failed: ${describeError(error)}`);
    if (!res.headersSent) {
      res.status(500).json({ error: 'The file could not be read. Please try again.', code: 'INTERNAL_ERROR' });
    } else {
      res.destroy();
    }
  }
}

function notFound(res: Response): void {
  res.status(404).json({ error: 'File not found.', code: 'NOT_FOUND' });
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name, both escaped. */
export function attachment(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
