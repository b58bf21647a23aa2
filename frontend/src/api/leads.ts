import type { LeadsPage } from '@botsmith/contract';
import { apiFetch, apiRequest } from './client';
import { fileNameFrom, type DownloadedFile } from './usage';

function queryString(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The owner's leads (docs/product.md#leads-and-handoff). `botId` null: every bot's. */
export const leadsApi = {
  /** One page, newest first; pass the previous page's nextCursor as `cursor` for the next. */
  list: (botId: number | null, cursor?: string | null, signal?: AbortSignal) =>
    apiFetch<LeadsPage>(`/api/leads${queryString({ botId, cursor })}`, { signal }),
  remove: (id: number) => apiFetch<Record<string, never>>(`/api/leads/${id}`, { method: 'DELETE' }),
  /** The leads as an .xlsx file. */
  exportFile: async (botId: number | null): Promise<DownloadedFile> => {
    const response = await apiRequest(`/api/leads/export${queryString({ botId })}`, {
      headers: { Accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json' },
    });
    return { blob: await response.blob(), fileName: fileNameFrom(response.headers.get('Content-Disposition')) };
  },
};
