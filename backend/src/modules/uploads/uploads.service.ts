import path from 'node:path';
import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { sniffFileType } from '../../common/file-type.js';
import { AppError } from '../../common/app-error.js';
import type { UploadedFileLike } from '../../common/single-file.interceptor.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { BotsService } from '../bots/bots.service.js';
import { DocumentsService, type DocumentResponse } from '../knowledge/documents.service.js';
import {
  FILE_STORAGE,
  newStorageKey,
  STORED_FILE_TYPES,
  type FileStorage,
  type StoredExtension,
} from '../storage/file-storage.js';
import { publicFileUrl, uploadPath } from '../storage/file-urls.js';
import { describeError } from '../../common/error-description.js';

/** What the content of an icon may be (checked from its bytes, never its name or declared type). */
const ICON_TYPES: Record<string, StoredExtension> = {
  'image/png': 'png',
  'image/apng': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Icon and reference-document uploads. Every file is identified by its content, stored under a
 * generated key, and recorded against the owner's bot; a failure after storing removes the file.
 */
@Injectable()
export class UploadsService {
  private readonly logger = new Logger(UploadsService.name);

  constructor(
    private readonly bots: BotsService,
    private readonly documents: DocumentsService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async uploadIcon(ownerId: number, botId: number, file: UploadedFileLike): Promise<{ fileUrl: string }> {
    await this.bots.assertOwned(ownerId, botId);
    const detected = await sniffFileType(file.buffer);
    const extension = detected ? ICON_TYPES[detected.mime] : undefined;
    if (!extension) {
      throw new AppError(
        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        'UNSUPPORTED_FILE_TYPE',
        'This file is not a supported image. Upload a PNG, JPEG, GIF or WebP image (SVG is not accepted).',
      );
    }
    const key = newStorageKey('icons', extension);
    await this.storage.put(key, file.buffer, STORED_FILE_TYPES[extension]);
    const fileUrl = publicFileUrl(this.config, key);
    await this.undoOnFailure(key, () => this.bots.setIcon(ownerId, botId, fileUrl));
    return { fileUrl };
  }

  async uploadDocument(
    ownerId: number,
    botId: number,
    file: UploadedFileLike,
  ): Promise<{ document: DocumentResponse }> {
    await this.bots.assertOwned(ownerId, botId);
    const detected = await sniffFileType(file.buffer);
    if (detected?.mime !== 'application/pdf') {
      throw new AppError(
        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        'UNSUPPORTED_FILE_TYPE',
        'This file is not a PDF. Upload the reference document as a PDF.',
      );
    }
    const prepared = await this.documents.prepare(file.buffer);
    const key = newStorageKey('documents', 'pdf');
    await this.storage.put(key, file.buffer, STORED_FILE_TYPES.pdf);
    const record = {
      botId,
      originalName: displayName(file.originalname),
      storageKey: key,
      filePath: uploadPath(key),
      sizeBytes: file.size,
      pageCount: prepared.pageCount,
    };
    const same = await this.sameFileSources(botId, file.buffer);
    const replaced = await this.undoOnFailure(key, () =>
      this.bots.withLockedBot(ownerId, botId, (tx) =>
        this.documents.replace(
          tx,
          record,
          prepared.chunks,
          same.map((source) => source.id),
        ),
      ),
    );
    if (replaced) await this.removeQuietly(replaced.storageKey);
    for (const source of same) if (source.storageKey) await this.removeQuietly(source.storageKey);
    return { document: { originalName: record.originalName, filePath: record.filePath } };
  }

  /**
   * The bot's file sources holding exactly these bytes: uploading a PDF already among the sources
   * as the reference document makes it the reference document instead of a second copy
   * (docs/product.md#knowledge-sources). Only files of the same size are read to compare.
   */
  private async sameFileSources(botId: number, bytes: Buffer): Promise<{ id: number; storageKey: string | null }[]> {
    const same: { id: number; storageKey: string | null }[] = [];
    for (const source of await this.documents.pdfSourcesOfSize(botId, bytes.length)) {
      if (!source.storageKey) continue;
      const stored = await this.storage.get(source.storageKey);
      if (!stored) continue;
      const chunks: Buffer[] = [];
      for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Uint8Array));
      if (Buffer.concat(chunks).equals(bytes)) same.push(source);
    }
    return same;
  }

  private async undoOnFailure<T>(key: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await this.removeQuietly(key);
      throw error;
    }
  }

  private async removeQuietly(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      this.logger.warn(`Could not remove stored file ${key}: ${describeError(error)}`);
    }
  }
}

// eslint-disable-next-line no-control-regex
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f<>:"|?*]/g;

/**
 * The client's file name, for display only: no folders, no control characters, at most 255
 * characters, ending in .pdf. It never reaches the disk or a response header unescaped.
 */
export function displayName(original: string): string {
  const base = path.posix.basename(String(original ?? '').replace(/\\/g, '/'));
  let name = base.replace(UNSAFE_NAME_CHARACTERS, '').replace(/\s+/g, ' ').trim();
  name = name.replace(/^\.+/, '');
  if (!name) name = 'document.pdf';
  if (!/\.pdf$/i.test(name)) name = `${name}.pdf`;
  if (name.length > 255) name = `${name.slice(0, 251)}.pdf`;
  return name;
}
