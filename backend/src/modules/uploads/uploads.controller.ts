import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, FILE_UPLOAD, GATED, ID_IN_PATH, SAME_SITE } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { Controller, HttpCode, Post, UploadedFile, UseGuards } from '@nestjs/common';
import { BillingStateGuard } from '../users/billing-state.guard.js';
import { DOCUMENT_MAX_BYTES, ICON_MAX_BYTES } from '../../common/constants.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import type { DocumentResponse } from '../knowledge/documents.service.js';
import { UploadsService } from './uploads.service.js';
import { SingleFileUpload, type UploadedFileLike } from '../../common/single-file.interceptor.js';

/** Icons must be under 500KB, i.e. 512000 bytes: 511999 bytes is the largest accepted (docs/product.md#files). */
const ICON_LIMIT = ICON_MAX_BYTES - 1;

const UPLOAD_ERRORS = [
  GATED,
  SAME_SITE,
  ID_IN_PATH,
  FILE_UPLOAD,
  { 404: ['BOT_NOT_FOUND'], 415: ['UNSUPPORTED_FILE_TYPE'] },
];

@ApiTags('Bots')
@ApiCookieAuth(SECURITY.session)
@Controller('upload')
@UseGuards(BillingStateGuard)
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post('icon/:botId')
  @ApiOperation({ summary: "Uploads the bot's launcher icon (PNG, JPEG, GIF or WebP under 500 KB)" })
  @ApiAnswer(200, "The icon's public address.")
  @ApiErrors(...UPLOAD_ERRORS)
  @HttpCode(200)
  @SingleFileUpload({
    field: 'icon',
    maxBytes: ICON_LIMIT,
    tooLargeMessage: 'Image is too big. Keep under 500KB in size.',
  })
  uploadIcon(
    @CurrentUser() user: SessionUser,
    @IdParam('botId') botId: number,
    @UploadedFile() file: UploadedFileLike,
  ): Promise<{ fileUrl: string }> {
    return this.uploads.uploadIcon(user.id, botId, file);
  }

  @Post('update-document/:botId')
  @ApiOperation({ summary: "Replaces the bot's reference document (PDF, DOCX or text, under 10 MB)" })
  @ApiAnswer(200, 'The document.')
  @ApiErrors(...UPLOAD_ERRORS, {
    422: ['PDF_ENCRYPTED', 'PDF_UNREADABLE', 'PDF_NO_TEXT', 'PDF_TOO_COMPLEX'],
    503: ['DOCUMENTS_BUSY'],
  })
  @HttpCode(200)
  @SingleFileUpload({
    field: 'document',
    maxBytes: DOCUMENT_MAX_BYTES,
    tooLargeMessage: 'This document is too big. Keep it under 10 MB.',
  })
  uploadDocument(
    @CurrentUser() user: SessionUser,
    @IdParam('botId') botId: number,
    @UploadedFile() file: UploadedFileLike,
  ): Promise<{ document: DocumentResponse }> {
    return this.uploads.uploadDocument(user.id, botId, file);
  }
}
