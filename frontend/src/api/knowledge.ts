import { apiFetch } from './client';
import { apiUpload, type UploadOptions } from './upload';
import type { SourcePagesPage } from '@botsmith/contract';
import type { SourceResponse, RefreshSchedule } from './types';

const sourcesPath = (botId: number) => `/api/bots/${botId}/sources`;

/** A bot's knowledge sources (docs/product.md#knowledge-sources). */
export const knowledgeApi = {
  list: (botId: number, signal?: AbortSignal) =>
    apiFetch<{ sources: SourceResponse[] }>(sourcesPath(botId), { signal }),
  /** A PDF, DOCX, TXT, Markdown, HTML or CSV file of at most 10 MB; read in the background. Reports upload progress. */
  addFile: (botId: number, file: File, options?: UploadOptions) => {
    const form = new FormData();
    form.append('file', file);
    return apiUpload<{ source: SourceResponse }>(`${sourcesPath(botId)}/files`, form, options);
  },
  /** A site to crawl from `url`, at most `maxPages` pages (1 to 500), read again by itself on `refreshSchedule`. */
  addWebsite: (botId: number, url: string, maxPages: number, refreshSchedule: RefreshSchedule) =>
    apiFetch<{ source: SourceResponse }>(`${sourcesPath(botId)}/website`, {
      method: 'POST',
      body: { url, maxPages, refreshSchedule },
    }),
  /** How often a website is read again by itself. */
  setSchedule: (botId: number, sourceId: number, refreshSchedule: RefreshSchedule) =>
    apiFetch<{ source: SourceResponse }>(`${sourcesPath(botId)}/${sourceId}`, {
      method: 'PATCH',
      body: { refreshSchedule },
    }),
  addText: (botId: number, name: string, text: string) =>
    apiFetch<{ source: SourceResponse }>(`${sourcesPath(botId)}/text`, { method: 'POST', body: { name, text } }),
  refresh: (botId: number, sourceId: number) =>
    apiFetch<{ source: SourceResponse }>(`${sourcesPath(botId)}/${sourceId}/refresh`, { method: 'POST' }),
  /** A written answer's or correction's text as it was written, to edit it. */
  text: (botId: number, sourceId: number, signal?: AbortSignal) =>
    apiFetch<{ text: string }>(`${sourcesPath(botId)}/${sourceId}/text`, { signal }),
  /** A written answer's new question (its name) and answer. */
  updateText: (botId: number, sourceId: number, name: string, text: string) =>
    apiFetch<{ source: SourceResponse }>(`${sourcesPath(botId)}/${sourceId}/text`, {
      method: 'PUT',
      body: { name, text },
    }),
  /** A correction's new visitor question and answer. */
  updateCorrection: (botId: number, sourceId: number, question: string, answer: string) =>
    apiFetch<{ source: SourceResponse }>(`/api/bots/${botId}/corrections/${sourceId}`, {
      method: 'PUT',
      body: { question, answer },
    }),
  /** A website source's pages with each page's status, 50 at a time (pass nextCursor back as cursor). */
  pages: (botId: number, sourceId: number, cursor: string | null, signal?: AbortSignal) =>
    apiFetch<SourcePagesPage>(
      `${sourcesPath(botId)}/${sourceId}/pages${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      { signal },
    ),
  remove: (botId: number, sourceId: number) =>
    apiFetch<Record<string, never>>(`${sourcesPath(botId)}/${sourceId}`, { method: 'DELETE' }),
};
