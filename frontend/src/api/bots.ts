import { apiFetch } from './client';
import type { Bot, BotSummary, BotUpdate } from './types';

const botPath = (id: number) => `/api/bots/${id}`;

export const botsApi = {
  list: () => apiFetch<{ bots: Bot[] }>('/api/bots'),
  create: (botName: string) => apiFetch<{ bot: BotSummary }>('/api/bots', { method: 'POST', body: { botName } }),
  get: (id: number) => apiFetch<{ bot: Bot }>(botPath(id)),
  update: (id: number, changes: BotUpdate) => apiFetch<{ bot: Bot }>(botPath(id), { method: 'PUT', body: changes }),
  rotateApiKey: (id: number) => apiFetch<{ apiKey: string }>(`${botPath(id)}/api-key`, { method: 'POST' }),
  remove: (id: number) => apiFetch<Record<string, unknown>>(botPath(id), { method: 'DELETE' }),
};
