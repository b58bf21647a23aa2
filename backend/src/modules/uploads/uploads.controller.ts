import { Controller, HttpCode, Post, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { BillingStateGuard } from '../../common/billing-state.guard.js';
import { DOCUMENT_MAX_BYTES, ICON_MAX_BYTES } from '../../common/constants.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { IdParam } from '../../common/parse-id.pipe.js';
import type { DocumentResponse } from './documents.service.js';
import { SingleFileInterceptor } from './single-file.interceptor.js';
import { UploadsService, type UploadedFileLike } from './uploads.service.js';

/** The brief's icon rule is "under 500KB (512000 bytes)": 511999 bytes is the largest accepted. */
const ICON_LIMIT = ICON_MAX_BYTES - 1;

@Controller('upload')
@UseGuards(BillingStateGuard)
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post('icon/:botId')
  @HttpCode(200)
  @UseInterceptors(
    SingleFileInterceptor({
      field: 'icon',
      maxBytes: ICON_LIMIT,
      tooLargeMessage: 'Image is too big. Keep under 500KB in size.',
    }),
  )
  uploadIcon(
    @CurrentUser() user: SessionUser,
    @IdParam('botId') botId: number,
    @UploadedFile() file: UploadedFileLike,
  ): Promise<{ fileUrl: string }> {
    return this.uploads.uploadIcon(user.id, botId, file);
  }

  @Post('update-document/:botId')
  @HttpCode(200)
  @UseInterceptors(
    SingleFileInterceptor({
      field: 'document',
      maxBytes: DOCUMENT_MAX_BYTES,
      tooLargeMessage: 'This document is too big. Keep it under 10 MB.',
    }),
  )
  uploadDocument(
    @CurrentUser() user: SessionUser,
    @IdParam('botId') botId: number,
    @UploadedFile() file: UploadedFileLike,
  ): Promise<{ document: DocumentResponse }> {
    return this.uploads.uploadDocument(user.id, botId, file);
  }
}
