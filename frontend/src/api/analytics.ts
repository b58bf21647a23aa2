import type { AnalyticsQuery, AnalyticsResponse } from '@botsmith/contract';
import { apiFetch } from './client';

function queryString(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The owner's figures over a period (docs/product.md#analytics): one bot's, or all of them without `botId`. */
export const analyticsApi = {
  get: (query: AnalyticsQuery, signal?: AbortSignal) =>
    apiFetch<AnalyticsResponse>(
      `/api/analytics${queryString({
        botId: query.botId,
        from: query.from,
        to: query.to,
        groupBy: query.groupBy,
        timeZone: query.timeZone,
      })}`,
      { signal },
    ),
};
