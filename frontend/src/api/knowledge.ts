import { apiFetch } from './client';
import { apiUpload, type UploadOptions } from './upload';
import type { KnowledgeSource, RefreshSchedule } from './types';

const sourcesPath = (botId: number) => `/api/bots/${botId}/sources`;

/** A bot's knowledge sources (docs/product.md#knowledge-sources). */
export const knowledgeApi = {
  list: (botId: number, signal?: AbortSignal) =>
    apiFetch<{ sources: KnowledgeSource[] }>(sourcesPath(botId), { signal }),
  /** A PDF, DOCX, TXT, Markdown, HTML or CSV file of at most 10 MB; read in the background. Reports upload progress. */
  addFile: (botId: number, file: File, options?: UploadOptions) => {
    const form = new FormData();
    form.append('file', file);
    return apiUpload<{ source: KnowledgeSource }>(`${sourcesPath(botId)}/files`, form, options);
  },
  /** A site to crawl from `url`, at most `maxPages` pages (1 to 500), read again by itself on `refreshSchedule`. */
  addWebsite: (botId: number, url: string, maxPages: number, refreshSchedule: RefreshSchedule) =>
    apiFetch<{ source: KnowledgeSource }>(`${sourcesPath(botId)}/website`, {
      method: 'POST',
      body: { url, maxPages, refreshSchedule },
    }),
  /** How often a website is read again by itself. */
  setSchedule: (botId: number, sourceId: number, refreshSchedule: RefreshSchedule) =>
    apiFetch<{ source: KnowledgeSource }>(`${sourcesPath(botId)}/${sourceId}`, {
      method: 'PATCH',
      body: { refreshSchedule },
    }),
  addText: (botId: number, name: string, text: string) =>
    apiFetch<{ source: KnowledgeSource }>(`${sourcesPath(botId)}/text`, { method: 'POST', body: { name, text } }),
  refresh: (botId: number, sourceId: number) =>
    apiFetch<{ source: KnowledgeSource }>(`${sourcesPath(botId)}/${sourceId}/refresh`, { method: 'POST' }),
  remove: (botId: number, sourceId: number) =>
    apiFetch<Record<string, never>>(`${sourcesPath(botId)}/${sourceId}`, { method: 'DELETE' }),
};
