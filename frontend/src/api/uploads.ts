import { apiFetch } from './client';
import { apiUpload, type UploadOptions } from './upload';
import type { DocumentResponse } from './types';

function form(field: string, file: File): FormData {
  const data = new FormData();
  data.append(field, file);
  return data;
}

export const uploadsApi = {
  /** PNG/JPEG/GIF/WebP under 512000 bytes. */
  uploadIcon: (botId: number, file: File) =>
    apiFetch<{ fileUrl: string }>(`/api/upload/icon/${botId}`, { method: 'POST', body: form('icon', file) }),
  /** A PDF of at most 10 MB; its text becomes the bot's reference. Reports upload progress. */
  uploadDocument: (botId: number, file: File, options?: UploadOptions) =>
    apiUpload<{ document: DocumentResponse }>(`/api/upload/update-document/${botId}`, form('document', file), options),
};
