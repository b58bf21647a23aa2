import { apiFetch } from './client';
import type { BotDocument } from './types';

function form(field: string, file: File): FormData {
  const data = new FormData();
  data.append(field, file);
  return data;
}

export const uploadsApi = {
  /** PNG/JPEG/GIF/WebP under 512000 bytes. */
  uploadIcon: (botId: number, file: File) =>
    apiFetch<{ fileUrl: string }>(`/api/upload/icon/${botId}`, { method: 'POST', body: form('icon', file) }),
  /** A PDF of at most 10 MB; its text becomes the bot's reference. */
  uploadDocument: (botId: number, file: File) =>
    apiFetch<{ document: BotDocument }>(`/api/upload/update-document/${botId}`, {
      method: 'POST',
      body: form('document', file),
    }),
};
