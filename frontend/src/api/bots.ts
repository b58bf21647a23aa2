import { apiFetch } from './client';
import type { BotResponse, BotSummary, BotUpdate } from './types';

const botPath = (id: number) => `/api/bots/${id}`;

export const botsApi = {
  list: () => apiFetch<{ bots: BotResponse[] }>('/api/bots'),
  create: (botName: string) => apiFetch<{ bot: BotSummary }>('/api/bots', { method: 'POST', body: { botName } }),
  get: (id: number) => apiFetch<{ bot: BotResponse }>(botPath(id)),
  update: (id: number, changes: BotUpdate) =>
    apiFetch<{ bot: BotResponse }>(botPath(id), { method: 'PUT', body: changes }),
  rotateApiKey: (id: number) => apiFetch<{ apiKey: string }>(`${botPath(id)}/api-key`, { method: 'POST' }),
  remove: (id: number) => apiFetch<Record<string, unknown>>(botPath(id), { method: 'DELETE' }),
};
