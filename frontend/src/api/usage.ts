import type { UsageForecastResponse } from '@botsmith/contract';
import { apiFetch, apiRequest } from './client';
import type { BotUsageResponse, UsageHistoryResponse, UserUsageResponse } from './types';

export interface DownloadedFile {
  blob: Blob;
  /** The name the server suggested, if any. */
  fileName: string | null;
}

/** The file name a Content-Disposition header suggests, if any. */
export function fileNameFrom(disposition: string | null): string | null {
  const match = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  return match ? decodeURIComponent(match[1]) : null;
}

export const usageApi = {
  getUserUsage: () => apiFetch<UserUsageResponse>('/api/user/usage'),
  getUserUsageHistory: () => apiFetch<UsageHistoryResponse>('/api/user/usage-history'),
  getBotUsage: (botId: number) => apiFetch<BotUsageResponse>(`/api/bots/${botId}/usage`),
  getBotUsageHistory: (botId: number) => apiFetch<UsageHistoryResponse>(`/api/bots/${botId}/usage-history`),
  /** Where this billing period's spend is heading, the account's and each bot's (docs/product.md#spend-forecast). */
  getUsageForecast: (signal?: AbortSignal) => apiFetch<UsageForecastResponse>('/api/user/usage-forecast', { signal }),
  /** The chat logs as an .xlsx file. */
  downloadLogs: async (): Promise<DownloadedFile> => {
    const response = await apiRequest('/api/user/logs/download', {
      headers: { Accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json' },
    });
    return { blob: await response.blob(), fileName: fileNameFrom(response.headers.get('Content-Disposition')) };
  },
};
